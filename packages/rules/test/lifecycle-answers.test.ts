// Table tests of how each kind of server answers the calls that operate pairs (the rule book's
// LIFECYCLE_ANSWERS) and of the recognisers the client reads them with. Expected values are
// written out from what deployed servers do (docs/deployed-servers.md, "Operating connectors").
import { describe, expect, it } from 'vitest';
import {
  ANSWERS,
  denialOf,
  isPairNotFound,
  LIFECYCLE_ANSWERS,
  type PairOperation,
  type ServerKind,
  serverKindOf,
} from '../src/index.js';

const CC = 'CC Pair not found for current user permissions';
const CONNECTION = "Connection not found for current user's permissions";
const SEED = { status: 404, body: { detail: 'Connector-credential pair 9 does not exist' } };
const coded = (status: number, error_code: string, detail: string) => ({
  status,
  body: { error_code, detail },
});
const EMPTY_PAGE = { status: 200, body: { items: [], total_items: 0 } };

describe('server kinds', () => {
  it('the deployed profile plays the main line; the seed profile the seed', () => {
    expect(serverKindOf('deployed')).toBe('main');
    expect(serverKindOf('seed')).toBe('seed');
  });
});

describe('an unknown pair', () => {
  it.each([
    ['getCcPair', 'seed', SEED],
    ['getCcPair', 'v4.6.1', { status: 404, body: { detail: CC } }],
    ['getCcPair', 'main', coded(404, 'NOT_FOUND', CC)],
    ['listIndexAttempts', 'seed', SEED],
    ['listIndexAttempts', 'v4.6.1', { status: 400, body: { detail: CC } }],
    ['listIndexAttempts', 'main', coded(403, 'INSUFFICIENT_PERMISSIONS', CC)],
    ['listIndexingErrors', 'seed', SEED],
    ['listIndexingErrors', 'v4.6.1', EMPTY_PAGE],
    ['listIndexingErrors', 'main', EMPTY_PAGE],
    ['setCcPairStatus', 'seed', SEED],
    ['setCcPairStatus', 'v4.6.1', { status: 400, body: { detail: CONNECTION } }],
    ['setCcPairStatus', 'main', coded(403, 'INSUFFICIENT_PERMISSIONS', CONNECTION)],
    ['pruneCcPair', 'seed', SEED],
    ['pruneCcPair', 'v4.6.1', { status: 400, body: { detail: CONNECTION } }],
    ['pruneCcPair', 'main', coded(403, 'INSUFFICIENT_PERMISSIONS', CONNECTION)],
    ['getCcPairLastPruned', 'seed', SEED],
    [
      'getCcPairLastPruned',
      'v4.6.1',
      { status: 400, body: { detail: "cc_pair not found for current user's permissions" } },
    ],
    [
      'getCcPairLastPruned',
      'main',
      coded(403, 'INSUFFICIENT_PERMISSIONS', "CC Pair not found for current user's permissions"),
    ],
  ] as const)('%s on %s: %j', (operation, kind, expected) => {
    expect(
      LIFECYCLE_ANSWERS.unknownPair(kind as ServerKind, operation as PairOperation, 9),
    ).toEqual(expected);
  });

  it('pausing an unknown pair on the deployed profile answers as the main line', () => {
    expect(ANSWERS.pairUnknownForUpdate('deployed', 9, 'status')).toEqual(
      coded(403, 'INSUFFICIENT_PERMISSIONS', CONNECTION),
    );
  });
});

