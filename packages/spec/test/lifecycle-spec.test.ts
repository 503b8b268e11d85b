// The calls that operate pairs after their creation, as the bundled document describes them
// (docs/deployed-servers.md, "Operating connectors" and "Keys and their rights"), and their
// agreement with the rule book: the answers in the document's examples are the rule book's.
// Expected values are written out from what deployed servers do.
import {
  accessFor,
  INDEXING_STATUSES,
  LIFECYCLE_ANSWERS,
  OPERATION_ACCESS,
  PAIR_STATUSES,
  type PairOperation,
  type ServerKind,
  USER_ROLES,
} from '@kis/rules';
import { describe, expect, it } from 'vitest';
import { byId, type Json, operations, spec, valid } from './helpers.js';

const schemas: Json = spec.components.schemas;
const deref = (node: Json): Json => {
  let n = node;
  while (n?.$ref) {
    n = String(n.$ref)
      .replace(/^#\//, '')
      .split('/')
      .reduce((acc: Json, p) => acc[p], spec);
  }
  return n;
};
const parameter = (id: string, name: string): Json => {
  const { path, op } = byId(id);
  const all = [...(spec.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(deref);
  const found = all.find((p) => p.name === name);
  if (!found) throw new Error(`${id} has no parameter ${name}`);
  return found;
};
/** The JSON example `name` of the answer `status` of operation `id`. */
const example = (id: string, status: string, name: string): unknown => {
  const response = deref(byId(id).op.responses[status]);
  const value = response.content['application/json'].examples[name];
  if (!value) throw new Error(`${id} ${status} has no example ${name}`);
  return value.value;
};

describe('operations that operate pairs, check documents and tell what a key may do', () => {
  it.each([
    ['getCcPair', 'get', '/manage/admin/cc-pair/{cc_pair_id}', 'Connectors'],
    ['listIndexAttempts', 'get', '/manage/admin/cc-pair/{cc_pair_id}/index-attempts', 'Connectors'],
    ['listIndexingErrors', 'get', '/manage/admin/cc-pair/{cc_pair_id}/errors', 'Connectors'],
    ['setCcPairStatus', 'put', '/manage/admin/cc-pair/{cc_pair_id}/status', 'Connectors'],
    ['runConnectorOnce', 'post', '/manage/admin/connector/run-once', 'Connectors'],
    ['pruneCcPair', 'post', '/manage/admin/cc-pair/{cc_pair_id}/prune', 'Connectors'],
    ['getCcPairLastPruned', 'get', '/manage/admin/cc-pair/{cc_pair_id}/last_pruned', 'Connectors'],
    ['createDeletionAttempt', 'post', '/manage/admin/deletion-attempt', 'Connectors'],
    ['listConnectorStatus', 'get', '/manage/admin/connector/status', 'Connectors'],
    ['listIndexingStatus', 'post', '/manage/admin/connector/indexing-status', 'Connectors'],
    ['getDocumentSizeInfo', 'get', '/document/document-size-info', 'Ingestion'],
    ['getChunkInfo', 'get', '/document/chunk-info', 'Ingestion'],
    ['getMe', 'get', '/me', 'API keys'],
    ['getMyPermissions', 'get', '/me/permissions', 'API keys'],
    ['createApiKey', 'post', '/admin/api-key', 'API keys'],
  ])('%s is %s %s, tagged %s and as an extension, on both profiles', (id, method, path, tag) => {
    const found = byId(id);
    expect([found.method, found.path]).toEqual([method, path]);
    expect(found.op.tags).toEqual([tag, 'Deployed-server extensions']);
    expect(found.op['x-kis-profiles']).toBeUndefined();
    expect(found.op.summary).toBeTruthy();
    expect(found.op.description).toBeTruthy();
    expect(Object.keys(found.op.responses)).toContain('200');
    expect(Object.keys(found.op.responses).some((s) => s.startsWith('4'))).toBe(true);
  });

  it('pages index attempts by page_num from 0 and page_size up to 1000, errors up to 100', () => {
    expect(parameter('listIndexAttempts', 'page_num')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 0, default: 0 },
    });
    expect(parameter('listIndexAttempts', 'page_size').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 10,
    });
    expect(parameter('listIndexingErrors', 'page_size').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(parameter('listIndexingErrors', 'include_resolved').schema).toEqual({
      type: 'boolean',
      default: false,
    });
  });

  it('checks a document by an exact document_id, a chunk by a chunk_id too', () => {
    expect(parameter('getDocumentSizeInfo', 'document_id')).toMatchObject({
      in: 'query',
      required: true,
      schema: { type: 'string' },
    });
    expect(parameter('getChunkInfo', 'chunk_id')).toMatchObject({
      in: 'query',
      required: true,
      schema: { type: 'integer' },
    });
  });

  it('prunes without a body; run once, the indexing status and key creation need one', () => {
    expect(byId('pruneCcPair').op.requestBody).toBeUndefined();
    for (const id of ['runConnectorOnce', 'listIndexingStatus', 'createApiKey']) {
      expect(byId(id).op.requestBody.required, id).toBe(true);
    }
  });
});

describe('enumerations, written once', () => {
  it('names the states of attempts, tasks, permission syncs, pairs and release 4.6.1 roles', () => {
    expect(schemas.IndexingStatus.enum).toEqual([
      'not_started',
      'in_progress',
      'success',
      'canceled',
      'interrupted',
      'failed',
      'completed_with_errors',
    ]);
    expect(schemas.TaskStatus.enum).toEqual(['PENDING', 'STARTED', 'SUCCESS', 'FAILURE']);
    expect(schemas.PermissionSyncStatus.enum).toEqual(
      schemas.IndexingStatus.enum.filter((s: string) => s !== 'interrupted'),
    );
    expect(schemas.UserRole.enum).toEqual([
      'limited',
      'basic',
      'admin',
      'curator',
      'global_curator',
      'slack_user',
      'ext_perm_user',
    ]);
  });

  it('the rule book lists the same values as the document', () => {
    expect([...INDEXING_STATUSES]).toEqual(schemas.IndexingStatus.enum);
    expect([...PAIR_STATUSES]).toEqual(schemas.CcPairStatus.enum);
    expect([...USER_ROLES]).toEqual(schemas.UserRole.enum);
  });
});

describe('request bodies are no stricter than deployed servers', () => {
  it.each([
    ['RunConnectorRequest', { connector_id: 7 }, true],
    ['RunConnectorRequest', { connector_id: 7, credential_ids: null, from_beginning: true }, true],
    ['RunConnectorRequest', { connector_id: 7, credential_ids: [] }, true],
    ['RunConnectorRequest', { credential_ids: [3] }, false],
    ['IndexingStatusRequest', {}, true],
    ['IndexingStatusRequest', { source: 'jira', last_status_filters: ['failed'] }, true],
    ['IndexingStatusRequest', { last_status_filters: ['FAILED'] }, false],
    ['IndexingStatusRequest', { docs_count_operator: '>', docs_count_value: 10 }, true],
    ['IndexingStatusRequest', { docs_count_operator: 'gt' }, false],
    [
      'IndexingStatusRequest',
      { access_type_filters: ['private'], source_to_page: { web: 2 } },
      true,
    ],
    ['CcPairStatusUpdateRequest', { status: 'DELETING' }, true],
    ['ApiKeyCreateRequest', { name: 'kis-ci', role: 'admin' }, true],
    ['ApiKeyCreateRequest', { name: null, group_ids: [1, 2] }, true],
    ['ApiKeyCreateRequest', {}, true],
    // Release 4.6.1 refuses an unknown role, but the main line ignores the field.
    ['ApiKeyCreateRequest', { role: 'owner' }, true],
    ['ApiKeyCreateRequest', { name: 5 }, false],
  ])('%s %j valid: %j', (schema, value, expected) => {
    expect(valid(schema, value)).toBe(expected);
  });
});

describe('answers of release 4.6.1 and the main line', () => {
  it('a pair answers every field the lifecycle needs; permissions only on the main line', () => {
    expect([...schemas.CcPairFullInfo.required].sort()).toEqual(
      [
        'access_type',
        'connector',
        'credential',
        'deletion_failure_message',
        'id',
        'in_repeated_error_state',
        'indexing',
        'is_editable_for_current_user',
        'last_index_attempt_status',
        'last_indexed',
        'last_pruned',
        'latest_deletion_attempt',
        'name',
        'num_docs_indexed',
        'number_of_index_attempts',
        'status',
      ].sort(),
    );
    expect(schemas.CcPairFullInfo.required).not.toContain('permissions');
  });

  it('keys answer with a role (release 4.6.1) or groups (main line)', () => {
    const common = { api_key_id: 5, api_key_display: 'exam****Xk2Q', api_key_name: null };
    const user_id = '0b6f3c1e-2a4d-4c8e-9f10-7d5e3b2a1c90';
    expect(valid('ApiKey', { ...common, api_key_role: 'basic', user_id })).toBe(true);
    expect(valid('ApiKey', { ...common, groups: [{ id: 1, name: 'Admin' }], user_id })).toBe(true);
    expect(valid('ApiKey', { ...common, user_id })).toBe(false);
  });

  it('/me answers a role (release 4.6.1) or an account type and permissions (main line)', () => {
    const base = {
      id: '0b6f3c1e-2a4d-4c8e-9f10-7d5e3b2a1c90',
      email: 'API_KEY__Unnamed@0b6f3c1e-2a4d-4c8e-9f10-7d5e3b2a1c90.apikey.example.com',
      is_active: true,
      is_superuser: false,
      is_verified: true,
    };
    expect(valid('UserInfo', { ...base, role: 'limited' })).toBe(true);
    expect(
      valid('UserInfo', {
        ...base,
        account_type: 'SERVICE_ACCOUNT',
        effective_permissions: ['write:chat'],
      }),
    ).toBe(true);
    expect(valid('UserInfo', base)).toBe(false);
  });

  it('/me/permissions is a list (release 4.6.1) or an object (main line)', () => {
    const schema = byId('getMyPermissions').op.responses['200'].content['application/json'].schema;
    expect(schema.anyOf[0]).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema.anyOf[1].$ref).toBe('#/components/schemas/PermissionsSummary');
    expect(example('getMyPermissions', '200', 'release461')).toEqual(['basic']);
  });

  it('last_pruned is a bare date-time or null', () => {
    expect(example('getCcPairLastPruned', '200', 'never')).toBeNull();
    expect(example('getCcPairLastPruned', '200', 'pruned')).toBe('2025-01-13T09:00:00Z');
  });
});

