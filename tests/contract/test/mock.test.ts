// The client against a Prism mock of the bundled spec: every operation is called through the
// typed client and its typed result checked; invalid requests come back as 422 and surface as the
// typed validation error naming the field; a call without the bearer header is rejected. The
// connector-setup example app runs against the mock too (its examples hold a jira credential).
import { createKisClient, type IngestionRequest, UnprocessableEntityError } from '@kis/client';
import { beforeAll, describe, expect, expectTypeOf, inject, it } from 'vitest';
import { runApp } from '../src/apps.js';

const API_KEY = 'contract-test-key-0123456789';
let kis: ReturnType<typeof createKisClient>;

beforeAll(() => {
  kis = createKisClient({ baseUrl: inject('mockUrl'), apiKey: API_KEY, maxRetries: 0 });
});

const jiraConnector = {
  name: 'JiraConnector',
  source: 'jira',
  input_type: 'poll',
  access_type: 'PUBLIC',
  connector_specific_config: {
    jira_base_url: 'https://example.atlassian.net',
    project_key: 'KIS',
    comment_email_blacklist: [] as string[],
  },
  refresh_freq: 3600,
  prune_freq: 86400,
} as const;

const minimal: IngestionRequest = {
  document: {
    id: 'kis-doc-001',
    semantic_identifier: 'KIS onboarding guide',
    sections: [{ text: 'Welcome', link: 'https://docs.example.com/kis/onboarding' }],
    source: 'web',
    metadata: { team: 'platform', tags: ['onboarding', 'guide'] },
  },
  cc_pair_id: 2,
};

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('every operation through the typed client (Prism mock)', () => {
  it('createConnector returns the connector id', async () => {
    const created = await kis.connectors.create(jiraConnector);
    expectTypeOf(created.id).toEqualTypeOf<number>();
    expect(Number.isInteger(created.id)).toBe(true);
  });

  it('listCredentials returns records with id and source', async () => {
    const credentials = await kis.credentials.list();
    expect(credentials.length).toBeGreaterThan(0);
    for (const c of credentials) {
      expect(Number.isInteger(c.id)).toBe(true);
      expect(typeof c.source).toBe('string');
    }
  });

  it('associateCredentialWithConnector works with the deployed body and with none', async () => {
    const withBody = await kis.connectors.associateCredential(7, 3, {
      name: 'Jira KIS',
      access_type: 'public',
    });
    expect(typeof withBody.success).toBe('boolean');
    const raw = await kis.api.PUT(
      '/manage/admin/connector/{connector_id}/credential/{credential_id}',
      { params: { path: { connector_id: 7, credential_id: 3 } } },
    );
    expect(raw.response.status).toBe(200);
    expect(raw.data?.success).toBeTypeOf('boolean');
  });

  it('updateCredentialPrivateKey sends a real multipart request and returns a CredentialBase', async () => {
    const updated = await kis.credentials.updatePrivateKey(4, {
      name: 'SharePoint app',
      credentialJson: { sp_client_id: 'client', sp_directory_id: 'tenant' },
      file: { data: new Uint8Array([0x30, 0x82, 0x01, 0x00]), fileName: 'app.pfx' },
      fieldKey: 'sp_private_key',
      typeDefinitionKey: 'sharepoint_pfx_file',
    });
    expect(typeof updated.admin_public).toBe('boolean');
    expect(typeof updated.source).toBe('string');
    expect(typeof updated.credential_json).toBe('object');
  });

  it('uploadUserFiles returns the file_id an image section takes', async () => {
    const uploaded = await kis.files.upload({
      data: PNG,
      fileName: 'pixel.png',
      contentType: 'image/png',
    });
    const fileId = uploaded.user_files[0]?.file_id;
    expect(typeof fileId).toBe('string');
  });

  it('ingestDocument answers already_existed (and document_id)', async () => {
    const result = await kis.ingestion.ingest(minimal);
    expectTypeOf(result.already_existed).toEqualTypeOf<boolean>();
    expect(typeof result.already_existed).toBe('boolean');
    const viaWorkflow = await kis.ingestDocument(minimal.document, { ccPairId: 2 });
    expect(typeof viaWorkflow.alreadyExisted).toBe('boolean');
  });

  it('the deployed-server extensions: list, delete, pair documents, create credential', async () => {
    const listed = await kis.ingestion.list();
    expect(listed.every((d) => typeof d.document_id === 'string')).toBe(true);
    const pairDocs = await kis.ingestion.listConnectorDocuments(2);
    expect(pairDocs.every((d) => typeof d.semantic_id === 'string')).toBe(true);
    await kis.ingestion.delete('kis-doc-001');
    const created = await kis.credentials.create({
      source: 'jira',
      admin_public: true,
      credential_json: { jira_api_token: 'token' },
    });
    expect(Number.isInteger(created.id)).toBe(true);
  });
});

