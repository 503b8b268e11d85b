/**
 * The two kinds of server kis works against (docs/deployed-servers.md): `seed`, the contract as
 * the seed document writes it, and `deployed`, what the servers people run do where they differ.
 * How each answers a failure is written here once; the emulator answers with these, the client
 * recognises them.
 */

import type { Answer, Profile } from './answer.js';
import { LIFECYCLE_ANSWERS, LIFECYCLE_TEXTS, seedPairNotFoundText } from './lifecycle-answers.js';
import { pyRepr } from './python.js';
import { serverKindOf } from './server-kinds.js';

/** One FastAPI validation error item (the seed's `ValidationError`). */
export interface ValidationItem {
  loc: readonly (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** How deployed servers end the text of a 401 for a credential id they do not know. */
const UNKNOWN_CREDENTIAL_TAIL = 'does not exist or does not belong to user';

/** Deployed servers' text for a missing or invalid key. */
export const NOT_AUTHENTICATED_DETAIL = 'Access denied. User is not authenticated.';

const detail = (status: number, text: string): Answer => ({ status, body: { detail: text } });

/** A `loc` as Python writes a tuple. */
function pyTuple(loc: readonly (string | number)[]): string {
  return loc.length === 1 ? `(${pyRepr(loc[0])},)` : `(${loc.map(pyRepr).join(', ')})`;
}

/**
 * The `message` of a deployed server's 422: FastAPI's list of errors as Python prints it, on one
 * line (`[{'type': 'missing', 'loc': ('body', 'name'), 'msg': 'Field required', 'input': {...}}]`).
 */
export function validationMessage(items: readonly ValidationItem[]): string {
  const one = (i: ValidationItem) =>
    `{'type': ${pyRepr(i.type)}, 'loc': ${pyTuple(i.loc)}, 'msg': ${pyRepr(i.msg)}, 'input': ${pyRepr(i.input ?? null)}}`;
  return `[${items.map(one).join(', ')}]`;
}

/**
 * The validation items inside a deployed server's 422 `message` (see `validationMessage`), read
 * back; one item holding the whole text when it is not in that form.
 */
export function parseValidationMessage(message: string): ValidationItem[] {
  const items: ValidationItem[] = [];
  const str = `'((?:[^'\\\\]|\\\\.)*)'|"((?:[^"\\\\]|\\\\.)*)"`;
  const itemRe = new RegExp(`\\{'type': (?:${str}), 'loc': \\(([^)]*)\\), 'msg': (?:${str})`, 'g');
  const unquote = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  for (const m of message.matchAll(itemRe)) {
    const loc = [...(m[3] ?? '').matchAll(new RegExp(`${str}|(-?\\d+)`, 'g'))].map((p) =>
      p[3] !== undefined ? Number(p[3]) : unquote(p[1] ?? p[2] ?? ''),
    );
    items.push({ type: unquote(m[1] ?? m[2] ?? ''), loc, msg: unquote(m[4] ?? m[5] ?? '') });
  }
  return items.length > 0 ? items : [{ loc: [], msg: message, type: 'value_error' }];
}

/** How a server of each profile answers each kind of failure. */
export const ANSWERS = {
  /** A missing or invalid API key. */
  notAuthenticated(profile: Profile): Answer {
    return profile === 'deployed'
      ? detail(403, NOT_AUTHENTICATED_DETAIL)
      : detail(401, 'Missing or invalid API key: send the header Authorization: Bearer <API key>');
  },
  /** A valid key whose role is below what the operation needs. */
  missingRole(profile: Profile, needed: string): Answer {
    const text = `Access denied: this operation needs a key with the ${needed} role`;
    return profile === 'deployed'
      ? { status: 403, body: { error_code: 'INSUFFICIENT_PERMISSIONS', detail: text } }
      : detail(403, text);
  },
  /** A request that fails validation (the seed's `HTTPValidationError`, or deployed servers'). */
  validation(profile: Profile, items: readonly ValidationItem[]): Answer {
    return profile === 'deployed'
      ? { status: 422, body: { status_code: 422, message: validationMessage(items), data: null } }
      : { status: 422, body: { detail: items } };
  },
  /** A path no operation has (FastAPI's answer, every profile). */
  routeNotFound(): Answer {
    return detail(404, 'Not Found');
  },
  /** A known path with a method it does not have (FastAPI's answer, every profile). */
  methodNotAllowed(): Answer {
    return detail(405, 'Method Not Allowed');
  },
  /** Ingestion into a `cc_pair_id` that does not exist. */
  unknownPair(profile: Profile, ccPairId: number): Answer {
    const text = `Connector-credential pair with id ${ccPairId} not found (cc_pair_id)`;
    return profile === 'deployed'
      ? { status: 404, body: { error_code: 'CONNECTOR_NOT_FOUND', detail: text } }
      : detail(404, text);
  },
  /** Association with a connector or credential that does not exist. */
  associationUnknown(profile: Profile, what: 'connector' | 'credential', id: number): Answer {
    return profile === 'deployed'
      ? { status: 500, body: { error_code: 'INTERNAL_ERROR', detail: 'Unexpected error' } }
      : detail(404, `${what === 'connector' ? 'Connector' : 'Credential'} ${id} does not exist`);
  },
  /** Association of a pair that already exists: 200 with `success: false`. */
  associationExists(profile: Profile, connectorId: number, credentialId: number): Answer {
    const message = `Connector ${connectorId} already has Credential ${credentialId}`;
    return {
      status: 200,
      body: { success: false, message, data: profile === 'deployed' ? connectorId : null },
    };
  },
  /**
   * A connector whose name and source equal an existing one's: deployed servers refuse it with
   * 400; the seed says nothing (undefined: the connector is created).
   */
  duplicateConnector(profile: Profile, name: string, source: string): Answer | undefined {
    return profile === 'deployed'
      ? detail(400, `Connector with name '${name}' and source '${source}' already exists`)
      : undefined;
  },
  /**
   * Association with a connector whose `connector_specific_config` its source's connector does
   * not take (an unknown key of a source that refuses them, a missing required parameter):
   * deployed servers build the connector there and refuse with 400; the seed says nothing
   * (undefined: the pair is created).
   */
  connectorValidation(profile: Profile, problem: string): Answer | undefined {
    return profile === 'deployed'
      ? {
          status: 400,
          body: { error_code: 'INVALID_INPUT', detail: `Connector validation error: ${problem}` },
        }
      : undefined;
  },
  /** The private-key call for a credential that does not exist. */
  privateKeyUnknownCredential(profile: Profile, credentialId: number): Answer {
    return profile === 'deployed'
      ? ANSWERS.credentialUnknown(credentialId)
      : detail(404, `Credential ${credentialId} does not exist (credential_id)`);
  },
  /**
   * Reading or updating a credential that does not exist (`getCredential`, `updateCredential`,
   * `replaceCredentialJson`): 401, not 404, in every profile, as deployed servers answer.
   */
  credentialUnknown(credentialId: number): Answer {
    return detail(401, `Credential ${credentialId} ${UNKNOWN_CREDENTIAL_TAIL}`);
  },
  /**
   * Renaming a pair, or setting its status, when the pair does not exist: deployed servers answer
   * the rename with 400 and a message about the caller's permissions, the status as the main line
   * does (`LIFECYCLE_ANSWERS.unknownPair`: 403); servers of the seed's kind 404.
   */
  pairUnknownForUpdate(profile: Profile, ccPairId: number, what: 'name' | 'status'): Answer {
    if (what === 'status') {
      return LIFECYCLE_ANSWERS.unknownPair(serverKindOf(profile), 'setCcPairStatus', ccPairId);
    }
    if (profile === 'seed') return detail(404, seedPairNotFoundText(ccPairId));
    return detail(400, "CC Pair not found for current user's permissions");
  },
  /** A document id that cannot be stored (a lone surrogate), every profile. */
  invalidDocumentId(message: string): Answer {
    return { status: 400, body: { message } };
  },
  /** An unexpected failure (deployed servers' catch-all handler; the framework's default). */
  internalError(profile: Profile): Answer {
    return profile === 'deployed'
      ? { status: 500, body: { error_code: 'INTERNAL_ERROR', detail: 'Unexpected error' } }
      : detail(500, 'Internal Server Error');
  },
  /** Listing the documents of a pair that does not exist (deployed main line: 403). */
  pairDocumentsUnknown(profile: Profile, ccPairId: number): Answer {
    return profile === 'deployed'
      ? {
          status: 403,
          body: {
            error_code: 'INSUFFICIENT_PERMISSIONS',
            detail: "Connection not found for current user's permissions",
          },
        }
      : detail(404, `Connector-credential pair with id ${ccPairId} not found (cc_pair_id)`);
  },
  /** Deleting a document that does not exist: 404 in every profile. */
  documentUnknown(profile: Profile, documentId: string): Answer {
    return detail(
      404,
      profile === 'deployed'
        ? 'Document not found'
        : `Document '${documentId}' not found (document_id)`,
    );
  },
  /** Deleting a document that a connector indexed, not the ingestion call: 400. */
  documentNotIngested(profile: Profile, documentId: string): Answer {
    return detail(
      400,
      profile === 'deployed'
        ? 'Document was not created via the ingestion API'
        : `Document '${documentId}' was not created through the ingestion API and cannot be deleted with this call`,
    );
  },
  /** A private-key upload with a `type_definition_key` the server does not know. */
  privateKeyTypeUnknown(profile: Profile, key: string, known: readonly string[]): Answer {
    return profile === 'deployed'
      ? { status: 400, body: { message: `'${key}' is not a valid PrivateKeyFileTypes` } }
      : detail(400, `Invalid type_definition_key '${key}': expected one of ${known.join(', ')}`);
  },
} as const;

/**
 * True for FastAPI's answer to a route the server does not have (404 `{"detail":"Not Found"}`) or
 * a method the path does not have (405): the call's route variant is not served there.
 */
export function isRouteNotFound(status: number, body: unknown): boolean {
  if (status === 405) return true;
  return (
    status === 404 &&
    typeof body === 'object' &&
    body !== null &&
    (body as { detail?: unknown }).detail === 'Not Found'
  );
}

/**
 * True for deployed servers' 401 about a credential id they do not know (`credentialUnknown`):
 * not a rejected key, although the status is 401.
 */
export function isUnknownCredential(status: number, body: unknown): boolean {
  if (status !== 401 || typeof body !== 'object' || body === null) return false;
  const text = (body as { detail?: unknown }).detail;
  return typeof text === 'string' && text.endsWith(UNKNOWN_CREDENTIAL_TAIL);
}

/**
 * True when an answer says the key was not accepted (as opposed to a role it lacks): any 401,
 * or a 403 whose detail says the user is not authenticated (`getMe`'s: "Unauthorized").
 */
export function isNotAuthenticated(status: number, body: unknown): boolean {
  if (status === 401) return true;
  if (status !== 403 || typeof body !== 'object' || body === null) return false;
  const text = (body as { detail?: unknown }).detail;
  return (
    typeof text === 'string' &&
    (/not authenticated/i.test(text) || text === LIFECYCLE_TEXTS.unauthorized)
  );
}
