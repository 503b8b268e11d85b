// The client against the emulator behind `prism proxy --errors`: Prism checks every request the
// client sends and every response the emulator gives against the bundled spec, and answers a
// violation with an error instead of passing it on. The suite runs the seed's workflows, every
// error status and the operation of pairs and keys, then checks that Prism reported no violation
// at all. It runs once per server
// profile the emulator plays (vitest projects `emulator-seed`, `emulator-deployed`); where the two
// answer differently, the expected answers are written below per profile, from
// docs/deployed-servers.md (the compat notes), never taken from the code under test.

import { readFileSync } from 'node:fs';
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  createKisClient,
  type IngestionDocument,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  type SearchDoc,
  UnprocessableEntityError,
} from '@kis/client';
import type { Profile } from '@kis/rules';
import { beforeAll, describe, expect, inject, it } from 'vitest';

const profile = inject('profile');

/** What a server of each profile answers where they differ (fixed values, from the compat notes). */
const EXPECTED: Record<
  Profile,
  {
    /** A missing or invalid key. */
    badKey: { status: number; body: unknown };
    /** Association with a connector that does not exist. */
    unknownConnector: { status: number; error: typeof NotFoundError | typeof InternalServerError };
    /** `GET /svc-api/connector-docs/{id}` of a pair that does not exist. */
    unknownPairDocsStatus: number;
    /** A connector of a source the newest releases dropped (`requesttracker`, until 4.0). */
    droppedSource: 'created' | { status: 422; body: unknown };
  }
> = {
  seed: {
    badKey: { status: 401, body: { detail: expect.any(String) } },
    unknownConnector: { status: 404, error: NotFoundError },
    unknownPairDocsStatus: 404,
    droppedSource: 'created',
  },
  deployed: {
    // "Missing or invalid key: 403 {"detail":"Access denied. User is not authenticated."}"
    badKey: { status: 403, body: { detail: 'Access denied. User is not authenticated.' } },
    // "Unknown connector or credential: 500 {"error_code":"INTERNAL_ERROR","detail":"Unexpected error"}"
    unknownConnector: { status: 500, error: InternalServerError },
    // "GET .../connector-docs/{cc_pair_id} of an unknown pair: main line 403"
    unknownPairDocsStatus: 403,
    // "Releases from 4.0 on no longer have requesttracker"; "422 bodies on deployed servers
    // (every release): {"status_code":422,"message":"<pydantic error text>","data":null}"
    droppedSource: {
      status: 422,
      body: { status_code: 422, message: expect.stringContaining('source'), data: null },
    },
  },
};
const expected = EXPECTED[profile];

let kis: ReturnType<typeof createKisClient>;
let user: ReturnType<typeof createKisClient>;

