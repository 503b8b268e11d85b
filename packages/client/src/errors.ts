/**
 * Typed errors of the client. Every error thrown by a resource method or workflow is a
 * `KisError`; check the kind with the static `isInstance` of a class (works across duplicated
 * copies of this package, because the brand is a `Symbol.for` marker, not the class identity):
 *
 * ```ts
 * if (NotFoundError.isInstance(err)) console.log(err.status, err.requestId);
 * ```
 *
 * No error object ever holds the API key or the request's `authorization` header: messages and
 * bodies are redacted before the error is built, and `toJSON` / `util.inspect` show only the
 * fields listed on each class.
 */

/** One item of a 422 answer's `detail` list (FastAPI's `ValidationError`). */
export interface ValidationIssue {
  /** Where the problem is, e.g. `["body", "document", "sections", 0, "text"]`. */
  loc: Array<string | number>;
  /** What is wrong, e.g. `field required`. */
  msg: string;
  /** Machine-readable kind, e.g. `missing`. */
  type: string;
}

/** One problem found by client-side validation (before any request is sent). */
export interface ClientValidationIssue {
  /** Dotted path of the offending field, e.g. `document.sections[0].text` (empty for the root). */
  path: string;
  /** What is wrong, e.g. `must be string`. */
  message: string;
  /** The JSON Schema keyword that failed, e.g. `type`, `required`. */
  keyword: string;
  /** For a key the schema does not have: its known keys closest to the one given. */
  suggestions?: string[];
}

const BRAND = Symbol.for('@kis/client.error');
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Fields shared by all `KisError` constructors. */
export interface KisErrorInit {
  /** HTTP status, when the server answered. */
  status?: number | undefined;
  /** Parsed response body (JSON value or text), redacted. */
  body?: unknown;
  /** `x-request-id` of the answer, when the server sent one. */
  requestId?: string | undefined;
  /** Machine-readable `error_code` from the body, when present (e.g. `CONNECTOR_NOT_FOUND`). */
  code?: string | undefined;
  /** The underlying error (a network error, a typed error of an inner step). */
  cause?: unknown;
}

type KisErrorClass = abstract new (...args: never[]) => KisError;

/**
 * Base class of every error this package throws. `status`, `body` and `requestId` are set when the
 * server answered; `message` is readable and never contains the API key.
 */
export class KisError extends Error {
  /** Stable kind name of the class, used by the `Symbol.for` brand. */
  static readonly kind: string = 'KisError';
  readonly status: number | undefined;
  readonly body: unknown;
  readonly requestId: string | undefined;
  readonly code: string | undefined;

  constructor(message: string, init: KisErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    const kinds: string[] = [];
    for (let c = new.target as unknown; c && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string' && Object.hasOwn(c as object, 'kind')) kinds.push(kind);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(kinds), enumerable: false });
    Object.defineProperty(this, 'name', {
      value: (new.target as unknown as { kind: string }).kind,
      enumerable: false,
      writable: true,
      configurable: true,
    });
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.code = init.code;
  }

  /**
   * True when `value` is an instance of this class (or a subclass), also when it was created by
   * another copy of `@kis/client` loaded in the same process.
   */
  static isInstance<T extends KisErrorClass>(this: T, value: unknown): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as Record<symbol, unknown>)[BRAND];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance was called on
    return Array.isArray(kinds) && kinds.includes((this as unknown as { kind: string }).kind);
  }

  /** A plain, key-free view for `JSON.stringify` and structured logs. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.code !== undefined) out.code = this.code;
    if (this.requestId !== undefined) out.requestId = this.requestId;
    if (this.body !== undefined) out.body = this.body;
    for (const [k, v] of Object.entries(this)) {
      if (!(k in out) && v !== undefined && k !== 'cause') out[k] = v;
    }
    return out;
  }

  /** `util.inspect` (and so `console.log`) shows the same key-free view plus the stack. */
  [INSPECT](): string {
    const fields = this.toJSON();
    delete fields.name;
    delete fields.message;
    const rest = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    return `${this.stack ?? `${this.name}: ${this.message}`}${rest}`;
  }
}

/** The server answered with a non-2xx status (or an answer that is not the API's). */
export class APIError extends KisError {
  static override readonly kind: string = 'APIError';
  declare readonly status: number;
  /** Response headers of the failing answer (never request headers). */
  readonly headers: Record<string, string> | undefined;
  constructor(
    message: string,
    init: KisErrorInit & { status: number; headers?: Record<string, string> },
  ) {
    super(message, init);
    this.headers = init.headers;
  }
  override toJSON(): Record<string, unknown> {
    const out = super.toJSON();
    delete out.headers;
    return out;
  }
}