describe('search, document sets and user groups through the typed client (Prism mock)', () => {
  it('admin search answers SearchDoc entries', async () => {
    const docs = await kis.search.admin('revenue', {
      filters: { source_type: ['web'], document_set: ['Handbook'], tags: [] },
    });
    for (const d of docs) expect(typeof d.document_id).toBe('string');
  });

  it('search settings: current and secondary, reindex progress and errors', async () => {
    const all = await kis.searchSettings.all();
    expect(typeof all.current_settings.model_name).toBe('string');
    expect(Number.isInteger((await kis.searchSettings.reindexProgress()).total)).toBe(true);
    expect(Array.isArray(await kis.searchSettings.reindexErrors())).toBe(true);
  });

  it('hiding and boosting a document, and the boosted listing', async () => {
    expect((await kis.documents.setHidden('kis-doc-001', true)).success).toBeTypeOf('boolean');
    expect((await kis.documents.setBoost('kis-doc-001', 2)).success).toBeTypeOf('boolean');
    const boosted = await kis.documents.boosted({ limit: 5 });
    for (const d of boosted) expect(typeof d.boost).toBe('number');
  });

  it('document sets: list and create', async () => {
    const sets = await kis.documentSets.list({ editable: true });
    for (const set of sets) expect(Number.isInteger(set.id)).toBe(true);
    const id = await kis.documentSets.create({
      name: 'Handbook',
      description: 'The handbook',
      cc_pair_ids: [2],
      is_public: true,
    });
    expect(Number.isInteger(id)).toBe(true);
  });

  it('user groups: list and create', async () => {
    const groups = await kis.userGroups.list();
    for (const group of groups) expect(typeof group.name).toBe('string');
    const made = await kis.userGroups.create({ name: 'Support', user_ids: [], cc_pair_ids: [2] });
    expect(Number.isInteger(made.id)).toBe(true);
  });
});

describe('invalid requests come back as typed 422 errors naming the field', () => {
  it('a document without semantic_identifier', async () => {
    const { semantic_identifier: _, ...document } = minimal.document;
    const error = await rejection(
      kis.ingestion.ingest({ ...minimal, document } as unknown as IngestionRequest),
    );
    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    const detail = (error as UnprocessableEntityError).detail;
    expect(detail.some((d) => d.loc.join('.').includes('semantic_identifier'))).toBe(true);
  });

  it('an unknown source on connector creation', async () => {
    const error = await rejection(
      kis.connectors.create({ ...jiraConnector, source: 'jirra' } as never),
    );
    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    const detail = (error as UnprocessableEntityError).detail;
    expect(detail.some((d) => d.loc.join('.').includes('source'))).toBe(true);
  });

  it('a number as a metadata value', async () => {
    const request = {
      ...minimal,
      document: { ...minimal.document, metadata: { count: 3 } },
    } as unknown as IngestionRequest;
    const error = await rejection(kis.ingestion.ingest(request));
    expect(UnprocessableEntityError.isInstance(error)).toBe(true);
    const detail = (error as UnprocessableEntityError).detail;
    expect(detail.some((d) => d.loc.join('.').includes('metadata'))).toBe(true);
  });

  it('a multipart request missing a part', async () => {
    const form = new FormData();
    form.set('name', 'SharePoint app');
    form.set('credential_json', '{}');
    form.set('uploaded_file', new Blob([new Uint8Array([1, 2, 3])]), 'app.pfx');
    form.set('type_definition_key', 'sharepoint_pfx_file');
    const { error, response } = await kis.api.PUT(
      '/manage/admin/credential/private-key/{credential_id}',
      {
        params: { path: { credential_id: 4 } },
        // field_key is missing on purpose
        body: form as never,
        bodySerializer: (body) => body as unknown as FormData,
      },
    );
    expect(response.status).toBe(422);
    expect(error).toBeDefined();
    expect(response.headers.get('sl-violations') ?? '').toContain('field_key');
  });
});

describe('authentication', () => {
  it('a call without the bearer header is rejected with 401', async () => {
    const response = await fetch(`${inject('mockUrl')}/manage/admin/credential`);
    expect(response.status).toBe(401);
  });

  it('the client sends the bearer header on every call', async () => {
    const seen: string[] = [];
    const spy = createKisClient({
      baseUrl: inject('mockUrl'),
      apiKey: API_KEY,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        seen.push(request.headers.get('authorization') ?? '');
        return fetch(request);
      },
    });
    await spy.credentials.list();
    await spy.ingestion.ingest(minimal);
    expect(seen).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);
  });
});

describe('apps/connector-setup (Prism mock)', () => {
  it('creates a connector per project key and associates the matching credential', async () => {
    const result = await runApp('connector-setup', {
      KIS_BASE_URL: inject('mockUrl'),
      KIS_API_KEY: API_KEY,
      KIS_PROJECT_KEYS: 'KIS,OPS',
      KIS_OUTPUT: 'json',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.project_key)).toEqual(['KIS', 'OPS']);
    for (const line of lines) {
      expect(Number.isInteger(line.connector_id)).toBe(true);
      expect(line.credential_id).toBe(3); // the mock's jira credential
    }
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
  });
});
