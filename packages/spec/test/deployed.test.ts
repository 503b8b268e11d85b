// The bundled document describes deployed servers beside the seed (docs/deployed-servers.md):
// their routes and bodies, the x-kis- extensions the toolkit reads, and the shapes of their
// answers. Expected values are written out from what deployed servers do.
import { isMaskedValue, MASK_EXEMPT_KEYS, ROLES, ROUTE_VARIANTS } from '@kis/rules';
import { describe, expect, it } from 'vitest';
import { byId, type Json, operations, spec, valid } from './helpers.js';

describe('x-kis extensions', () => {
  it('every operation names the least role it needs on each kind of server', () => {
    for (const { path, method, op } of operations) {
      const role = op['x-kis-role'];
      expect(Object.keys(role ?? {}).sort(), `${method} ${path}`).toEqual(['deployed', 'seed']);
      expect(ROLES).toContain(role.seed);
      expect(ROLES).toContain(role.deployed);
    }
  });

  it('roles as deployed servers check them: curator for the connector calls, basic for the document and identity calls', () => {
    const expected: Record<string, [string, string]> = {
      createConnector: ['admin', 'curator'],
      listCredentials: ['admin', 'curator'],
      updateCredentialPrivateKey: ['admin', 'curator'],
      associateCredentialWithConnector: ['admin', 'curator'],
      associateCredential: ['admin', 'curator'],
      dissociateCredential: ['admin', 'curator'],
      createCredential: ['basic', 'curator'],
      ingestDocument: ['basic', 'curator'],
      listIngestedDocuments: ['basic', 'curator'],
      deleteIngestedDocument: ['basic', 'curator'],
      listConnectorDocuments: ['basic', 'curator'],
      uploadUserFiles: ['basic', 'basic'],
      uploadProjectFiles: ['basic', 'basic'],
      getVersion: ['basic', 'basic'],
      listConnectors: ['basic', 'curator'],
      getConnector: ['basic', 'curator'],
      updateConnector: ['admin', 'curator'],
      deleteConnector: ['admin', 'curator'],
      listConnectorStatus: ['admin', 'curator'],
      getCcPair: ['admin', 'curator'],
      renameCcPair: ['admin', 'curator'],
      setCcPairStatus: ['admin', 'curator'],
      createDeletionAttempt: ['admin', 'curator'],
      listIndexAttempts: ['admin', 'curator'],
      listIndexingErrors: ['admin', 'curator'],
      runConnectorOnce: ['admin', 'curator'],
      pruneCcPair: ['admin', 'curator'],
      getCcPairLastPruned: ['admin', 'curator'],
      listIndexingStatus: ['admin', 'curator'],
      getDocumentSizeInfo: ['basic', 'basic'],
      getChunkInfo: ['basic', 'basic'],
      getMe: ['basic', 'basic'],
      getMyPermissions: ['basic', 'basic'],
      createApiKey: ['admin', 'admin'],
      getCredential: ['basic', 'curator'],
      updateCredential: ['admin', 'curator'],
      replaceCredentialJson: ['basic', 'curator'],
      deleteCredential: ['basic', 'curator'],
      adminSearch: ['curator', 'curator'],
      getSecondarySearchSettings: ['basic', 'basic'],
      getAllSearchSettings: ['basic', 'basic'],
      getReindexProgress: ['admin', 'admin'],
      listReindexErrors: ['admin', 'admin'],
      setDocumentHidden: ['admin', 'curator'],
      setDocumentBoost: ['admin', 'curator'],
      listBoostedDocuments: ['admin', 'curator'],
      createDocumentSet: ['admin', 'curator'],
      updateDocumentSet: ['admin', 'curator'],
      deleteDocumentSet: ['admin', 'curator'],
      listDocumentSets: ['basic', 'basic'],
      listUserGroups: ['admin', 'curator'],
      createUserGroup: ['admin', 'admin'],
      updateUserGroup: ['admin', 'curator'],
      addUserGroupUsers: ['admin', 'curator'],
      renameUserGroup: ['admin', 'admin'],
      updateUserGroupDocumentSets: ['admin', 'curator'],
      deleteUserGroup: ['admin', 'admin'],
      setUserGroupManager: ['admin', 'curator'],
      setUserGroupCurator: ['admin', 'curator'],
    };
    const actual = Object.fromEntries(
      operations.map(({ op }) => [
        op.operationId,
        [op['x-kis-role'].seed, op['x-kis-role'].deployed],
      ]),
    );
    expect(actual).toEqual(expected);
  });

  it("only the seed's association and upload paths are missing on deployed servers", () => {
    const seedOnly = operations
      .filter(({ op }) => op['x-kis-profiles'] !== undefined)
      .map(({ path, method, op }) => [method, path, op['x-kis-profiles']]);
    expect(seedOnly).toEqual([
      ['put', '/manage/admin/connector/{connector_id}/credential/{credential_id}', ['seed']],
      ['post', '/user/file/upload', ['seed']],
    ]);
  });

  it('route variants name the operations of the rule book, in its order', () => {
    for (const [group, paths] of Object.entries(ROUTE_VARIANTS)) {
      const inSpec = operations
        .filter(({ op }) => op['x-kis-variant-of'] === group)
        .map(({ path }) => path);
      expect([...inSpec].sort(), group).toEqual([...paths].sort());
    }
  });

  it('descriptions point only to documentation inside the repository', () => {
    const text = JSON.stringify(spec);
    expect(text).not.toMatch(/compat-notes|seed\/service-api|\.\.\/shared/);
    expect(text).toContain('docs/deployed-servers.md');
  });
});

