/**
 * `kis.doctor()`: checks, with requests that change nothing, what usually goes wrong between a
 * client and a server: the server does not answer, the base URL lacks `/api` (the web
 * application's HTML answers instead), the key is rejected or lacks the rights, who the key is
 * and what it may do (doctor-key.ts), and which route variants and release the server has.
 */
import { denialOf, isRouteNotFound, ROUTE_VARIANTS } from '@kis/rules';
import type {
  DoctorAccess,
  DoctorCheck,
  DoctorKey,
  DoctorOptions,
  DoctorReport,
} from '../doctor.js';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  HtmlResponseError,
  KisError,
  NotFoundError,
  PermissionDeniedError,
} from '../errors.js';
import type { KisClient } from '../kis-client.js';
import type { ModelSwitchNotice } from '../model-switch.js';
import type { PrunePreview } from '../prune-preview.js';
import type { CallControl } from '../request-options.js';
import type { CallContext } from './call.js';
import { modelSwitchCheck, pruneRiskChecks } from './doctor-guards.js';
import { accessCheck, identityChecks, managingFix } from './doctor-key.js';
import { looksLikeHtml, parseErrorBody } from './error-parse.js';
import { ACCESS_GROUP_NAMES, accessOf, keyOf } from './key-access.js';
import { OutgoingRequest } from './outgoing-request.js';

/** Per request: a doctor reports what it sees at once rather than waiting through retries. */
const DOCTOR_TIMEOUT_MS = 15_000;

/** An answer as the doctor reads it. */
interface Seen {
  status: number;
  body: unknown;
  html: boolean;
}

type Probe = (method: string, path: string, body?: string | FormData) => Promise<Seen>;

/** The calls the doctor makes through the client. */
type DoctorKis = Pick<
  KisClient,
  'credentials' | 'ingestion' | 'identity' | 'pairs' | 'searchSettings'
>;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A request through the client's transport whose answer is read as it comes: the probes send
 * bodies no operation takes (an empty association, a form without files), which every server
 * refuses, to learn which routes it has without changing anything.
 */
function prober(ctx: CallContext, control: CallControl): Probe {
  return async (method, path, body) => {
    try {
      const headers: Record<string, string> =
        typeof body === 'string' ? { 'content-type': 'application/json' } : {};
      const request = new OutgoingRequest(ctx.baseUrl + path, {
        method,
        headers,
        body: body ?? null,
      });
      const r = await ctx.transport(request, control);
      const text = await r.text();
      const html = looksLikeHtml(r.headers.get('content-type'), text);
      return { status: r.status, body: parse(text), html };
    } catch (err) {
      // the transport refuses an HTML page on a 2xx: for the doctor it is an answer like any other
      if (HtmlResponseError.isInstance(err))
        return { status: err.status, body: err.body, html: true };
      throw err;
    }
  };
}

/** How far the key check got. */
type KeyState = 'manages' | 'basic' | 'stop';

const htmlAnswer = (status: number) => `answered with an HTML page (HTTP ${status}), not the API`;

/** A base URL with `/api` added: what to use when the given one lacks it. */
function withApi(baseUrl: string): string | undefined {
  return /\/api$/.test(new URL(baseUrl).pathname) ? undefined : `${baseUrl}/api`;
}

/** Why a check failed, from a thrown error: the status and the server's words, or the network's. */
function reason(err: unknown): string {
  if (APIError.isInstance(err)) {
    const summary = parseErrorBody(err.body).summary;
    return `HTTP ${err.status}${summary ? `: ${summary}` : ''}`;
  }
  // a connection failure's cause says what happened (`connect ECONNREFUSED …`) without the URL
  const cause = (err as { cause?: { message?: unknown } })?.cause?.message;
  return typeof cause === 'string' && cause ? cause : String((err as Error)?.message ?? err);
}

/** The failed "/api" check, for an HTML page or a URL under which the API has no routes. */
function apiPrefixCheck(baseUrl: string, what: string): DoctorCheck {
  const suggestion = withApi(baseUrl);
  return {
    name: 'base URL includes /api',
    ok: false,
    detail: `${baseUrl} ${what}`,
    fix: suggestion
      ? `use ${suggestion} (the base URL includes the /api prefix)`
      : 'check the base URL and any proxy or login page in front of the API',
  };
}

/** What `GET /me` told about the key, or why it told nothing. */
type Identity = { key: DoctorKey } | { failed: DoctorCheck };

class Doctor {
  readonly checks: DoctorCheck[] = [];
  reachable = true;
  keyModel: DoctorKey | undefined;
  access: DoctorAccess[] | undefined;
  modelSwitch: ModelSwitchNotice | null | undefined;
  pruneRisks: PrunePreview[] | undefined;
  private readonly probe: Probe;
  private readonly control: CallControl;
  private identityPromise: Promise<Identity> | undefined;
  /** The key was refused with a 403 deployed servers do not answer: the seed's role check. */
  private seedRefusal = false;