describe("the document's answers are the rule book's", () => {
  const unknownPair: Array<[PairOperation, ServerKind, string, string]> = [
    ['getCcPair', 'v4.6.1', '404', 'unknown'],
    ['getCcPair', 'main', '404', 'unknownMainLine'],
    ['getCcPair', 'seed', '404', 'unknownSeed'],
    ['listIndexAttempts', 'v4.6.1', '400', 'unknown'],
    ['listIndexAttempts', 'main', '403', 'unknown'],
    ['listIndexAttempts', 'seed', '404', 'unknown'],
    ['listIndexingErrors', 'main', '200', 'none'],
    ['listIndexingErrors', 'seed', '404', 'unknown'],
    ['setCcPairStatus', 'v4.6.1', '400', 'unknown'],
    ['setCcPairStatus', 'main', '403', 'unknown'],
    ['setCcPairStatus', 'seed', '404', 'unknown'],
    ['pruneCcPair', 'v4.6.1', '400', 'unknown'],
    ['pruneCcPair', 'main', '403', 'unknown'],
    ['pruneCcPair', 'seed', '404', 'unknown'],
    ['getCcPairLastPruned', 'v4.6.1', '400', 'unknown'],
    ['getCcPairLastPruned', 'main', '403', 'unknown'],
    ['getCcPairLastPruned', 'seed', '404', 'unknown'],
  ];
  it.each(unknownPair)('%s, unknown pair, %s: the %s example %s', (op, kind, status, name) => {
    const answer = LIFECYCLE_ANSWERS.unknownPair(kind, op, 99);
    expect(String(answer.status)).toBe(status);
    expect(example(op, status, name)).toEqual(answer.body);
  });

  it.each([
    [
      'setCcPairStatus',
      '400',
      'notSettable',
      LIFECYCLE_ANSWERS.statusNotSettable('main', 'DELETING'),
    ],
    ['runConnectorOnce', '200', 'triggered', LIFECYCLE_ANSWERS.runOnceTriggered(1)],
    ['runConnectorOnce', '200', 'alreadyRunning', LIFECYCLE_ANSWERS.runOnceTriggered(0)],
    [
      'runConnectorOnce',
      '400',
      'credentialNotAttached',
      LIFECYCLE_ANSWERS.runOnceCredentialsNotAttached(),
    ],
    ['runConnectorOnce', '400', 'noPairs', LIFECYCLE_ANSWERS.runOnceConnectorWithoutPairs()],
    ['runConnectorOnce', '403', 'notEditable', LIFECYCLE_ANSWERS.runOnceNotEditable('main')],
    ['runConnectorOnce', '404', 'unknownConnector', LIFECYCLE_ANSWERS.runOnceUnknownConnector(99)],
    ['pruneCcPair', '200', 'started', LIFECYCLE_ANSWERS.pruneStarted()],
    ['pruneCcPair', '409', 'running', LIFECYCLE_ANSWERS.pruneRunning('v4.6.1')],
    ['pruneCcPair', '409', 'runningMainLine', LIFECYCLE_ANSWERS.pruneRunning('main')],
    ['pruneCcPair', '500', 'notStarted', LIFECYCLE_ANSWERS.pruneFailed('v4.6.1')],
    ['pruneCcPair', '500', 'notStartedMainLine', LIFECYCLE_ANSWERS.pruneFailed('main')],
    ['createDeletionAttempt', '200', 'started', LIFECYCLE_ANSWERS.deletionStarted()],
    ['createDeletionAttempt', '404', 'unknown', LIFECYCLE_ANSWERS.deletionPairGone('v4.6.1', 7, 3)],
    [
      'createDeletionAttempt',
      '404',
      'unknownMainLine',
      LIFECYCLE_ANSWERS.deletionPairGone('main', 7, 3),
    ],
    ['createDeletionAttempt', '403', 'sharedPair', LIFECYCLE_ANSWERS.sharedPairDeletion('main')],
    ['getDocumentSizeInfo', '404', 'notIndexed', LIFECYCLE_ANSWERS.documentNotIndexed()],
    ['getDocumentSizeInfo', '501', 'disabled', LIFECYCLE_ANSWERS.vectorDbDisabled()],
    ['getChunkInfo', '404', 'notIndexed', LIFECYCLE_ANSWERS.chunkNotIndexed()],
    ['getMe', '403', 'unauthorized', LIFECYCLE_ANSWERS.meUnauthorized()],
    ['createApiKey', '400', 'unknownGroup', LIFECYCLE_ANSWERS.unknownGroups([42])],
    ['createApiKey', '402', 'businessPlan', LIFECYCLE_ANSWERS.planRequired()],
    ['getMyPermissions', '403', 'insufficientPermissions', LIFECYCLE_ANSWERS.permissionDenied()],
    ['getMyPermissions', '403', 'limited', LIFECYCLE_ANSWERS.limitedKey()],
    ['getMyPermissions', '403', 'notCurator', LIFECYCLE_ANSWERS.notCuratorOrAdmin()],
  ] as const)('%s: the %s example %s', (op, status, name, answer) => {
    expect(answer).toBeDefined();
    expect(String(answer?.status)).toBe(status);
    expect(example(op, status, name)).toEqual(answer?.body);
  });
});

describe('who may call each operation', () => {
  it('the rule book has a rule for every operation of the document, and no other', () => {
    expect(Object.keys(OPERATION_ACCESS).sort()).toEqual(
      operations.map(({ op }) => op.operationId as string).sort(),
    );
  });

  it("x-kis-role's deployed role agrees with release 4.6.1's check (the main line's where 4.6.1 lacks the route)", () => {
    const roleOf = (id: string): string => {
      const rule = accessFor(id);
      const gate = rule?.['v4.6.1'];
      if (gate?.kind === 'curator') return 'curator';
      if (gate?.kind === 'permission' && gate.permission === 'admin') return 'admin';
      if (gate?.kind === 'absent' && rule?.main.kind === 'permission') {
        return rule.main.scoped ? 'curator' : 'admin';
      }
      return 'basic';
    };
    for (const { op } of operations) {
      expect(op['x-kis-role'].deployed, op.operationId).toBe(roleOf(op.operationId));
    }
  });
});