describe('association on deployed servers', () => {
  it('is PUT /manage/connector/{connector_id}/credential/{credential_id} with a required body', () => {
    const { path, method, op } = byId('associateCredential');
    expect([method, path]).toEqual([
      'put',
      '/manage/connector/{connector_id}/credential/{credential_id}',
    ]);
    expect(op.requestBody.required).toBe(true);
    expect(byId('dissociateCredential').path).toBe(path);
  });

  it('requires name and access_type there; the seed path keeps both optional in its body', () => {
    expect(valid('ConnectorCredentialPairRequest', { access_type: 'public' })).toBe(false);
    expect(valid('ConnectorCredentialPairRequest', { name: 'Docs', access_type: 'public' })).toBe(
      true,
    );
    expect(
      valid('ConnectorCredentialPairRequest', {
        name: 'Docs',
        access_type: 'private',
        groups: [1],
        auto_sync_options: null,
        processing_mode: 'FILE_SYSTEM',
      }),
    ).toBe(true);
    expect(valid('ConnectorCredentialPairRequest', { name: 'Docs', access_type: 'PUBLIC' })).toBe(
      false,
    );
    expect(
      valid('ConnectorCredentialPairRequest', {
        name: 'Docs',
        access_type: 'public',
        processing_mode: 'FAST',
      }),
    ).toBe(false);
    expect(valid('ConnectorCredentialPairMetadata', { access_type: 'public' })).toBe(true);
  });

  it('answers a pair that exists with success false and the connector id in data', () => {
    const examples =
      byId('associateCredential').op.responses['200'].content['application/json'].examples;
    expect(examples.alreadyAssociated.value).toEqual({
      success: false,
      message: 'Connector 7 already has Credential 3',
      data: 7,
    });
    expect(valid('StatusResponse', examples.associated.value)).toBe(true);
  });
});

describe('answers of both worlds', () => {
  it('422 is either the seed detail list or deployed servers {status_code, message, data}', () => {
    expect(
      valid('StatusCodeError', { status_code: 422, message: "[{'type': 'missing'}]", data: null }),
    ).toBe(true);
    const schema = spec.components.responses.ValidationFailed.content['application/json'].schema;
    expect(schema.anyOf).toHaveLength(2);
  });

  it('both IngestionResult fields are required', () => {
    expect(valid('IngestionResult', { document_id: 'a', already_existed: true })).toBe(true);
    expect(valid('IngestionResult', { already_existed: true })).toBe(false);
  });

  it('DELETE of an ingested document may answer null', () => {
    const { op } = byId('deleteIngestedDocument');
    expect(op.responses['200'].content['application/json'].examples.deleted.value).toBeNull();
  });

  it('listings may carry link ""', () => {
    expect(valid('IngestedDocumentSummary', { document_id: 'a', semantic_id: 'A', link: '' })).toBe(
      true,
    );
  });

  it('answers may carry a source value of a newer release', () => {
    expect(valid('SourceValue', 'a_newer_source')).toBe(true);
    expect(valid('DocumentSource', 'a_newer_source')).toBe(false);
  });

  it('the deployed upload answers the stored files and the rejected ones', () => {
    const { op } = byId('uploadProjectFiles');
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/UserFileUploadResponse',
    );
    const form = spec.components.schemas.ProjectFileUploadForm;
    expect(Object.keys(form.properties)).toEqual([
      'files',
      'project_id',
      'temp_id_map',
      'incognito_session_id',
    ]);
    expect(form.properties.project_id.type).toBe('integer');
  });

  it('the version route answers backend_version', () => {
    expect(valid('VersionResponse', { backend_version: 'v4.6.1' })).toBe(true);
    expect(byId('getVersion').path).toBe('/version');
  });
});

describe('documents as deployed servers read them', () => {
  const doc = (sections: unknown[], extra: Json = {}) => ({
    semantic_identifier: 'Doc',
    sections,
    metadata: {},
    ...extra,
  });

  it.each([
    [[{ text: 'hello', type: 'text', heading: 'Intro' }], true],
    [[{ image_file_id: 'f1', type: 'image' }], true],
    [[{ type: 'tabular', csv_file_id: 'c1', link: 'https://example.com/t' }], true],
    [[{ type: 'tabular', csv_file_id: 'c1' }], false],
    [[{ type: 'table', text: 'x' }], false],
  ])('sections %j valid: %j', (sections, expected) => {
    expect(valid('IngestionDocument', doc(sections))).toBe(expected);
  });

  it('reads the extra fields of deployed servers', () => {
    expect(
      valid(
        'IngestionDocument',
        doc([{ text: 'x' }], {
          doc_created_at: '2025-01-01T00:00:00Z',
          file_id: 'f',
          parent_hierarchy_raw_node_id: 'n',
          parent_hierarchy_node_id: 3,
          additional_info: { any: 'thing' },
          doc_metadata: null,
          external_access: {
            external_user_emails: ['a@example.com'],
            external_user_group_ids: [],
            is_public: false,
          },
        }),
      ),
    ).toBe(true);
  });

  it('external_access needs all three of its fields', () => {
    expect(
      valid('IngestionDocument', doc([{ text: 'x' }], { external_access: { is_public: true } })),
    ).toBe(false);
  });
});