  constructor(
    private readonly ctx: CallContext,
    private readonly kis: DoctorKis,
    options: DoctorOptions,
  ) {
    this.control = {
      maxRetries: 0,
      timeoutMs: options.timeoutMs ?? DOCTOR_TIMEOUT_MS,
      signal: options.signal,
      headers: options.headers,
    };
    this.probe = prober(ctx, this.control);
  }

  add(check: DoctorCheck): void {
    const redact = this.ctx.redactor.text;
    this.checks.push({
      ...check,
      detail: redact(check.detail),
      ...(check.fix ? { fix: redact(check.fix) } : {}),
    });
  }

  /** The server answers at all; its answer to `GET /version`, or undefined when it did not. */
  async reach(): Promise<Seen | undefined> {
    const { baseUrl } = this.ctx;
    try {
      const seen = await this.probe('GET', '/version');
      this.add({
        name: 'server reachable',
        ok: true,
        detail: `${baseUrl} answered HTTP ${seen.status}`,
      });
      return seen;
    } catch (err) {
      if (!APIConnectionError.isInstance(err)) throw err;
      this.reachable = false;
      this.add({
        name: 'server reachable',
        ok: false,
        detail: `${baseUrl} did not answer: ${reason(err)}`,
        fix: 'check the host and port in the base URL, and that the server is running',
      });
      return undefined;
    }
  }

  /**
   * The key: accepted, and allowed to manage connectors. `stop` when later checks cannot run
   * (no API here, or a rejected key), `basic` when the key lacks the role.
   */
  async key(): Promise<KeyState> {
    const options = { ...this.control };
    try {
      const credentials = await this.kis.credentials.list(options);
      this.passApiPrefix();
      this.add({ name: 'API key accepted', ok: true, detail: 'the server accepted the key' });
      this.add({
        name: 'key can manage connectors',
        ok: true,
        detail: `listing credentials works (${credentials.length} visible)`,
      });
      return 'manages';
    } catch (err) {
      return await this.keyFailed(err);
    }
  }

  private passApiPrefix(): void {
    this.add({
      name: 'base URL includes /api',
      ok: true,
      detail: `${this.ctx.baseUrl} answers with the API's JSON`,
    });
  }

  private async keyFailed(err: unknown): Promise<KeyState> {
    if (HtmlResponseError.isInstance(err)) {
      this.add(apiPrefixCheck(this.ctx.baseUrl, htmlAnswer(err.status)));
      return 'stop';
    }
    if (APIError.isInstance(err) && isRouteNotFound(err.status, err.body)) {
      const seen = `has no API routes (GET /manage/admin/credential: ${reason(err)})`;
      this.add(apiPrefixCheck(this.ctx.baseUrl, seen));
      return 'stop';
    }
    if (!KisError.isInstance(err) || err.status === undefined) throw err;
    this.passApiPrefix();
    if (AuthenticationError.isInstance(err)) {
      this.add({
        name: 'API key accepted',
        ok: false,
        detail: `the server rejected the key (${reason(err)})`,
        fix: 'use a valid API key: check its value, and that it was not revoked',
      });
      return 'stop';
    }
    this.add({ name: 'API key accepted', ok: true, detail: 'the server accepted the key' });
    const denied = PermissionDeniedError.isInstance(err);
    this.seedRefusal = denied && denialOf(err.status, err.body) === undefined;
    const identity = denied ? await this.identity() : undefined;
    this.add({
      name: 'key can manage connectors',
      ok: false,
      detail: `listing credentials failed (${reason(err)})`,
      fix: denied
        ? managingFix(identity && 'key' in identity ? identity.key : undefined)
        : 'look at the server: it failed on a plain listing',
    });
    return denied ? 'basic' : 'stop';
  }

  /** `GET /me`, asked once: the key's model, or the failed check saying why it is not known. */
  private identity(): Promise<Identity> {
    this.identityPromise ??= this.kis.identity.me({ ...this.control }).then(
      (me): Identity => ({ key: keyOf(me, this.seedRefusal) }),
      (err: unknown): Identity => {
        if (APIError.isInstance(err) && isRouteNotFound(err.status, err.body)) {
          const why = `not served (GET /me: ${reason(err)}; a server that follows the seed, whose keys have roles: see "key can manage connectors")`;
          return { key: { model: 'unknown', reason: why } };
        }
        if (!APIError.isInstance(err)) throw err;
        return {
          failed: {
            name: 'key identity',
            ok: false,
            detail: `GET /me failed (${reason(err)})`,
            fix: 'look at the server: it failed to say who the key is',
          },
        };
      },
    );
    return this.identityPromise;
  }

  /** Who the key is, and per group of calls whether it may use them (by the rule book). */
  async whoIsKey(): Promise<void> {
    const identity = await this.identity();
    if ('failed' in identity) {
      this.add(identity.failed);
      return;
    }
    const { key } = identity;
    this.keyModel = key;
    for (const check of identityChecks(key)) this.add(check);
    const access = ACCESS_GROUP_NAMES.map((group) => accessOf(key, group));
    if (access.some((a) => a === undefined)) return;
    this.access = access.filter((a): a is DoctorAccess => a !== undefined);
    for (const a of this.access) this.add(accessCheck(key, a));
  }