beforeAll(() => {
  kis = createKisClient({
    baseUrl: inject('proxyUrl'),
    apiKey: inject('emulatorAdminKey'),
    maxRetries: 0,
  });
  user = createKisClient({
    baseUrl: inject('proxyUrl'),
    apiKey: inject('emulatorUserKey'),
    maxRetries: 0,
  });
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** A `web` connector named `name` and its pair `pairName` with credential 0: their ids. */
async function webPair(name: string, pairName: string) {
  const connector = await kis.api.POST('/manage/admin/connector', {
    body: {
      name,
      source: 'web',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { base_url: 'https://docs.example.com' },
    },
  });
  const connectorId = connector.data?.id ?? -1;
  const associated = await kis.api.PUT(
    '/manage/connector/{connector_id}/credential/{credential_id}',
    {
      params: { path: { connector_id: connectorId, credential_id: 0 } },
      body: { name: pairName, access_type: 'public' },
    },
  );
  const pairId = associated.data?.data;
  if (typeof pairId !== 'number') throw new Error('no pair id');
  return { connectorId, pairId };
}

const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

describe('the seed workflows, through the validating proxy', () => {
  let ccPairId: number;

  it('connector set-up: create, list credentials, associate (issue tracker)', async () => {
    const credential = await kis.credentials.create({
      name: 'Jira bot',
      source: 'jira',
      admin_public: true,
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'secret-token' },
    });
    const credentials = await kis.credentials.list();
    const jira = credentials.find((c) => c.id === credential.id);
    expect(jira?.source).toBe('jira');
    expect(JSON.stringify(credentials)).not.toContain('secret-token');

    const connector = await kis.connectors.create({
      name: 'Jira KIS',
      source: 'jira',
      input_type: 'poll',
      access_type: 'PUBLIC',
      connector_specific_config: {
        jira_base_url: 'https://example.atlassian.net',
        project_key: 'KIS',
        comment_email_blacklist: null,
      },
      refresh_freq: 3600,
      prune_freq: 86400,
    });
    const association = await kis.connectors.associateCredential(connector.id, credential.id);
    expect(association.success).toBe(true);
    expect(Number.isInteger(association.data)).toBe(true);

    const again = await kis.connectors.associateCredential(connector.id, credential.id);
    expect(again.success).toBe(false);
  });

  it('setupConnector for a file source uses the default credential 0', async () => {
    const setup = await kis.setupConnector({
      connector: {
        name: 'Contract files',
        source: 'file',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { file_locations: [] },
      },
    });
    expect(setup.credentialId).toBe(0);
    expect(setup.ccPairId).not.toBeNull();
    ccPairId = setup.ccPairId as number;
  });

  it('ingestion: created, then already_existed on a re-post; derived ids', async () => {
    const document: IngestionDocument = {
      id: 'contract-doc-1',
      semantic_identifier: 'Contract doc 1',
      sections: [{ text: 'first version', link: 'https://example.com/1' }],
      source: 'file',
      metadata: { kind: 'test', tags: ['a', 'b'] },
    };
    const first = await kis.ingestion.ingest({ document, cc_pair_id: ccPairId });
    expect(first.already_existed).toBe(false);
    const second = await kis.ingestion.ingest({
      document: { ...document, sections: [{ text: 'second version' }] },
      cc_pair_id: ccPairId,
    });
    expect(second.already_existed).toBe(true);

    const withoutId = await kis.ingestDocument(
      {
        semantic_identifier: 'Q4 report (2024).pdf',
        sections: [{ text: 'numbers' }],
        source: 'file',
        metadata: {},
      },
      { ccPairId },
    );
    expect(withoutId.documentId).toBe('ingestion_api_Q4_report_%282024%29.pdf');
    expect(withoutId.alreadyExisted).toBe(false);
  });

  it('ingestMany sends a batch, and a re-run updates instead of duplicating', async () => {
    const docs = Array.from({ length: 25 }, (_, i) => ({
      id: `contract-bulk-${i}`,
      semantic_identifier: `Bulk ${i}`,
      sections: [{ text: `body ${i}` }],
      source: 'file' as const,
      metadata: {},
    }));
    const first = await kis.ingestMany(docs, { ccPairId, concurrency: 4 }).done();
    expect(first).toMatchObject({ created: 25, updated: 0, failed: 0 });
    const second = await kis.ingestMany(docs, { ccPairId, concurrency: 4 }).done();
    expect(second).toMatchObject({ created: 0, updated: 25, failed: 0 });
    const listed = await kis.ingestion.listConnectorDocuments(ccPairId);
    expect(listed.filter((d) => d.document_id.startsWith('contract-bulk-'))).toHaveLength(25);
  });

  it('image upload precedes an image section', async () => {
    const { fileId } = await kis.files.uploadImage({
      data: PNG,
      fileName: 'pixel.png',
      contentType: 'image/png',
    });
    const result = await kis.ingestion.ingest({
      document: {
        id: 'contract-image',
        semantic_identifier: 'Architecture diagram',
        sections: [{ image_file_id: fileId }, { text: 'caption' }],
        source: 'file',
        metadata: {},
      },
      cc_pair_id: ccPairId,
    });
    expect(result.already_existed).toBe(false);
  });

  it('private-key upload (multipart) answers a CredentialBase without the key material', async () => {
    // Sent to the emulator directly: Prism's proxy re-encodes binary multipart parts as text,
    // which corrupts a real PKCS#12 file (its DER header has bytes above 0x7f). Through the
    // proxy, the emulator's 400 for a file that is not PKCS#12 is checked below.
    const direct = createKisClient({
      baseUrl: inject('emulatorUrl'),
      apiKey: inject('emulatorAdminKey'),
      maxRetries: 0,
    });
    const credential = await direct.credentials.create({
      name: 'SharePoint app',
      source: 'sharepoint',
      admin_public: true,
      credential_json: { authentication_method: 'client_secret', sp_client_id: 'client' },
    });
    // A throw-away self-signed PKCS#12 file (password kis-test), as deployed servers require.
    const keyBytes = readFileSync(new URL('./fixtures/app.pfx', import.meta.url));
    const updated = await direct.credentials.updatePrivateKey(credential.id, {
      name: 'SharePoint app',
      credentialJson: { sp_client_id: 'client', sp_directory_id: 'tenant' },
      file: { data: keyBytes, fileName: 'app.pfx' },
      fieldKey: 'sp_private_key',
      typeDefinitionKey: 'sharepoint_pfx_file',
    });
    expect(updated.source).toBe('sharepoint');
    const echoed = JSON.stringify(updated);
    expect(echoed).not.toContain(keyBytes.toString('base64').slice(0, 40));
    expect(echoed).not.toContain('MII');

    const refused = await rejection(
      kis.credentials.updatePrivateKey(credential.id, {
        name: 'SharePoint app',
        credentialJson: { sp_client_id: 'client' },
        file: { data: new TextEncoder().encode('not a certificate'), fileName: 'app.pfx' },
        fieldKey: 'sp_private_key',
        typeDefinitionKey: 'sharepoint_pfx_file',
      }),
    );
    expect(BadRequestError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain('PKCS#12');
  });

  it('list and delete ingested documents', async () => {
    const listed = await kis.ingestion.list();
    expect(listed.some((d) => d.document_id === 'contract-doc-1')).toBe(true);
    await kis.ingestion.delete('contract-doc-1');
    const after = await kis.ingestion.list();
    expect(after.some((d) => d.document_id === 'contract-doc-1')).toBe(false);
  });
});

describe('error statuses, through the validating proxy', () => {
  it(`${expected.badKey.status} without a valid key (an AuthenticationError on every server)`, async () => {
    const stranger = createKisClient({
      baseUrl: inject('proxyUrl'),
      apiKey: 'not-a-key-of-this-server',
      maxRetries: 0,
    });
    const error = await rejection(stranger.credentials.list());
    expect((error as APIError).status).toBe(expected.badKey.status);
    expect((error as APIError).body).toEqual(expected.badKey.body);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).not.toContain('not-a-key-of-this-server');
  });

  it('403 for a non-admin key on /manage/admin', async () => {
    const error = await rejection(user.credentials.list());
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
  });

  it('404 for an unknown cc_pair_id', async () => {
    const error = await rejection(
      kis.ingestion.ingest({
        document: { semantic_identifier: 'x', sections: [{ text: 'x' }], metadata: {} },
        cc_pair_id: 987654,
      }),
    );
    expect(NotFoundError.isInstance(error)).toBe(true);
  });

  it(`${expected.unknownConnector.status} for an unknown connector on association`, async () => {
    const error = await rejection(kis.connectors.associateCredential(987654, 0));
    expect((error as APIError).status).toBe(expected.unknownConnector.status);
    expect(expected.unknownConnector.error.isInstance(error)).toBe(true);
  });

  it('a value the spec admits but the server refuses: a source newer servers dropped', async () => {
    const connector = {
      name: 'Old tracker',
      source: 'requesttracker',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: {},
    } as const;
    const { droppedSource } = expected;
    if (droppedSource === 'created') {
      const created = await kis.connectors.create(connector);
      expect(Number.isInteger(created.id)).toBe(true);
      return;
    }
    const error = await rejection(kis.connectors.create(connector));
    expect((error as APIError).status).toBe(droppedSource.status);
    expect((error as APIError).body).toEqual(droppedSource.body);
    // both 422 shapes become the same error, naming the field
    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    const detail = (error as UnprocessableEntityError).detail;
    expect(detail.some((d) => d.loc.join('.').includes('source'))).toBe(true);
  });

  it('422 for an invalid body, naming the field', async () => {
    const error = await rejection(
      kis.ingestion.ingest({
        document: { sections: [{ text: 'x' }], metadata: {} },
      } as never),
    );
    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    const detail = (error as UnprocessableEntityError).detail;
    expect(detail.some((d) => d.loc.join('.').includes('semantic_identifier'))).toBe(true);
  });
});

describe('listing, updating and deleting, through the validating proxy', () => {
  // Raw calls (kis.api): the proxy checks each request and each answer against the spec.
  /** Polls `check` every few milliseconds until it holds (or fails after `timeoutMs`). */
  async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('connectors: list, get, replace, delete', async () => {
    const created = await kis.api.POST('/manage/admin/connector', {
      body: {
        name: `Managed ${profile}`,
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { base_url: 'https://docs.example.com' },
      },
    });
    const id = created.data?.id ?? -1;
    const listed = await kis.api.GET('/manage/connector');
    expect(listed.data?.some((c) => c.id === id)).toBe(true);
    const one = await kis.api.GET('/manage/connector/{connector_id}', {
      params: { path: { connector_id: id } },
    });
    expect(one.data?.credential_ids).toEqual([]);
    const replaced = await kis.api.PATCH('/manage/admin/connector/{connector_id}', {
      params: { path: { connector_id: id } },
      body: {
        name: `Managed ${profile} (renamed)`,
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { base_url: 'https://docs.example.com/v2' },
      },
    });
    expect(replaced.data).toMatchObject({ refresh_freq: null, prune_freq: 604800 });
    const deleted = await kis.api.DELETE('/manage/admin/connector/{connector_id}', {
      params: { path: { connector_id: id } },
    });
    expect(deleted.data).toEqual({ success: true, message: expect.any(String), data: id });
    const gone = await kis.api.GET('/manage/connector/{connector_id}', {
      params: { path: { connector_id: id } },
    });
    expect(gone.response.status).toBe(404);
  });

  it('pairs: list, get, rename, pause, delete with their documents', async () => {
    const { connectorId, pairId } = await webPair(`Pair owner ${profile}`, 'Pair');
    const statuses = await kis.api.GET('/manage/admin/connector/status');
    expect(statuses.data?.find((p) => p.cc_pair_id === pairId)?.connector.id).toBe(connectorId);
    const path = { path: { cc_pair_id: pairId } };
    const renamed = await kis.api.PUT('/manage/admin/cc-pair/{cc_pair_id}/name', {
      params: { ...path, query: { new_name: 'Renamed pair' } },
    });
    expect(renamed.data?.success).toBe(true);
    await kis.api.PUT('/manage/admin/cc-pair/{cc_pair_id}/status', {
      params: path,
      body: { status: 'PAUSED' },
    });
    const pair = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}', { params: path });
    expect(pair.data).toMatchObject({ name: 'Renamed pair', status: 'PAUSED' });
    const attempt = await kis.api.POST('/manage/admin/deletion-attempt', {
      body: { connector_id: connectorId, credential_id: 0 },
    });
    expect(attempt.response.status).toBe(200);
    await until(
      async () =>
        (await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}', { params: path })).response
          .status === 404,
    );
  });

  it('credentials: get, merge, replace, delete; secrets masked', async () => {
    const created = await kis.api.POST('/manage/credential', {
      body: {
        source: 'jira',
        admin_public: true,
        credential_json: { jira_user_email: 'bot@kis.io', jira_api_token: 'a-long-secret-token' },
      },
    });
    const path = { path: { credential_id: created.data?.id ?? -1 } };
    const one = await kis.api.GET('/manage/credential/{credential_id}', { params: path });
    expect(one.data?.credential_json).toEqual({
      jira_user_email: '••••••••••••',
      jira_api_token: 'a-lo...oken',
    });
    const merged = await kis.api.PUT('/manage/admin/credential/{credential_id}', {
      params: path,
      body: { name: 'Merged', credential_json: { extra: 'value' } },
    });
    expect(Object.keys(merged.data?.credential_json ?? {}).sort()).toEqual([
      'extra',
      'jira_api_token',
      'jira_user_email',
    ]);
    const replaced = await kis.api.PATCH('/manage/credential/{credential_id}', {
      params: path,
      body: { source: 'jira', admin_public: true, credential_json: { only: 'key' } },
    });
    expect(Object.keys(replaced.data?.credential_json ?? {})).toEqual(['only']);
    const deleted = await kis.api.DELETE('/manage/credential/{credential_id}', { params: path });
    expect(deleted.data?.success).toBe(true);
    const unknown = await kis.api.GET('/manage/credential/{credential_id}', { params: path });
    expect(unknown.response.status).toBe(401);
  });
});

