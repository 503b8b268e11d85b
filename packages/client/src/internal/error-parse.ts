/**
 * Turns a failed answer into the right typed error. Parses every error shape deployed servers
 * send (see compat-notes): FastAPI `{detail: [...]}`, `{status_code, message, data}`,
 * `{error_code, detail}`, `{detail}`, `{message}`, Prism's problem+json with `validation[]`,
 * plain text, and HTML pages (a base URL without `/api`, a proxy or a login page).
 */
import {
  denialOf,
  enterpriseFeatureOf,
  isNotAuthenticated,
  isPairNotFound,
  isPlanRequired,
  isRouteNotFound,
  isUnknownCredential,
  parseValidationMessage,
  releaseRouteOf,
  requiredTierOf,
  scopeRefusalOf,
} from '@kis/rules';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  FeatureUnavailableError,
  HtmlResponseError,
  InternalServerError,
  type KisErrorInit,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  SyncInProgressError,
  UnprocessableEntityError,
  type ValidationIssue,
} from '../errors.js';
import { retryAfterMs } from './backoff.js';
import type { Attempted } from './http.js';
import type { Redactor } from './redact.js';
import { MANAGING_KEY, rolesFor } from './roles.js';

/** Answer headers as the parser reads them (a WHATWG `Headers` is one). */
type HeaderReader = Pick<Headers, 'get' | 'forEach'>;

/** What an error is built from: an answer's status line and headers. */
type AnswerHead = { status: number; statusText: string; headers: HeaderReader };

const MAX_TEXT = 500;

/** `["body","document","sections",0,"text"]` → `document.sections[0].text`. */
export function formatLoc(loc: ReadonlyArray<string | number>): string {
  let out = '';
  const start = loc[0] === 'body' && loc.length > 1 ? 1 : 0;
  for (let i = start; i < loc.length; i++) {
    const part = loc[i];
    if (typeof part === 'number' || (typeof part === 'string' && /^\d+$/.test(part))) {
      out += `[${part}]`;
    } else {
      out += out ? `.${part}` : String(part);
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toIssue(item: unknown): ValidationIssue | undefined {
  if (!isObject(item)) return undefined;
  // FastAPI: {loc, msg, type}; Prism problem+json: {location, message, code, severity}
  const rawLoc = Array.isArray(item.loc)
    ? item.loc
    : Array.isArray(item.location)
      ? item.location
      : [];
  const loc = rawLoc.filter(
    (p): p is string | number => typeof p === 'string' || typeof p === 'number',
  );
  const msg =
    typeof item.msg === 'string' ? item.msg : typeof item.message === 'string' ? item.message : '';
  const type =
    typeof item.type === 'string' ? item.type : typeof item.code === 'string' ? item.code : 'error';
  if (!msg && loc.length === 0) return undefined;
  // Prism (like Ajv) reports a missing property at its parent; FastAPI names the field itself.
  const missing = type === 'required' ? /required property '([^']+)'/.exec(msg)?.[1] : undefined;
  return { loc: missing && loc[loc.length - 1] !== missing ? [...loc, missing] : loc, msg, type };
}

/**
 * Prism (mock, or `proxy --errors`) answers an invalid request with the 422 example of the spec
 * when one is documented, and puts the real findings in an `sl-violations` header. Those name the
 * offending field, so they are the detail worth reporting.
 */
function prismViolations(headers: HeaderReader): ValidationIssue[] | undefined {
  const raw = headers.get('sl-violations');
  if (!raw) return undefined;
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return undefined;
    const issues = list
      .filter((v) => isObject(v) && Array.isArray(v.location) && v.location[0] === 'request')
      .map((v) => toIssue({ ...v, location: (v.location as unknown[]).slice(1) }))
      .filter((d): d is ValidationIssue => d !== undefined);
    return issues.length > 0 ? issues : undefined;
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
}

export function looksLikeHtml(contentType: string | null, text: unknown): boolean {
  if (contentType && /\btext\/html\b|application\/xhtml/i.test(contentType)) return true;
  return (
    typeof text === 'string' && /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text)
  );
}

function htmlTitle(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(text);
  const t = m?.[1]?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, 120) : undefined;
}

/** Message describing an HTML answer where JSON was expected. */
export function htmlMessage(status: number, method: string, url: string, body: unknown): string {
  const title = htmlTitle(body);
  return (
    `${status} on ${method} ${url}: an HTML page${title ? ` ("${title}")` : ''} came back instead of ` +
    'the API\'s JSON. The base URL probably lacks the "/api" prefix (e.g. https://host/api), ' +
    'or a proxy or login page is in the way.'
  );
}

export interface ParsedErrorBody {
  summary: string;
  detail?: ValidationIssue[];
  code?: string;
}

/**
 * Deployed servers' 422 (`{status_code: 422, message: "<Python list of errors>", data: null}`)
 * as the seed's `{detail: [...]}`, so both shapes give the same detail list and summary.
 */
