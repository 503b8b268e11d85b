// The way every operation of `/api` goes: the key and what it may do (`AccessGate`), parameters,
// the body (decoded, read laxly where the profile does, validated against the spec), then the
// operation's handler with the caller.
import type { HttpBindings } from '@hono/node-server';
import { ANSWERS, type Answer, type Profile } from '@kis/rules';
import type { Context, Hono } from 'hono';
import type { AccessGate } from './access.js';
import { readFormBody, readJsonBody } from './body.js';
import type { LaxCoercer } from './coerce.js';
import type { CheckedHandler } from './op-types.js';
import type { ProfileBehaviour } from './profile.js';
import type { Route } from './routes.js';
import {
  checkParameter,
  type RequestBodyInfo,
  type SpecValidators,
  type ValidationIssue,
} from './validation.js';

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: JSON_HEADERS,
  });
}

export function answer(a: Answer): Response {
  return json(a.status, a.body);
}

/** Raw (undecoded) values of the path parameters, from the URL's path. */
function rawPathParams(template: string, pathname: string): Record<string, string> {
  const names = template.split('/');
  const values = pathname.split('/');
  const out: Record<string, string> = {};
  names.forEach((seg, i) => {
    const m = /^:(.+)$/.exec(seg);
    if (m !== null && values[i] !== undefined) out[m[1]!] = values[i]!;
  });
  return out;
}

/** What the pipeline of every route uses. */
export interface ApiPipeline {
  validators: SpecValidators;
  access: AccessGate;
  profile: Profile;
  behaviour: ProfileBehaviour;
  maxBodyBytes: number;
  /** Reads multipart text fields by their schema (forms arrive as text). */
  formCoercer: LaxCoercer;
  /** Reads JSON bodies laxly where the profile does (undefined: as they are). */
  jsonCoercer: LaxCoercer | undefined;
}

/** A decoded JSON body validated against its schema, read laxly first where the profile does. */
export function checkJson(p: ApiPipeline, info: RequestBodyInfo, body: unknown) {
  let issues = p.validators.check(info.validate, body, ['body']);
  if (issues.length === 0 || p.jsonCoercer === undefined) return { body, issues };
  const coerced = p.jsonCoercer.coerce(info.schema, body);
  if (coerced === body) return { body, issues };
  issues = p.validators.check(info.validate, coerced, ['body']);
  return { body: coerced, issues };
}

type Input = Parameters<CheckedHandler>[0];
type Ctx = Context<{ Bindings: HttpBindings }>;

/** Path, then query parameters, parsed and validated. */
function readParams(p: ApiPipeline, route: Route, c: Ctx, input: Input, issues: ValidationIssue[]) {
  for (const where of ['path', 'query'] as const) {
    for (const param of route.op.parameters.filter((x) => x.in === where)) {
      const raw = where === 'path' ? c.req.param(param.name) : c.req.query(param.name);
      const r = checkParameter(p.validators, param, raw);
      input.params[param.name] = r.value;
      issues.push(...r.issues);
    }
  }
}

/** The request body, decoded (unless `early` already was) and validated. */
async function readBody(
  p: ApiPipeline,
  route: Route,
  c: Ctx,
  input: Input,
  issues: ValidationIssue[],
  early: Awaited<ReturnType<typeof readJsonBody>> | undefined,
): Promise<void> {
  const info = route.op.body;
  if (info?.mediaType === 'application/json') {
    const read = early ?? (await readJsonBody(c, info, p.maxBodyBytes));
    issues.push(...read.decodeIssues, ...read.issues);
    if (read.body !== undefined) {
      const checked = checkJson(p, info, read.body);
      input.body = checked.body;
      issues.push(...checked.issues);
    }
  } else if (info?.mediaType === 'multipart/form-data') {
    const read = await readFormBody(c, route.op, p.maxBodyBytes);
    issues.push(...read.decodeIssues, ...read.issues);
    const fields = p.formCoercer.coerce(info.schema, read.fields);
    issues.push(...p.validators.check(info.validate, fields, ['body']));
    input.form = read.form;
    input.fields = fields;
  }
}

/** Serves one operation at its route. */
export function mountOperation(
  app: Hono<{ Bindings: HttpBindings }>,
  p: ApiPipeline,
  route: Route,
  handler: CheckedHandler,
): void {
  const { op } = route;
  const pathParams = op.parameters.filter((param) => param.in === 'path');
  app.on(op.method.toUpperCase(), route.honoPath, async (c) => {
    if (
      p.behaviour.matchDecodedPath &&
      pathParams.some((param) => c.req.param(param.name)?.includes('/'))
    ) {
      return answer(ANSWERS.routeNotFound());
    }
    // FastAPI decodes the body before it checks the key (deployed servers).
    const early =
      p.behaviour.decodeBeforeAuth && op.body?.mediaType === 'application/json'
        ? await readJsonBody(c, op.body, p.maxBodyBytes)
        : undefined;
    if (early !== undefined && early.decodeIssues.length > 0) {
      return answer(ANSWERS.validation(p.profile, early.decodeIssues));
    }
    const admission = p.access.admit(route, c.req.header('authorization'));
    if ('refused' in admission) return answer(admission.refused);
    const issues: ValidationIssue[] = [];
    const input: Input = {
      params: {},
      body: undefined,
      fields: undefined,
      form: undefined,
      rawParams:
        pathParams.length > 0 ? rawPathParams(route.honoPath, new URL(c.req.url).pathname) : {},
      caller: admission.caller,
    };
    readParams(p, route, c, input, issues);
    await readBody(p, route, c, input, issues, early);
    if (issues.length > 0) return answer(ANSWERS.validation(p.profile, issues));
    const result = await handler(input);
    return json(result.status, result.body);
  });
}
