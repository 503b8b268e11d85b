/**
 * How each kind of server answers the calls that operate pairs after their creation (pair detail,
 * index attempts, errors, status, run once, prune, deletion, document checks, keys), written once
 * (docs/deployed-servers.md, "Operating connectors"). The emulator answers with these; the client
 * recognises them. The main line wraps errors in `{error_code, detail}`; release 4.6.1 answers
 * `{detail}`; servers of the seed's kind answer `{detail}` with 404 for every unknown pair.
 */

import type { Answer } from './answer.js';
import { SETTABLE_PAIR_STATUSES } from './pair-status.js';
import type { DeployedLine, ServerKind } from './server-kinds.js';

/** The texts of the answers, as servers word them. */
export const LIFECYCLE_TEXTS = Object.freeze({
  permissionDenied: 'You do not have the required permissions for this action.',
  limitedKey: 'Access denied. User has limited permissions.',
  notCuratorOrAdmin: 'Access denied. User is not a curator or admin.',
  /** `/me` without a valid key. */
  unauthorized: 'Unauthorized',
  /** Unknown pair: pair detail and index attempts. */
  pairNotFound: 'CC Pair not found for current user permissions',
  /** Unknown pair: status, prune, and a pair run once may not change (main line). */
  connectionNotFound: "Connection not found for current user's permissions",
  /** Unknown pair on `last_pruned`, release 4.6.1 and main line. */
  lastPrunedNotFound: Object.freeze({
    'v4.6.1': "cc_pair not found for current user's permissions",
    main: "CC Pair not found for current user's permissions",
  }),
  statusNotSettable: 'Connector status can only be set to ACTIVE or PAUSED.',
  credentialsNotAttached: 'Not all specified credentials are associated with connector',
  connectorWithoutPairs: 'Connector has no valid credentials, cannot create index attempts.',
  pruneStarted: 'Successfully created the pruning task.',
  pruneRunning: 'Pruning task already in progress.',
  pruneFailed: 'Pruning task creation failed.',
  sharedPairDeletion: 'Deleting a shared connector is restricted to administrators.',
  documentNotFound: 'Document not found',
  chunkNotFound: 'Chunk not found',
  vectorDbDisabled: 'This feature requires a vector database (DISABLE_VECTOR_DB is set).',
  planRequired: 'This feature requires the Business plan.',
  /** `error_msg` of the waiting index attempts a deletion cancels. */
  attemptCanceled: 'Canceled by user',
});

/** The operations that name a pair by `cc_pair_id` and answer an unknown one each their way. */
export type PairOperation =
  | 'getCcPair'
  | 'listIndexAttempts'
  | 'listIndexingErrors'
  | 'setCcPairStatus'
  | 'pruneCcPair'
  | 'getCcPairLastPruned';

export const PAIR_OPERATIONS: readonly PairOperation[] = Object.freeze([
  'getCcPair',
  'listIndexAttempts',
  'listIndexingErrors',
  'setCcPairStatus',
  'pruneCcPair',
  'getCcPairLastPruned',
]);

const detail = (status: number, text: string): Answer => ({ status, body: { detail: text } });
const coded = (status: number, code: string, text: string): Answer => ({
  status,
  body: { error_code: code, detail: text },
});
/** An `{error_code, detail}` answer on the main line, a `{detail}` one on the other kinds. */
const byKind = (kind: ServerKind, status: number, code: string, text: string): Answer =>
  kind === 'main' ? coded(status, code, text) : detail(status, text);

/** What deployed servers answer for an unknown pair, per operation and line. */
const UNKNOWN_PAIR: Readonly<Record<PairOperation, Record<DeployedLine, () => Answer>>> = {
  getCcPair: {
    'v4.6.1': () => detail(404, LIFECYCLE_TEXTS.pairNotFound),
    main: () => coded(404, 'NOT_FOUND', LIFECYCLE_TEXTS.pairNotFound),
  },
  listIndexAttempts: {
    'v4.6.1': () => detail(400, LIFECYCLE_TEXTS.pairNotFound),
    main: () => coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.pairNotFound),
  },
  // No pair lookup on deployed servers: an empty page.
  listIndexingErrors: {
    'v4.6.1': () => ({ status: 200, body: { items: [], total_items: 0 } }),
    main: () => ({ status: 200, body: { items: [], total_items: 0 } }),
  },
  setCcPairStatus: {
    'v4.6.1': () => detail(400, LIFECYCLE_TEXTS.connectionNotFound),
    main: () => coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.connectionNotFound),
  },
  pruneCcPair: {
    'v4.6.1': () => detail(400, LIFECYCLE_TEXTS.connectionNotFound),
    main: () => coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.connectionNotFound),
  },
  getCcPairLastPruned: {
    'v4.6.1': () => detail(400, LIFECYCLE_TEXTS.lastPrunedNotFound['v4.6.1']),
    main: () => coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.lastPrunedNotFound.main),
  },
};