function asDetailBody(body: Record<string, unknown>): Record<string, unknown> {
  if (body.status_code !== 422 || typeof body.message !== 'string') return body;
  const detail = parseValidationMessage(body.message).map(({ loc, msg, type }) => ({
    loc: [...loc],
    msg,
    type,
  }));
  return { ...body, detail };
}

/** Extract a readable summary (and the 422 detail list) from any known error body shape. */
export function parseErrorBody(raw: unknown): ParsedErrorBody {
  if (typeof raw === 'string') return { summary: collapse(raw) };
  if (!isObject(raw)) return { summary: raw === undefined ? '' : collapse(JSON.stringify(raw)) };
  const body = asDetailBody(raw);
  const code = typeof body.error_code === 'string' ? body.error_code : undefined;
  const withCode = (s: string): ParsedErrorBody =>
    code ? { summary: s ? `${s} (${code})` : code, code } : { summary: s };
  if (Array.isArray(body.detail) || Array.isArray(body.validation)) {
    const list = (Array.isArray(body.detail) ? body.detail : body.validation) as unknown[];
    const detail = list.map(toIssue).filter((d): d is ValidationIssue => d !== undefined);
    const parts = detail.map((d) => {
      const where = formatLoc(d.loc);
      return where ? `${where}: ${d.msg}` : d.msg;
    });
    let lead = '';
    if (typeof body.title === 'string') lead = body.title;
    if (typeof body.detail === 'string') lead = lead ? `${lead}: ${body.detail}` : body.detail;
    const summary = collapse([lead, parts.join('; ')].filter(Boolean).join(' — '));
    return { ...withCode(summary), detail };
  }
  if (typeof body.detail === 'string') {
    const lead =
      typeof body.title === 'string' && body.title !== body.detail ? `${body.title}: ` : '';
    return withCode(collapse(lead + body.detail));
  }
  if (typeof body.message === 'string') return withCode(collapse(body.message));
  if (typeof body.title === 'string') return withCode(collapse(body.title));
  if (typeof body.error === 'string') return withCode(collapse(body.error));
  if (isObject(body.detail) && typeof body.detail.message === 'string') {
    return withCode(collapse(body.detail.message));
  }
  return withCode(collapse(JSON.stringify(body)));
}

const HINTS: Record<number, string> = {
  401: ' Check the API key.',
  413: ' The body exceeds what the server or a proxy accepts (often 1 MB).',
};

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
};

/** The roles a 403 is about: none when the key was rejected, else those the operation needs. */
function forbiddenRoles(body: unknown, path: string | undefined): readonly string[] | undefined {
  if (isNotAuthenticated(403, body) || path === undefined) return undefined;
  return rolesFor(path);
}

/** What the server lacks, when the answer says it has no such feature; undefined otherwise. */
function unavailable(
  status: number,
  body: unknown,
  path: string | undefined,
):
  | {
      feature: string;
      reason: 'edition' | 'plan' | 'release';
      requiredTier?: string;
      sinceRelease?: string;
      sentence: string;
    }
  | undefined {
  const route = path?.split('?')[0];
  const feature = route === undefined ? undefined : enterpriseFeatureOf(route);
  if (isPlanRequired(status, body)) {
    const tier = requiredTierOf(body);
    const what = feature ?? 'this feature';
    return {
      feature: what,
      reason: 'plan',
      requiredTier: tier,
      sentence: `The server's plan lacks ${what}${tier ? ` (it needs the ${tier} plan)` : ''}.`,
    };
  }
  if (!isRouteNotFound(status, body) || route === undefined) return undefined;
  if (feature !== undefined) {
    return {
      feature,
      reason: 'edition',
      sentence: `The server has no ${feature}: they need its enterprise edition.`,
    };
  }
  const added = releaseRouteOf(route);
  return added === undefined
    ? undefined
    : {
        feature: added.feature,
        reason: 'release',
        sinceRelease: added.since,
        sentence: `The server has no ${added.feature}: it needs release ${added.since} or later.`,
      };
}

/** What to do about an answer of this status (a sentence starting with a space, or ''). */
function advice(status: number, body: unknown, path: string | undefined): string {
  if (isUnknownCredential(status, body) || isPairNotFound(status, body)) return '';
  if (status !== 403) return HINTS[status] ?? '';
  if (isNotAuthenticated(status, body)) return HINTS[401] ?? '';
  return forbiddenRoles(body, path)
    ? ` This operation needs ${MANAGING_KEY}.`
    : ' The key lacks the role this operation needs.';
}

export interface ErrorContext {
  method: string;
  url: string;
  redactor: Redactor;
  /** The path called, ids filled in (tells which role a 403 is about). */
  path?: string | undefined;
  /** Extra sentence appended to the message (e.g. the connector-create warning). */
  hint?: string | undefined;
  /** Attempts made, when more than one. */
  attempts?: number | undefined;
}