/** HTTP 400. */
export class BadRequestError extends APIError {
  static override readonly kind: string = 'BadRequestError';
}
/**
 * The API key was rejected: missing, wrong or revoked. HTTP 401, or the 403 deployed servers
 * answer with `{"detail": "Access denied. User is not authenticated."}` (`status` says which).
 */
export class AuthenticationError extends APIError {
  static override readonly kind: string = 'AuthenticationError';
}
/**
 * Why a server refused a key it accepted: `missing-permission`, `limited-key` (no rights at all),
 * `not-curator-or-admin` (release 4.6.1's role check), `out-of-scope` (a group manager or curator
 * acting outside its groups), `admins-only` (a shared object only global holders may change),
 * `default-group` (one of the groups every server seeds).
 */
export type PermissionDenialReason =
  | 'missing-permission'
  | 'limited-key'
  | 'not-curator-or-admin'
  | 'out-of-scope'
  | 'admins-only'
  | 'default-group';

/**
 * A key the server accepted may not do this: HTTP 403 for a role or permission below what the
 * operation needs (deployed servers: `error_code: INSUFFICIENT_PERMISSIONS`), and any answer
 * refusing a group manager or curator out of its groups (release 4.6.1 answers some with 400), a
 * shared object or a seeded group. `reason` says which; the message names the role needed.
 */
export class PermissionDeniedError extends APIError {
  static override readonly kind: string = 'PermissionDeniedError';
  /** The roles that may call the operation, most powerful first (e.g. `['admin', 'curator']`). */
  readonly roles: readonly string[] | undefined;
  /** Why, when the answer says it. */
  readonly reason: PermissionDenialReason | undefined;
  constructor(
    message: string,
    init: KisErrorInit & {
      status: number;
      headers?: Record<string, string>;
      roles?: readonly string[] | undefined;
      reason?: PermissionDenialReason | undefined;
    },
  ) {
    super(message, init);
    this.roles = init.roles;
    this.reason = init.reason;
  }
}

/**
 * The server does not offer this: `edition` (the community edition has no user groups: their
 * routes answer 404), `plan` (an enterprise server below the Business plan answers 402
 * `FEATURE_NOT_AVAILABLE`), or `release` (a route newer than the server's release).
 */
export class FeatureUnavailableError extends APIError {
  static override readonly kind: string = 'FeatureUnavailableError';
  /** What is missing, e.g. `user groups`. */
  readonly feature: string;
  readonly reason: 'edition' | 'plan' | 'release';
  /** The plan that has it (`business`), for `plan`. */
  readonly requiredTier: string | undefined;
  /** The first release that has it (`4.5.0`), for `release`. */
  readonly sinceRelease: string | undefined;
  constructor(
    message: string,
    init: KisErrorInit & {
      status: number;
      headers?: Record<string, string>;
      feature: string;
      reason: 'edition' | 'plan' | 'release';
      requiredTier?: string | undefined;
      sinceRelease?: string | undefined;
    },
  ) {
    super(message, init);
    this.feature = init.feature;
    this.reason = init.reason;
    this.requiredTier = init.requiredTier;
    this.sinceRelease = init.sinceRelease;
  }
}

/**
 * A document set or user group is still syncing its change to the documents
 * (`is_up_to_date: false`), so the server refuses another change for now: 400 for sets, 404 for
 * groups, 409 for a rename. Wait until it is up to date (`waitUntilSynced`), then retry.
 */
export class SyncInProgressError extends APIError {
  static override readonly kind: string = 'SyncInProgressError';
}
/**
 * HTTP 404, and any answer saying the pair or credential asked for is unknown or out of the key's
 * reach (deployed servers use 400, 401 or 403 on some routes: docs/deployed-servers.md).
 */
export class NotFoundError extends APIError {
  static override readonly kind: string = 'NotFoundError';
}
/** HTTP 409. */
export class ConflictError extends APIError {
  static override readonly kind: string = 'ConflictError';
}
/** HTTP 413: the body is larger than the server or a proxy in front of it accepts. */
export class PayloadTooLargeError extends APIError {
  static override readonly kind: string = 'PayloadTooLargeError';
}
/**
 * HTTP 422. `detail` is the list of problems, whatever shape the server used: FastAPI's
 * `{detail: [...]}`, deployed servers' `{status_code: 422, message: "<Python list>"}` read back
 * into the same items, a problem+json `validation[]` (Prism) mapped to `{loc, msg, type}`, or an
 * empty list when the server gave nothing to read.
 */
export class UnprocessableEntityError extends APIError {
  static override readonly kind: string = 'UnprocessableEntityError';
  readonly detail: ValidationIssue[];
  constructor(
    message: string,
    init: KisErrorInit & {
      status: number;
      headers?: Record<string, string>;
      detail?: ValidationIssue[];
    },
  ) {
    super(message, init);
    this.detail = init.detail ?? [];
  }
}
/** HTTP 429. `retryAfterMs` is the server's requested wait, when it sent one. */
export class RateLimitError extends APIError {
  static override readonly kind: string = 'RateLimitError';
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    init: KisErrorInit & {
      status: number;
      headers?: Record<string, string>;
      retryAfterMs?: number;
    },
  ) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** HTTP 5xx. */
