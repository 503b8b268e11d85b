// Which operations a profile serves and who may call them, read from the spec's extensions:
// `x-kis-profiles` (absent: every profile), `x-kis-role` (least role per profile) and `security`
// (an empty list: no key needed). Also answers whether a path is known at all, which tells
// FastAPI's 404 (no such route) from its 405 (a known path, another method).
import { PROFILES, type Profile, ROLES, type Role } from '@kis/rules';
import type { OperationInfo, SpecValidators } from './validation.js';

export const API_PREFIX = '/api';

export interface Route {
  op: OperationInfo;
  /** The least role a key needs; undefined when the operation needs no key. */
  role: Role | undefined;
  /** The hono path, e.g. `/api/svc-api/ingestion/:document_id`. */
  honoPath: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function honoPath(specPath: string): string {
  return API_PREFIX + specPath.replace(/\{([^}]+)\}/g, ':$1');
}

function rawOperation(validators: SpecValidators, op: OperationInfo): Record<string, unknown> {
  const item = validators.doc.paths?.[op.path];
  const raw = isObject(item) ? item[op.method] : undefined;
  return isObject(raw) ? raw : {};
}

function servedBy(raw: Record<string, unknown>, where: string): readonly Profile[] {
  const list = raw['x-kis-profiles'];
  if (list === undefined) return PROFILES;
  if (!Array.isArray(list) || !list.every((p) => (PROFILES as readonly unknown[]).includes(p))) {
    throw new Error(`${where}: x-kis-profiles must list profiles among ${PROFILES.join(', ')}`);
  }
  return list as Profile[];
}

function roleFor(raw: Record<string, unknown>, profile: Profile, where: string): Role {
  const roles = raw['x-kis-role'];
  const role = isObject(roles) ? roles[profile] : undefined;
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw new Error(
      `${where}: x-kis-role.${profile} must be one of ${ROLES.join(', ')} (the spec names the least role of every operation)`,
    );
  }
  return role as Role;
}

function needsKey(validators: SpecValidators, raw: Record<string, unknown>): boolean {
  const security = raw.security ?? (validators.doc as { security?: unknown }).security;
  return !(Array.isArray(security) && security.length === 0);
}

/** The routes a server of `profile` serves: one per operation of the spec that it offers. */
export function routesFor(validators: SpecValidators, profile: Profile): Route[] {
  const routes: Route[] = [];
  for (const op of validators.operations) {
    const raw = rawOperation(validators, op);
    const where = `operation ${op.operationId} (${op.method.toUpperCase()} ${op.path})`;
    if (!servedBy(raw, where).includes(profile)) continue;
    routes.push({
      op,
      role: needsKey(validators, raw) ? roleFor(raw, profile, where) : undefined,
      honoPath: honoPath(op.path),
    });
  }
  return routes;
}

/** True when `path` (under the API prefix) is the path of one of `routes`, whatever the method. */
export function knownPathMatcher(routes: readonly Route[]): (path: string) => boolean {
  const patterns = [...new Set(routes.map((r) => r.honoPath))].map(
    (p) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`),
  );
  return (path) => patterns.some((re) => re.test(path));
}