function headersObject(h: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * Build the typed error for an answer with status `response.status` whose body was already read
 * (`body`: parsed JSON, or text when it was not JSON).
 */
export function errorFromResponse(
  response: AnswerHead,
  body: unknown,
  ctx: ErrorContext,
): APIError {
  const { redactor } = ctx;
  const status = response.status;
  const safeBody = redactor.value(body);
  const url = redactor.text(ctx.url);
  const rawRequestId = response.headers.get('x-request-id');
  const requestId = rawRequestId === null ? undefined : redactor.text(rawRequestId);
  const headers = redactor.headers(headersObject(response.headers));
  const tail = `${ctx.attempts && ctx.attempts > 1 ? ` (after ${ctx.attempts} attempts)` : ''}${requestId ? ` [request id ${requestId}]` : ''}${ctx.hint ? ` ${ctx.hint}` : ''}`;
  if (looksLikeHtml(response.headers.get('content-type'), body)) {
    return new HtmlResponseError(htmlMessage(status, ctx.method, url, safeBody) + tail, {
      status,
      body: typeof safeBody === 'string' ? collapse(safeBody) : safeBody,
      requestId,
      headers,
    });
  }
  const violations = status === 422 ? prismViolations(response.headers) : undefined;
  const parsed = violations
    ? parseErrorBody(redactor.value({ detail: violations }))
    : parseErrorBody(safeBody);
  const statusText = response.statusText;
  const message =
    `${status}${statusText ? ` ${statusText}` : ''} on ${ctx.method} ${url}` +
    `${parsed.summary ? `: ${parsed.summary}` : ''}.${advice(status, safeBody, ctx.path)}${tail}`;
  const init: KisErrorInit & { status: number; headers: Record<string, string> } = {
    status,
    body: safeBody,
    requestId,
    code: parsed.code,
    headers,
  };
  const missing = unavailable(status, safeBody, ctx.path);
  if (missing !== undefined) {
    const { sentence, ...feature } = missing;
    const text = `${status}${statusText ? ` ${statusText}` : ''} on ${ctx.method} ${url}: ${sentence}${tail}`;
    return new FeatureUnavailableError(text, { ...init, ...feature });
  }
  // sets and groups: a change refused while they sync, or out of the key's groups
  const refusal = scopeRefusalOf(status, safeBody);
  if (refusal === 'syncing') return new SyncInProgressError(message, init);
  if (refusal !== undefined)
    return new PermissionDeniedError(message, { ...init, reason: refusal });
  // an unknown or unreachable pair is 400, 403 or 404 depending on route and release
  if (isPairNotFound(status, safeBody)) return new NotFoundError(message, init);
  if (status === 422)
    return new UnprocessableEntityError(message, { ...init, detail: parsed.detail ?? [] });
  if (status === 403) {
    // deployed servers answer a rejected key with 403, not 401
    if (isNotAuthenticated(status, safeBody)) return new AuthenticationError(message, init);
    return new PermissionDeniedError(message, {
      ...init,
      roles: forbiddenRoles(safeBody, ctx.path),
      reason: denialOf(status, safeBody),
    });
  }
  if (status === 429) {
    return new RateLimitError(message, { ...init, retryAfterMs: retryAfterMs(response.headers) });
  }
  // servers answer 401 for a credential id they do not know: the key was fine
  if (isUnknownCredential(status, safeBody)) return new NotFoundError(message, init);
  const Ctor = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
  return new Ctor(message, init);
}

/** Error codes meaning the request never left: safe to retry even a non-idempotent call. */
const PRE_SEND_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * The code and the joined messages along an error's `cause` chain (and the first of an
 * `AggregateError`'s errors: a connection tried on several addresses): the first system code
 * (`ECONNREFUSED`...) found, else the last code.
 */
function causeInfo(err: unknown): { code: string | undefined; text: string } {
  let code: string | undefined;
  const parts: string[] = [];
  type Link = { message?: unknown; code?: unknown; cause?: unknown; errors?: Link[] };
  let e = err as Link | undefined;
  for (let i = 0; e && i < 6; i++, e = (e.cause ?? e.errors?.[0]) as Link | undefined) {
    if (typeof e.code === 'string' && !code?.startsWith('E')) code = e.code;
    if (typeof e.message === 'string' && e.message && !parts.includes(e.message))
      parts.push(e.message);
  }
  return { code, text: parts.join(': ') || String(err) };
}

/** An attempt that got no answer (not aborted by the caller): a time-out or a connection failure. */
export function attemptFailure(
  err: unknown,
  method: string,
  url: string,
  timeoutMs: number,
  timedOut: boolean,
  redactor: Redactor,
): Attempted {
  if (timedOut) {
    return {
      kind: 'timeout',
      error: new APITimeoutError(
        redactor.text(`${method} ${url} timed out after ${timeoutMs} ms.`),
      ),
    };
  }
  const { code, text } = causeInfo(err);
  return {
    kind: 'connection',
    preSend: code !== undefined && PRE_SEND_CODES.has(code),
    error: new APIConnectionError(redactor.text(`Connection failed: ${method} ${url}: ${text}.`), {
      // the system code (ECONNREFUSED, ECONNRESET...), for callers to word the reason
      code,
      // a redacted copy: the original error object is not kept (it could carry anything)
      cause: Object.assign(new Error(redactor.text(text)), code ? { code } : {}),
    }),
  };
}