describe('operating pairs and keys, through the validating proxy', () => {
  // Raw calls (kis.api) of the lifecycle operations: the proxy checks each request and answer.
  // Expected values from compat-lifecycle.md; the emulator's index attempts run on its own timer.
  async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error('condition not met within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a pair indexes, runs once, prunes, is listed, then is deleted', async () => {
    const { connectorId, pairId } = await webPair(`Operated ${profile}`, 'Operated');
    const path = { path: { cc_pair_id: pairId } };
    const pair = await poll(
      async () => (await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}', { params: path })).data,
      (p) => p?.status === 'ACTIVE',
    );
    expect(pair).toMatchObject({
      last_index_attempt_status: 'success',
      number_of_index_attempts: 1,
    });
    const attempts = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/index-attempts', {
      params: { ...path, query: { page_num: 0, page_size: 5 } },
    });
    expect(attempts.data).toMatchObject({ items: [{ status: 'success' }], total_items: 1 });
    const errors = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/errors', {
      params: { ...path, query: { include_resolved: true } },
    });
    expect(errors.data).toEqual({ items: [], total_items: 0 });
    const run = () =>
      kis.api.POST('/manage/admin/connector/run-once', {
        body: { connector_id: connectorId, from_beginning: true },
      });
    expect((await run()).data).toMatchObject({ success: true, data: 1 });
    expect((await run()).data).toMatchObject({ success: true, data: 0 });
    const pruned = await kis.api.POST('/manage/admin/cc-pair/{cc_pair_id}/prune', { params: path });
    expect(pruned.data).toMatchObject({ success: true, data: null });
    const again = await kis.api.POST('/manage/admin/cc-pair/{cc_pair_id}/prune', { params: path });
    expect(again.response.status).toBe(409);
    await poll(
      async () =>
        (await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/last_pruned', { params: path }))
          .data,
      (time) => typeof time === 'string',
    );
    const listed = await kis.api.POST('/manage/admin/connector/indexing-status', {
      body: { source: 'web', get_all_connectors: true },
    });
    const rows = listed.data?.flatMap((entry) => entry.indexing_statuses) ?? [];
    expect(rows.some((row) => 'cc_pair_id' in row && row.cc_pair_id === pairId)).toBe(true);
    const paused = await kis.api.PUT('/manage/admin/cc-pair/{cc_pair_id}/status', {
      params: path,
      body: { status: 'PAUSED' },
    });
    expect(paused.data).toEqual({ message: '200' });
    const deletion = await kis.api.POST('/manage/admin/deletion-attempt', {
      body: { connector_id: connectorId, credential_id: 0 },
    });
    expect(deletion.response.status).toBe(200);
    await poll(
      async () =>
        (await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}', { params: path })).response.status,
      (status) => status === 404,
    );
    const gone = await kis.api.POST('/manage/admin/deletion-attempt', {
      body: { connector_id: connectorId, credential_id: 0 },
    });
    expect(gone.response.status).toBe(404);
  });

  it('unknown pairs answer as each kind of server does', async () => {
    const path = { path: { cc_pair_id: 424243 } };
    const attempts = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/index-attempts', {
      params: path,
    });
    expect(attempts.response.status).toBe(profile === 'seed' ? 404 : 403);
    const errors = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/errors', {
      params: path,
    });
    expect(errors.response.status).toBe(profile === 'seed' ? 404 : 200);
    const lastPruned = await kis.api.GET('/manage/admin/cc-pair/{cc_pair_id}/last_pruned', {
      params: path,
    });
    expect(lastPruned.response.status).toBe(profile === 'seed' ? 404 : 403);
  });

  it('an ingested document is indexed: its chunks and tokens', async () => {
    const { documentId: id } = await kis.ingestDocument({
      id: `sized-${profile}`,
      semantic_identifier: 'Sized',
      sections: [{ text: 'one two three four' }],
      metadata: {},
    });
    const size = await poll(
      () => kis.api.GET('/document/document-size-info', { params: { query: { document_id: id } } }),
      (r) => r.response.status === 200,
    );
    expect(size.data).toEqual({ num_chunks: 1, num_tokens: 4 });
    const chunk = await kis.api.GET('/document/chunk-info', {
      params: { query: { document_id: id, chunk_id: 0 } },
    });
    expect(chunk.data).toEqual({ content: 'one two three four', num_tokens: 4 });
    const missing = await kis.api.GET('/document/chunk-info', {
      params: { query: { document_id: id, chunk_id: 9 } },
    });
    expect(missing.response.status).toBe(404);
  });

  it('/me, /me/permissions and a new key without connector rights', async () => {
    const me = await kis.api.GET('/me');
    expect(me.data).toMatchObject(
      profile === 'seed' ? { role: 'admin' } : { account_type: 'SERVICE_ACCOUNT' },
    );
    const permissions = await user.api.GET('/me/permissions');
    expect(permissions.data).toEqual(
      profile === 'seed'
        ? ['basic']
        : { permissions: ['basic'], is_manager: false, managed_group_ids: [] },
    );
    // a key made the default way may not operate connectors on either kind of server
    const created = await kis.api.POST('/admin/api-key', { body: { name: 'contract' } });
    const key = created.data?.api_key;
    if (typeof key !== 'string') throw new Error('no key');
    const newcomer = createKisClient({ baseUrl: inject('proxyUrl'), apiKey: key, maxRetries: 0 });
    const refused = await newcomer.api.GET('/manage/admin/connector/status');
    expect(refused.response.status).toBe(403);
    expect((await newcomer.api.GET('/me')).response.status).toBe(200);
  });
});