/** The text of an unknown pair on servers of the seed's kind. */
export function seedPairNotFoundText(ccPairId: number): string {
  return `Connector-credential pair ${ccPairId} does not exist`;
}

/** How each kind of server answers each failure (and the fixed success answers) of the lifecycle calls. */
export const LIFECYCLE_ANSWERS = {
  /** An unknown pair (or one the caller may not see or change) on a pair operation. */
  unknownPair(kind: ServerKind, operation: PairOperation, ccPairId: number): Answer {
    if (kind === 'seed') return detail(404, seedPairNotFoundText(ccPairId));
    return UNKNOWN_PAIR[operation][kind]();
  },
  /** A key without the permission a route checks (main line; release 4.6.1's token checks too). */
  permissionDenied(): Answer {
    return coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.permissionDenied);
  },
  /** A key with no rights at all, refused before any other check (deployed servers). */
  limitedKey(): Answer {
    return detail(403, LIFECYCLE_TEXTS.limitedKey);
  },
  /** Release 4.6.1: a key whose role is neither curator nor admin on a connector call. */
  notCuratorOrAdmin(): Answer {
    return detail(403, LIFECYCLE_TEXTS.notCuratorOrAdmin);
  },
  /** `/me` without a valid key (deployed servers). */
  meUnauthorized(): Answer {
    return detail(403, LIFECYCLE_TEXTS.unauthorized);
  },
  /**
   * `setCcPairStatus` with a status the server does not set (`SETTABLE_PAIR_STATUSES`): the main
   * line takes only `ACTIVE` and `PAUSED` (400 `INVALID_INPUT`); the others take any (undefined).
   */
  statusNotSettable(kind: ServerKind, status: string): Answer | undefined {
    if ((SETTABLE_PAIR_STATUSES[kind] as readonly string[]).includes(status)) return undefined;
    return coded(400, 'INVALID_INPUT', LIFECYCLE_TEXTS.statusNotSettable);
  },
  /** The answer of a status change that was made, every kind. */
  statusSet(): Answer {
    return { status: 200, body: { message: '200' } };
  },
  /** Run once: the connector does not exist (every kind). */
  runOnceUnknownConnector(connectorId: number): Answer {
    return detail(404, `Connector by id ${connectorId} does not exist.`);
  },
  /** Run once: a `credential_ids` entry is not attached to the connector (every kind). */
  runOnceCredentialsNotAttached(): Answer {
    return detail(400, LIFECYCLE_TEXTS.credentialsNotAttached);
  },
  /** Run once: the connector has no pair (every kind). */
  runOnceConnectorWithoutPairs(): Answer {
    return detail(400, LIFECYCLE_TEXTS.connectorWithoutPairs);
  },
  /**
   * Run once: a chosen pair the caller may not change. The main line refuses before triggering
   * anything; release 4.6.1 and the seed's kind do not check (undefined).
   */
  runOnceNotEditable(kind: ServerKind): Answer | undefined {
    return kind === 'main'
      ? coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.connectionNotFound)
      : undefined;
  },
  /** Run once: `triggered` pairs got a trigger (pairs with a running attempt are not counted). */
  runOnceTriggered(triggered: number): Answer {
    return {
      status: 200,
      body: {
        success: true,
        message: `Marked ${triggered} index attempts with indexing triggers.`,
        data: triggered,
      },
    };
  },
  /** Prune: the task was created. */
  pruneStarted(): Answer {
    return {
      status: 200,
      body: { success: true, message: LIFECYCLE_TEXTS.pruneStarted, data: null },
    };
  },
  /** Prune: one is already running (409). */
  pruneRunning(kind: ServerKind): Answer {
    return byKind(kind, 409, 'CONFLICT', LIFECYCLE_TEXTS.pruneRunning);
  },
  /** Prune: the task could not start (the pair is deleting, a sync or a prune runs, a lock timed out). */
  pruneFailed(kind: ServerKind): Answer {
    return byKind(kind, 500, 'INTERNAL_ERROR', LIFECYCLE_TEXTS.pruneFailed);
  },
  /** Deletion attempt for a pair that does not exist (any more): 404 on every kind. */
  deletionPairGone(kind: ServerKind, connectorId: number, credentialId: number): Answer {
    const text = `Connector with ID '${connectorId}' and credential ID '${credentialId}' does not exist. Has it already been deleted?`;
    return byKind(kind, 404, 'CONNECTOR_NOT_FOUND', text);
  },
  /** Deletion attempt: started, or running (200 `null`). */
  deletionStarted(): Answer {
    return { status: 200, body: null };
  },
  /**
   * Deletion of a shared pair by a key without global `manage:connectors`: refused on the main
   * line; release 4.6.1 and the seed's kind do not check (undefined).
   */
  sharedPairDeletion(kind: ServerKind): Answer | undefined {
    return kind === 'main'
      ? coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.sharedPairDeletion)
      : undefined;
  },
  /**
   * Deleting an ingested document the caller may not edit every pair of (none left counts as
   * not editable, admins included): refused on the main line; the other kinds do not check
   * (undefined) (`ingestion.py:237-299`, `db/connector_credential_pair.py:480-492`).
   */
  documentPairsNotEditable(kind: ServerKind): Answer | undefined {
    return kind === 'main'
      ? coded(403, 'INSUFFICIENT_PERMISSIONS', LIFECYCLE_TEXTS.connectionNotFound)
      : undefined;
  },
  /**
   * The hidden flag or boost of a document that does not exist: 400 (modelled after deployed
   * servers' admin routes; the notes do not detail them).
   */
  documentUpdateUnknown(documentId: string): Answer {
    return detail(400, `No document found with ID: '${documentId}'`);
  },
  /** The hidden flag or boost was set (both routes say "boost", as servers do). */
  documentUpdated(): Answer {
    return { status: 200, body: { success: true, message: 'Updated document boost' } };
  },
  /** `getDocumentSizeInfo`: the document is not (yet) indexed, or not visible (every kind). */
  documentNotIndexed(): Answer {
    return detail(404, LIFECYCLE_TEXTS.documentNotFound);
  },
  /** `getChunkInfo`: the chunk is not (yet) indexed, or not visible (every kind). */
  chunkNotIndexed(): Answer {
    return detail(404, LIFECYCLE_TEXTS.chunkNotFound);
  },
  /** The document checks on a server without a vector database (every kind). */
  vectorDbDisabled(): Answer {
    return detail(501, LIFECYCLE_TEXTS.vectorDbDisabled);
  },
  /** Main line: `createApiKey` with group ids that do not exist (Python's list, as printed). */
  unknownGroups(groupIds: readonly number[]): Answer {
    return { status: 400, body: { message: `Group IDs do not exist: [${groupIds.join(', ')}]` } };
  },
  /** Enterprise servers below the Business plan, on `createApiKey`. */
  planRequired(): Answer {
    return {
      status: 402,
      body: {
        error_code: 'FEATURE_NOT_AVAILABLE',
        detail: LIFECYCLE_TEXTS.planRequired,
        required_tier: 'business',
      },
    };
  },
} as const;

function detailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const text = (body as { detail?: unknown }).detail;
  return typeof text === 'string' ? text : undefined;
}

const PAIR_NOT_FOUND_TEXTS: readonly string[] = [
  LIFECYCLE_TEXTS.pairNotFound,
  LIFECYCLE_TEXTS.connectionNotFound,
  LIFECYCLE_TEXTS.lastPrunedNotFound['v4.6.1'],
  LIFECYCLE_TEXTS.lastPrunedNotFound.main,
];

/**
 * True for an answer that says the pair does not exist or is out of the caller's reach, on any
 * kind of server: 400 (release 4.6.1), 403 (main line, `INSUFFICIENT_PERMISSIONS` with a "not
 * found" text) or 404. Not a missing permission, although the main line's status is 403.
 */
export function isPairNotFound(status: number, body: unknown): boolean {
  if (status !== 400 && status !== 403 && status !== 404) return false;
  const text = detailOf(body);
  if (text === undefined) return false;
  if (PAIR_NOT_FOUND_TEXTS.includes(text)) return true;
  return status === 404 && /^Connector-credential pair \d+ does not exist$/.test(text);
}

/** Why a server refused a key, read from its 403. */
export type Denial = 'limited-key' | 'not-curator-or-admin' | 'missing-permission';

/**
 * The reason of a 403 that refuses the key's rights; undefined for other answers (a rejected key,
 * an unknown pair, the deletion of a shared pair). Any other `INSUFFICIENT_PERMISSIONS` is a
 * missing permission.
 */
export function denialOf(status: number, body: unknown): Denial | undefined {
  if (status !== 403 || isPairNotFound(status, body)) return undefined;
  const text = detailOf(body);
  if (text === undefined) return undefined;
  if (text === LIFECYCLE_TEXTS.limitedKey) return 'limited-key';
  if (text === LIFECYCLE_TEXTS.notCuratorOrAdmin) return 'not-curator-or-admin';
  if (text === LIFECYCLE_TEXTS.sharedPairDeletion) return undefined;
  const code = (body as { error_code?: unknown }).error_code;
  return code === 'INSUFFICIENT_PERMISSIONS' || text === LIFECYCLE_TEXTS.permissionDenied
    ? 'missing-permission'
    : undefined;
}