describe('status, run once, prune and deletion', () => {
  it.each([
    ['main', 'ACTIVE', undefined],
    ['main', 'PAUSED', undefined],
    [
      'main',
      'DELETING',
      coded(400, 'INVALID_INPUT', 'Connector status can only be set to ACTIVE or PAUSED.'),
    ],
    [
      'main',
      'SCHEDULED',
      coded(400, 'INVALID_INPUT', 'Connector status can only be set to ACTIVE or PAUSED.'),
    ],
    ['v4.6.1', 'DELETING', undefined],
    ['v4.6.1', 'INVALID', undefined],
    ['seed', 'DELETING', undefined],
  ] as const)('setting %s to %s: %j', (kind, status, expected) => {
    expect(LIFECYCLE_ANSWERS.statusNotSettable(kind, status)).toEqual(expected);
  });

  it('a status set answers {"message": "200"}', () => {
    expect(LIFECYCLE_ANSWERS.statusSet()).toEqual({ status: 200, body: { message: '200' } });
  });

  it('run once answers the same on every kind, but the main line checks edit rights first', () => {
    expect(LIFECYCLE_ANSWERS.runOnceTriggered(2)).toEqual({
      status: 200,
      body: { success: true, message: 'Marked 2 index attempts with indexing triggers.', data: 2 },
    });
    expect(LIFECYCLE_ANSWERS.runOnceUnknownConnector(99)).toEqual({
      status: 404,
      body: { detail: 'Connector by id 99 does not exist.' },
    });
    expect(LIFECYCLE_ANSWERS.runOnceCredentialsNotAttached()).toEqual({
      status: 400,
      body: { detail: 'Not all specified credentials are associated with connector' },
    });
    expect(LIFECYCLE_ANSWERS.runOnceConnectorWithoutPairs()).toEqual({
      status: 400,
      body: { detail: 'Connector has no valid credentials, cannot create index attempts.' },
    });
    expect(LIFECYCLE_ANSWERS.runOnceNotEditable('main')).toEqual(
      coded(403, 'INSUFFICIENT_PERMISSIONS', CONNECTION),
    );
    expect(LIFECYCLE_ANSWERS.runOnceNotEditable('v4.6.1')).toBeUndefined();
    expect(LIFECYCLE_ANSWERS.runOnceNotEditable('seed')).toBeUndefined();
  });

  it.each([
    ['v4.6.1', { status: 409, body: { detail: 'Pruning task already in progress.' } }],
    ['main', coded(409, 'CONFLICT', 'Pruning task already in progress.')],
    ['seed', { status: 409, body: { detail: 'Pruning task already in progress.' } }],
  ] as const)('a prune already running on %s: %j', (kind, expected) => {
    expect(LIFECYCLE_ANSWERS.pruneRunning(kind)).toEqual(expected);
  });

  it.each([
    ['v4.6.1', { status: 500, body: { detail: 'Pruning task creation failed.' } }],
    ['main', coded(500, 'INTERNAL_ERROR', 'Pruning task creation failed.')],
  ] as const)('a prune that cannot start on %s: %j', (kind, expected) => {
    expect(LIFECYCLE_ANSWERS.pruneFailed(kind)).toEqual(expected);
    expect(LIFECYCLE_ANSWERS.pruneStarted()).toEqual({
      status: 200,
      body: { success: true, message: 'Successfully created the pruning task.', data: null },
    });
  });

  const gone =
    "Connector with ID '7' and credential ID '3' does not exist. Has it already been deleted?";
  it.each([
    ['v4.6.1', { status: 404, body: { detail: gone } }],
    ['seed', { status: 404, body: { detail: gone } }],
    ['main', coded(404, 'CONNECTOR_NOT_FOUND', gone)],
  ] as const)('deleting a pair that is gone on %s: %j', (kind, expected) => {
    expect(LIFECYCLE_ANSWERS.deletionPairGone(kind, 7, 3)).toEqual(expected);
  });

  it('a shared pair is deleted only by a global connector admin on the main line', () => {
    expect(LIFECYCLE_ANSWERS.sharedPairDeletion('main')).toEqual(
      coded(
        403,
        'INSUFFICIENT_PERMISSIONS',
        'Deleting a shared connector is restricted to administrators.',
      ),
    );
    expect(LIFECYCLE_ANSWERS.sharedPairDeletion('v4.6.1')).toBeUndefined();
    expect(LIFECYCLE_ANSWERS.deletionStarted()).toEqual({ status: 200, body: null });
  });
});