describe('search, document sets and user groups, through the validating proxy', () => {
  // Expected values from compat-trust.md (§1 search, §2 access, §3 sets, §4 groups): the same on
  // both profiles, the emulator's default edition being the enterprise one.
  const ids = (docs: SearchDoc[]) => docs.map((d) => d.document_id).sort();
  let pairId: number;
  let userId: string;

  /** Polls until the key sees the document's size (it is indexed and visible). */
  async function visible(client: typeof kis, id: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await client.documents.sizeInfo(id);
        return;
      } catch (error) {
        if (!NotFoundError.isInstance(error) || Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    ({ pairId } = await webPair(`Trust ${profile}`, 'Trust'));
    const texts = {
      'trust-alpha': 'alpha quarterly revenue',
      'trust-beta': 'beta roadmap',
      'trust-gamma': 'gamma revenue forecast',
    };
    for (const [id, text] of Object.entries(texts)) {
      await kis.ingestion.ingest({
        document: {
          id,
          semantic_identifier: id,
          sections: [{ text }],
          source: 'web',
          metadata: {},
        },
        cc_pair_id: pairId,
      });
    }
    for (const id of Object.keys(texts)) await visible(kis, id);
    const me = await user.identity.me();
    userId = me.id;
  });

  it('admin search finds documents by keyword, one entry each, filtered by source', async () => {
    expect(ids(await kis.search.admin('revenue'))).toEqual(['trust-alpha', 'trust-gamma']);
    const web = await kis.search.admin('revenue', { filters: { source_type: ['web'] } });
    expect(ids(web)).toEqual(['trust-alpha', 'trust-gamma']);
    expect(await kis.search.admin('revenue', { filters: { source_type: ['jira'] } })).toEqual([]);
  });

  it('a hidden document is found by a query, not by the empty query; boosts are listed', async () => {
    await kis.documents.setHidden('trust-beta', true);
    expect(ids(await kis.search.admin('roadmap'))).toEqual(['trust-beta']);
    const sample = await kis.search.admin('');
    expect(sample.length).toBeLessThanOrEqual(10);
    expect(ids(sample)).not.toContain('trust-beta');
    await kis.documents.setHidden('trust-beta', false);
    await kis.documents.setBoost('trust-alpha', 3);
    const boosted = await kis.documents.boosted();
    expect(boosted.find((d) => d.document_id === 'trust-alpha')?.boost).toBe(3);
  });

  it('a key without admin rights may not search as an admin', async () => {
    const error = await rejection(user.search.admin('revenue'));
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
  });

  it('search settings: the current index, no switch in progress', async () => {
    expect(await kis.searchSettings.secondary()).toBeNull();
    const all = await kis.searchSettings.all();
    expect(typeof all.current_settings.model_name).toBe('string');
    expect(all.secondary_settings).toBeNull();
    expect(await kis.searchSettings.reindexProgress()).toEqual({
      total: 0,
      waiting: 0,
      in_progress: 0,
      completed: 0,
      failed: 0,
      paused: 0,
    });
    expect(await kis.searchSettings.reindexErrors()).toEqual([]);
  });

  it('a document set syncs, narrows a search by name, is updated, then deleted', async () => {
    const name = `Trust set ${profile}`;
    const id = await kis.documentSets.create({
      name,
      description: 'trust',
      cc_pair_ids: [pairId],
      is_public: true,
    });
    expect((await kis.documentSets.waitUntilSynced(id)).cc_pair_summaries).toHaveLength(1);
    const inSet = await kis.search.admin('revenue', { filters: { document_set: [name] } });
    expect(ids(inSet)).toEqual(['trust-alpha', 'trust-gamma']);
    const other = await kis.search.admin('revenue', { filters: { document_set: ['no such set'] } });
    expect(other).toEqual([]);
    await kis.documentSets.update({
      id,
      name,
      description: 'trust, changed',
      cc_pair_ids: [pairId],
      is_public: true,
      users: [],
      groups: [],
    });
    expect((await kis.documentSets.waitUntilSynced(id)).description).toBe('trust, changed');
    await kis.documentSets.delete(id);
    await kis.documentSets.waitUntilGone(id);
  });

  it('a user group gives its members the documents of its private pairs', async () => {
    // the admin key is a member: nothing bypasses access, it sees the pair's documents as one
    const adminId = (await kis.identity.me()).id;
    const group = await kis.userGroups.create({
      name: `Trust group ${profile}`,
      user_ids: [adminId],
      cc_pair_ids: [],
    });
    await kis.userGroups.waitUntilSynced(group.id);
    const connector = await kis.connectors.create({
      name: `Private ${profile}`,
      source: 'web',
      input_type: 'load_state',
      access_type: 'private',
      connector_specific_config: {
        base_url: 'https://docs.example.com',
        web_connector_type: 'recursive',
      },
    });
    const pair = await kis.connectors.associateCredential(connector.id, 0, {
      name: 'Private',
      access_type: 'private',
      groups: [group.id],
    });
    if (typeof pair.data !== 'number') throw new Error('no pair id');
    await kis.ingestion.ingest({
      document: {
        id: 'trust-private',
        semantic_identifier: 'Private',
        sections: [{ text: 'confidential plan' }],
        source: 'web',
        metadata: {},
      },
      cc_pair_id: pair.data,
    });
    await visible(kis, 'trust-private');
    expect(
      NotFoundError.isInstance(await rejection(user.documents.sizeInfo('trust-private'))),
    ).toBe(true);
    const member = await kis.userGroups.addUsers(group.id, [userId]);
    expect(member.users.map((u) => u.id)).toContain(userId);
    await visible(user, 'trust-private');
    await kis.userGroups.waitUntilSynced(group.id);
    const renamed = await kis.userGroups.rename(group.id, `Trust group ${profile} (renamed)`);
    expect(renamed.name).toBe(`Trust group ${profile} (renamed)`);
  });
});