export class InternalServerError extends APIError {
  static override readonly kind: string = 'InternalServerError';
}
/**
 * The server (or something in front of it) answered with an HTML page where the API answers JSON:
 * almost always a base URL without the `/api` prefix, a proxy error page or a login page.
 */
export class HtmlResponseError extends APIError {
  static override readonly kind: string = 'HtmlResponseError';
}

/** No answer: DNS failure, refused or reset connection, TLS error. */
export class APIConnectionError extends KisError {
  static override readonly kind: string = 'APIConnectionError';
}
/** An attempt took longer than `timeoutMs` (after the retries allowed for the request). */
export class APITimeoutError extends APIConnectionError {
  static override readonly kind: string = 'APITimeoutError';
}
/** The caller's `AbortSignal` fired. */
export class APIUserAbortError extends KisError {
  static override readonly kind: string = 'APIUserAbortError';
}

/** A document failed client-side validation against the spec; no request was sent. */
export class DocumentValidationError extends KisError {
  static override readonly kind: string = 'DocumentValidationError';
  /** The first offending field, e.g. `document.sections[0].text`. */
  readonly field: string;
  /** Every problem found. */
  readonly issues: ClientValidationIssue[];
  constructor(message: string, issues: ClientValidationIssue[]) {
    super(message);
    this.issues = issues;
    this.field = issues[0]?.path ?? '';
  }
}

/**
 * A connector's `connector_specific_config` or a credential's `credential_json` does not match
 * its source's schema in the spec (`docs/connector-configs.md`); no request was sent.
 */
export class ConfigValidationError extends KisError {
  static override readonly kind: string = 'ConfigValidationError';
  /** The source whose schema the object was checked against. */
  readonly source: string;
  /** Every problem found, each naming its field (and close keys for an unknown one). */
  readonly issues: ClientValidationIssue[];
  constructor(message: string, source: string, issues: ClientValidationIssue[]) {
    super(message);
    this.source = source;
    this.issues = issues;
  }
}

/** A problem of a desired state (`kis.plan`), naming its entry (`connectors[1] "Jira KIS"`). */
export interface DesiredStateIssue extends ClientValidationIssue {
  entry: string;
}

/**
 * A desired state given to `kis.plan` has problems (every one is listed); nothing was changed on
 * the server.
 */
export class DesiredStateError extends KisError {
  static override readonly kind: string = 'DesiredStateError';
  readonly issues: DesiredStateIssue[];
  constructor(message: string, issues: DesiredStateIssue[]) {
    super(message);
    this.issues = issues;
  }
}

/**
 * Why `setupConnector` stopped, as data, so that a caller (a command line, a UI) can word its own
 * remedy:
 * - `ambiguous-credential`: several credentials have the connector's source;
 * - `no-credential`: none has it (`availableSources`: the sources that have credentials);
 * - `unknown-credential`: the explicit credential id does not exist;
 * - `credential-source-mismatch`: the explicit credential serves another source;
 * - `request-failed`: a call failed (`cause` holds the typed error);
 * - `refused`: the association answered `success: false` (`reason`: the server's message).
 */
export type ConnectorSetupProblem =
  | { kind: 'ambiguous-credential'; source: string; credentialIds: number[] }
  | { kind: 'no-credential'; source: string; availableSources: string[] }
  | { kind: 'unknown-credential'; credentialId: number; availableIds: number[] }
  | {
      kind: 'credential-source-mismatch';
      credentialId: number;
      credentialSource: string;
      source: string;
    }
  | { kind: 'request-failed'; reason: string }
  | { kind: 'refused'; reason: string };

/**
 * `setupConnector` could not finish. `stage` says where it stopped and `problem` why; `connectorId`
 * is set when the connector exists (created) but is not associated with a credential, so the
 * caller can finish the job with `connectors.associateCredential(connectorId, credentialId)`.
 */
export class ConnectorSetupError extends KisError {
  static override readonly kind: string = 'ConnectorSetupError';
  readonly stage: 'credential' | 'create' | 'associate';
  readonly problem: ConnectorSetupProblem;
  readonly connectorId: number | null;
  readonly credentialId: number | null;
  constructor(
    message: string,
    init: KisErrorInit & {
      stage: 'credential' | 'create' | 'associate';
      problem: ConnectorSetupProblem;
      connectorId?: number | null;
      credentialId?: number | null;
    },
  ) {
    super(message, init);
    this.stage = init.stage;
    this.problem = init.problem;
    this.connectorId = init.connectorId ?? null;
    this.credentialId = init.credentialId ?? null;
  }
}