describe('listing, updating and deleting (deployed servers)', () => {
  it("has the operations at deployed servers' paths, tagged as extensions, for both profiles", () => {
    const expected: Array<[string, string, string]> = [
      ['listConnectors', 'get', '/manage/connector'],
      ['getConnector', 'get', '/manage/connector/{connector_id}'],
      ['updateConnector', 'patch', '/manage/admin/connector/{connector_id}'],
      ['deleteConnector', 'delete', '/manage/admin/connector/{connector_id}'],
      ['listConnectorStatus', 'get', '/manage/admin/connector/status'],
      ['getCcPair', 'get', '/manage/admin/cc-pair/{cc_pair_id}'],
      ['renameCcPair', 'put', '/manage/admin/cc-pair/{cc_pair_id}/name'],
      ['setCcPairStatus', 'put', '/manage/admin/cc-pair/{cc_pair_id}/status'],
      ['createDeletionAttempt', 'post', '/manage/admin/deletion-attempt'],
      ['getCredential', 'get', '/manage/credential/{credential_id}'],
      ['updateCredential', 'put', '/manage/admin/credential/{credential_id}'],
      ['replaceCredentialJson', 'patch', '/manage/credential/{credential_id}'],
      ['deleteCredential', 'delete', '/manage/credential/{credential_id}'],
    ];
    for (const [id, method, path] of expected) {
      const found = byId(id);
      expect([found.method, found.path], id).toEqual([method, path]);
      expect(found.op.tags, id).toContain('Deployed-server extensions');
      expect(found.op['x-kis-profiles'], id).toBeUndefined();
    }
  });

  it('renames a pair with a required new_name query parameter and no body', () => {
    const { op, path } = byId('renameCcPair');
    const params = [...(spec.paths[path].parameters ?? []), ...(op.parameters ?? [])];
    expect(params.find((p: Json) => p.name === 'new_name')).toMatchObject({
      in: 'query',
      required: true,
      schema: { type: 'string' },
    });
    expect(op.requestBody).toBeUndefined();
  });

  it('answers connectors with every field deployed servers send, and no access type', () => {
    const connector = spec.components.schemas.Connector;
    expect([...connector.required].sort()).toEqual(
      [
        'connector_specific_config',
        'credential_ids',
        'id',
        'indexing_start',
        'input_type',
        'name',
        'prune_freq',
        'refresh_freq',
        'source',
        'time_created',
        'time_updated',
      ].sort(),
    );
    expect(connector.properties).not.toHaveProperty('access_type');
    expect(byId('updateConnector').op.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ConnectorCreateRequest',
    );
  });

  it('names the six pair states', () => {
    expect(spec.components.schemas.CcPairStatus.enum).toEqual([
      'SCHEDULED',
      'INITIAL_INDEXING',
      'ACTIVE',
      'PAUSED',
      'DELETING',
      'INVALID',
    ]);
    expect(valid('CcPairStatusUpdateRequest', { status: 'PAUSED' })).toBe(true);
    expect(valid('CcPairStatusUpdateRequest', { status: 'paused' })).toBe(false);
  });

  it('a deletion attempt answers null; an unknown credential is 401', () => {
    const { op } = byId('createDeletionAttempt');
    expect(op.responses['200'].content['application/json'].examples.started.value).toBeNull();
    for (const id of ['getCredential', 'updateCredential', 'replaceCredentialJson']) {
      const unauthorized = byId(id).op.responses['401'];
      expect(unauthorized.$ref, id).toBe('#/components/responses/UnknownCredential');
    }
  });

  it('every credential_json in an answer example is masked by the rule book', () => {
    const seen: unknown[] = [];
    const walk = (node: unknown, key?: string): void => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
      } else if (typeof node === 'object' && node !== null) {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'credential_json' && typeof v === 'object' && v !== null) {
            for (const [secretKey, value] of Object.entries(v)) {
              seen.push(value);
              if (!MASK_EXEMPT_KEYS.includes(secretKey)) {
                expect(isMaskedValue(value), `${key ?? ''}.${secretKey}: ${value}`).toBe(true);
              }
            }
          } else {
            walk(v, k);
          }
        }
      }
    };
    for (const { op } of operations) {
      for (const response of Object.values(op.responses as Json)) {
        const content = (response as Json).content?.['application/json'];
        for (const example of Object.values((content?.examples ?? {}) as Json)) {
          walk((example as Json).value);
        }
      }
    }
    expect(seen.length).toBeGreaterThan(10);
  });
});