describe('the validating proxy', () => {
  // Last in this file (tests in a file run in order): by now every call above went through it.
  it('reported no request or response violation for the calls the client made', async () => {
    // Prism writes its log after answering; a last, recognisable call marks the point up to
    // which the log is complete (Prism logs requests in order). Polled, with a deadline.
    const marker = 'svc-api/connector-docs/424242';
    const unknownPair = await rejection(kis.ingestion.listConnectorDocuments(424242));
    expect((unknownPair as APIError).status).toBe(expected.unknownPairDocsStatus);
    const deadline = Date.now() + 10_000;
    let log = readFileSync(inject('proxyLogPath'), 'utf8');
    while (!log.includes(`${marker} has returned`) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      log = readFileSync(inject('proxyLogPath'), 'utf8');
    }
    expect(log).toContain(`${marker} has returned ${expected.unknownPairDocsStatus}`);
    expect(log).toContain('Forwarding');
    // Every problem Prism found is logged with ✖. The readiness probe (GET /, not in the spec) and
    // the one request that is invalid on purpose (the 422 test, refused by Prism before it reaches
    // the emulator) are expected; anything else is a violation by the client or the emulator.
    const problems = log
      .split('\n')
      .filter((line) => line.includes('✖'))
      .filter((line) => !/\] get \/ ✖/.test(line));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/post \/svc-api\/ingestion .*UNPROCESSABLE_ENTITY/);
    expect(log).not.toContain('VIOLATIONS');
  });
});