describe('documents and keys', () => {
  it('an ingested document is deleted only by a key that edits every pair holding it (main line)', () => {
    expect(LIFECYCLE_ANSWERS.documentPairsNotEditable('main')).toEqual(
      coded(403, 'INSUFFICIENT_PERMISSIONS', "Connection not found for current user's permissions"),
    );
    expect(LIFECYCLE_ANSWERS.documentPairsNotEditable('v4.6.1')).toBeUndefined();
    expect(LIFECYCLE_ANSWERS.documentPairsNotEditable('seed')).toBeUndefined();
  });

  it('hiding or boosting answers as servers do; an unknown document is 400', () => {
    expect(LIFECYCLE_ANSWERS.documentUpdated()).toEqual({
      status: 200,
      body: { success: true, message: 'Updated document boost' },
    });
    expect(LIFECYCLE_ANSWERS.documentUpdateUnknown('d1')).toEqual({
      status: 400,
      body: { detail: "No document found with ID: 'd1'" },
    });
  });

  it('document checks answer 404 until indexed, 501 without a vector database', () => {
    expect(LIFECYCLE_ANSWERS.documentNotIndexed()).toEqual({
      status: 404,
      body: { detail: 'Document not found' },
    });
    expect(LIFECYCLE_ANSWERS.chunkNotIndexed()).toEqual({
      status: 404,
      body: { detail: 'Chunk not found' },
    });
    expect(LIFECYCLE_ANSWERS.vectorDbDisabled()).toEqual({
      status: 501,
      body: { detail: 'This feature requires a vector database (DISABLE_VECTOR_DB is set).' },
    });
  });

  it('keys: unknown groups, the plan, /me without a key', () => {
    expect(LIFECYCLE_ANSWERS.unknownGroups([42, 43])).toEqual({
      status: 400,
      body: { message: 'Group IDs do not exist: [42, 43]' },
    });
    expect(LIFECYCLE_ANSWERS.planRequired()).toEqual({
      status: 402,
      body: {
        error_code: 'FEATURE_NOT_AVAILABLE',
        detail: 'This feature requires the Business plan.',
        required_tier: 'business',
      },
    });
    expect(LIFECYCLE_ANSWERS.meUnauthorized()).toEqual({
      status: 403,
      body: { detail: 'Unauthorized' },
    });
  });
});

describe('recognising the answers', () => {
  it.each([
    [404, { detail: CC }, true],
    [400, { detail: CC }, true],
    [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: CC }, true],
    [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: CONNECTION }, true],
    [400, { detail: "cc_pair not found for current user's permissions" }, true],
    [404, { error_code: 'NOT_FOUND', detail: CC }, true],
    [404, { detail: 'Connector-credential pair 9 does not exist' }, true],
    [400, { detail: 'Connector-credential pair 9 does not exist' }, false],
    [500, { detail: CC }, false],
    [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'You do not have the required permissions for this action.',
      },
      false,
    ],
    [404, { detail: 'Not Found' }, false],
    [404, null, false],
  ])('isPairNotFound(%j, %j) is %j', (status, body, expected) => {
    expect(isPairNotFound(status, body)).toBe(expected);
  });

  it.each([
    [403, { detail: 'Access denied. User has limited permissions.' }, 'limited-key'],
    [403, { detail: 'Access denied. User is not a curator or admin.' }, 'not-curator-or-admin'],
    [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'You do not have the required permissions for this action.',
      },
      'missing-permission',
    ],
    [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'Access denied: this operation needs a key with the curator role',
      },
      'missing-permission',
    ],
    [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: CONNECTION }, undefined],
    [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'Deleting a shared connector is restricted to administrators.',
      },
      undefined,
    ],
    [403, { detail: 'Access denied. User is not authenticated.' }, undefined],
    [400, { detail: 'Access denied. User has limited permissions.' }, undefined],
    [403, null, undefined],
  ])('denialOf(%j, %j) is %j', (status, body, expected) => {
    expect(denialOf(status, body)).toBe(expected);
  });
});