  /** Which of a group's paths the server has, probing with a body every server refuses. */
  async routes(
    group: 'associate' | 'upload',
    method: string,
    body: () => string | FormData,
  ): Promise<void> {
    const served: string[] = [];
    for (const path of ROUTE_VARIANTS[group]) {
      const probePath = path.replace('{connector_id}', '0').replace('{credential_id}', '0');
      const seen = await this.probe(method, probePath, body());
      if (!isRouteNotFound(seen.status, seen.body)) served.push(path);
      if (served.length > 0) break; // the client uses the first served path: the rest do not matter
    }
    const [deployed, seed] = ROUTE_VARIANTS[group];
    const name = group === 'associate' ? 'association route' : 'upload route';
    if (served[0] === deployed) {
      this.add({ name, ok: true, detail: `${method} ${deployed} (deployed servers' path)` });
    } else if (served[0] === seed) {
      this.add({ name, ok: true, detail: `${method} ${seed} (the seed's path; no ${deployed})` });
    } else {
      this.add({
        name,
        ok: false,
        detail: `neither ${method} ${deployed} nor ${seed} exists here`,
        fix: 'check that the base URL leads to the Knowledge Indexing Service API',
      });
    }
  }

  /** The release from `GET /version` (seen when reaching the server): information, never a failure. */
  version(seen: Seen): void {
    const release = (seen.body as { backend_version?: unknown } | null)?.backend_version;
    const detail =
      seen.status >= 200 && seen.status < 300 && typeof release === 'string'
        ? release
        : isRouteNotFound(seen.status, seen.body)
          ? 'not served (GET /version: 404 Not Found; a server that follows the seed)'
          : `unknown (GET /version answered HTTP ${seen.status})`;
    this.add({ name: 'server version', ok: true, detail });
  }

  /** A model switch in progress, and what it means for pushed documents. */
  async modelSwitchInProgress(): Promise<void> {
    const seen = await modelSwitchCheck(this.kis, this.control);
    if (seen === undefined) return;
    this.add(seen.check);
    this.modelSwitch = seen.notice;
  }

  /** The pairs a prune could empty of their pushed documents. */
  async pairsAtRisk(): Promise<void> {
    const { checks, risks } = await pruneRiskChecks(this.kis, this.control);
    for (const check of checks) this.add(check);
    this.pruneRisks = risks;
  }

  /** The pair exists and holds documents. */
  async pair(ccPairId: number): Promise<void> {
    const name = `cc pair ${ccPairId}`;
    try {
      const docs = await this.kis.ingestion.listConnectorDocuments(ccPairId, { ...this.control });
      const detail =
        docs.length > 0
          ? `exists and holds ${docs.length} document(s)`
          : 'holds no documents (servers up to 4.6.1 answer a pair that does not exist the same way)';
      this.add({ name, ok: true, detail });
    } catch (err) {
      const missing = NotFoundError.isInstance(err) || PermissionDeniedError.isInstance(err);
      this.add({
        name,
        ok: false,
        detail: missing
          ? `no such pair visible to this key (${reason(err)})`
          : `listing its documents failed (${reason(err)})`,
        fix: 'use the cc_pair_id the association answered (setupConnector returns it as ccPairId)',
      });
    }
  }
}

/** Run the checks in order; a failure that makes the next checks meaningless ends the list. */
export async function runDoctor(
  ctx: CallContext,
  kis: DoctorKis,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const doctor = new Doctor(ctx, kis, options);
  const seen = await doctor.reach();
  if (seen?.html) {
    doctor.add(apiPrefixCheck(ctx.baseUrl, htmlAnswer(seen.status)));
    return report(doctor);
  }
  const key = seen ? await doctor.key() : 'stop';
  if (seen === undefined || key === 'stop') return report(doctor);
  await doctor.whoIsKey();
  // association: ids of the default pair and an empty body, which every server refuses (422)
  await doctor.routes('associate', 'PUT', () => '{}');
  // upload: a form without files, refused the same way
  await doctor.routes('upload', 'POST', () => new FormData());
  doctor.version(seen);
  await doctor.modelSwitchInProgress();
  // listing pairs and their documents needs the rights a key that cannot manage lacks
  if (key === 'manages') await doctor.pairsAtRisk();
  // listing a pair's documents needs the role the key lacks: no answer would mean anything
  if (options.ccPairId !== undefined && key === 'manages') await doctor.pair(options.ccPairId);
  return report(doctor);
}

function report(doctor: Doctor): DoctorReport {
  const failed = doctor.checks.filter((c) => !c.ok).length;
  return {
    checks: doctor.checks,
    summary: {
      ok: failed === 0,
      passed: doctor.checks.length - failed,
      failed,
      warnings: doctor.checks.filter((c) => c.ok && c.warning === true).length,
      reachable: doctor.reachable,
    },
    ...(doctor.keyModel ? { key: doctor.keyModel } : {}),
    ...(doctor.access ? { access: doctor.access } : {}),
    ...(doctor.modelSwitch !== undefined ? { modelSwitch: doctor.modelSwitch } : {}),
    ...(doctor.pruneRisks ? { pruneRisks: doctor.pruneRisks } : {}),
  };
}
