// Ingestion, listing and deletion in each profile. Expected statuses and bodies are fixed values
// taken from compat-notes.md ("Where deployed servers differ from the seed").
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { doc, filePart, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];

let emulator: Emulator;
let call: Call;

async function use(profile: Profile): Promise<void> {
  ({ emulator, call } = await start({ profile, indexing: { paused: true } }));
}
afterEach(async () => {
  await emulator.close();
});

function ingest(document: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return call('POST', '/svc-api/ingestion', { json: { document, ...extra } });
}

const INTERNAL_ERROR = { error_code: 'INTERNAL_ERROR', detail: 'Unexpected error' };

describe('cc_pair_id', () => {
  it.each([
    [
      'deployed',
      {
        error_code: 'CONNECTOR_NOT_FOUND',
        detail: 'Connector-credential pair with id 42 not found (cc_pair_id)',
      },
    ],
    ['seed', { detail: 'Connector-credential pair with id 42 not found (cc_pair_id)' }],
  ] as const)('%s: an unknown pair is 404', async (profile, body) => {
    await use(profile);
    const r = await ingest(doc(), { cc_pair_id: 42 });
    expect(r.status).toBe(404);
    expect(r.body).toEqual(body);
  });

  it.each(['seed', 'deployed'] as const)('%s: missing, null or 0 means pair 1', async (profile) => {
    await use(profile);
    await ingest(doc({ id: 'a' }));
    await ingest(doc({ id: 'b' }), { cc_pair_id: null });
    await ingest(doc({ id: 'c' }), { cc_pair_id: 0 });
    expect(emulator.state.documents().map((d) => d.cc_pair_ids)).toEqual([[1], [1], [1]]);
  });
});

describe('the answer', () => {
  it.each(['seed', 'deployed'] as const)(
    '%s: document_id and already_existed always; true again for unchanged content',
    async (profile) => {
      await use(profile);
      expect((await ingest(doc({ id: 'same' }))).body).toEqual({
        document_id: 'same',
        already_existed: false,
      });
      expect((await ingest(doc({ id: 'same' }))).body).toEqual({
        document_id: 'same',
        already_existed: true,
      });
    },
  );

  it('deployed: a document with no title and no text is skipped, answered as existing', async () => {
    await use('deployed');
    const r = await ingest(doc({ id: 'empty', semantic_identifier: ' ', sections: [] }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ document_id: 'empty', already_existed: true });
    expect(emulator.state.document('empty')).toBeUndefined();
  });

  it.each(['seed', 'deployed'] as const)(
    '%s: a document id with a lone surrogate is 400 {"message"}',
    async (profile) => {
      await use(profile);
      const r = await call<{ message: string }>('POST', '/svc-api/ingestion', {
        raw: '{"document": {"id": "a\\udc00", "semantic_identifier": "s", "sections": [], "metadata": {}}}',
        contentType: 'application/json',
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ message: expect.stringContaining('lone UTF-16 surrogate') });
    },
  );
});

describe('sections', () => {
  it.each([
    // [profile, sections, status]
    ['deployed', [{ text: 'caption', image_file_id: 'never-uploaded' }], 200],
    ['deployed', [{ image_file_id: 'never-uploaded' }], 200],
    ['seed', [{ text: 'caption', image_file_id: 'never-uploaded' }], 422],
    ['seed', [{ image_file_id: 'never-uploaded' }], 422],
    ['deployed', [{ type: 'tabular', csv_file_id: 'csv-1', link: 'https://x/t.csv' }], 200],
    ['deployed', [{ csv_file_id: 'csv-1' }], 422],
    ['seed', [{ csv_file_id: 'csv-1' }], 422],
    ['deployed', [{ type: 'text', text: 't', heading: 'H' }], 200],
    ['deployed', [{ type: 'image', text: 't' }], 422],
    ['deployed', [{}], 422],
    ['deployed', [{ text: null, image_file_id: 'x' }], 200],
  ] as const)('%s: %j is %i', async (profile, sections, status) => {
    await use(profile);
    const r = await ingest(doc({ sections }));
    expect(r.status).toBe(status);
  });
});

describe('document fields', () => {
  const extras = {
    doc_created_at: '2024-01-01T00:00:00Z',
    file_id: 'file-1',
    parent_hierarchy_raw_node_id: 'space-1',
    parent_hierarchy_node_id: 7,
    chunk_count: 3,
    additional_info: { any: 'thing' },
    doc_metadata: { k: 1 },
    external_access: {
      external_user_emails: ['a@example.com'],
      external_user_group_ids: ['g1'],
      is_public: false,
    },
  };

  it('deployed: extra fields are accepted; chunk_count, additional_info, doc_metadata, external_access and the hierarchy ids are dropped', async () => {
    await use('deployed');
    const r = await ingest(doc({ id: 'extras', ...extras }));
    expect(r.status).toBe(200);
    const stored = emulator.state.document('extras');
    expect(stored?.chunk_count).toBeNull();
    expect(stored?.extra).toEqual({ doc_created_at: '2024-01-01T00:00:00Z', file_id: 'file-1' });
  });

  it.each(['seed', 'deployed'] as const)(
    '%s: external_access needs all three of its fields',
    async (profile) => {
      await use(profile);
      const r = await ingest(
        doc({ external_access: { external_user_emails: [], external_user_group_ids: [] } }),
      );
      expect(r.status).toBe(422);
    },
  );

  it.each([
    ['deployed', ''],
    ['seed', null],
  ] as const)('%s: a document without a link is listed with link %j', async (profile, link) => {
    await use(profile);
    await ingest(doc({ id: 'no-link', sections: [{ text: 'x' }] }));
    const listed = await call<{ link: unknown }[]>('GET', '/svc-api/ingestion');
    expect(listed.body[0]?.link).toBe(link);
    const byPair = await call<{ link: unknown }[]>('GET', '/svc-api/connector-docs/1');
    expect(byPair.body[0]?.link).toBe(link);
  });
});

describe('metadata', () => {
  it.each([
    ['deployed', null, 500, INTERNAL_ERROR],
    ['deployed', ['a'], 500, INTERNAL_ERROR],
    ['deployed', 'text', 500, INTERNAL_ERROR],
  ] as const)('%s: metadata %j is %i', async (profile, metadata, status, body) => {
    await use(profile);
    const r = await ingest(doc({ metadata }));
    expect(r.status).toBe(status);
    expect(r.body).toEqual(body);
  });

  it('deployed: a metadata that is not an object fails even when other fields are invalid too', async () => {
    await use('deployed');
    const r = await ingest(doc({ metadata: null, semantic_identifier: 5 }));
    expect(r.status).toBe(500);
  });

  it('seed: metadata null is 422', async () => {
    await use('seed');
    expect((await ingest(doc({ metadata: null }))).status).toBe(422);
  });

  it('deployed: every metadata value becomes a string (Python str())', async () => {
    await use('deployed');
    const r = await ingest(
      doc({
        id: 'meta',
        metadata: {
          n: 1,
          f: 2.5,
          b: true,
          z: null,
          s: 'kept',
          l: [1, 'a', false, null],
          o: { k: 'v' },
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(emulator.state.document('meta')?.metadata).toEqual({
      n: '1',
      f: '2.5',
      b: 'True',
      z: 'None',
      s: 'kept',
      l: ['1', 'a', 'False', 'None'],
      o: "{'k': 'v'}",
    });
  });
});

describe('deleteIngestedDocument', () => {
  it.each(['seed', 'deployed'] as const)('%s: 200 with body null, then 404', async (profile) => {
    await use(profile);
    await ingest(doc({ id: 'gone' }));
    const r = await call('DELETE', '/svc-api/ingestion/gone');
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect(r.text).toBe('null');
    expect((await call('DELETE', '/svc-api/ingestion/gone')).status).toBe(404);
  });

  it('deployed: the path is decoded once, with no second try with the raw id', async () => {
    await use('deployed');
    const stored = (await ingest(doc({ id: 'a b%c' }))).body as { document_id: string };
    expect(stored.document_id).toBe('a_b%25c');
    // the stored id as-is in the path decodes to `a_b%c`: unknown
    const asIs = await call('DELETE', '/svc-api/ingestion/a_b%25c');
    expect(asIs.status).toBe(404);
    expect(asIs.body).toEqual({ detail: 'Document not found' });
    const encoded = await call('DELETE', `/svc-api/ingestion/${encodeURIComponent('a_b%25c')}`);
    expect(encoded.status).toBe(200);
  });

  it('deployed: an id with an encoded slash is a path with one more segment: no such route', async () => {
    await use('deployed');
    await ingest(doc({ id: 'x/y' }));
    const r = await fetch(`${emulator.baseUrl}/svc-api/ingestion/x%2Fy`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${emulator.adminKey}` },
    });
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ detail: 'Not Found' });
  });

  it('seed: the stored id given as-is is found too', async () => {
    await use('seed');
    await ingest(doc({ id: 'x/y' }));
    expect((await call('DELETE', '/svc-api/ingestion/x%2Fy')).status).toBe(200);
  });

  it.each([
    ['deployed', { detail: 'Document was not created via the ingestion API' }],
    [
      'seed',
      {
        detail:
          "Document 'connector-doc' was not created through the ingestion API and cannot be deleted with this call",
      },
    ],
  ] as const)('%s: a document not created by ingestion is 400', async (profile, body) => {
    await use(profile);
    await fetch(`${emulator.url}/_emulator/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: doc({ id: 'connector-doc' }) }),
    });
    const r = await call('DELETE', '/svc-api/ingestion/connector-doc');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(body);
  });
});

describe('listConnectorDocuments of an unknown pair', () => {
  it.each([
    [
      'deployed',
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: "Connection not found for current user's permissions",
      },
    ],
    ['seed', 404, { detail: 'Connector-credential pair with id 77 not found (cc_pair_id)' }],
  ] as const)('%s: %i', async (profile, status, body) => {
    await use(profile);
    const r = await call('GET', '/svc-api/connector-docs/77');
    expect(r.status).toBe(status);
    expect(r.body).toEqual(body);
  });
});

describe('uploadProjectFiles', () => {
  it.each([
    ['project_id', 'abc', 422],
    ['project_id', ' 7 ', 200],
    ['temp_id_map', '{not json', 200],
    ['incognito_session_id', 'not-a-uuid', 422],
    ['incognito_session_id', '5b3c2a9e-4b1d-4c8e-9a51-2f6d8e0b1c34', 200],
  ] as const)('deployed: %s %j is %i', async (field, value, status) => {
    await use('deployed');
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([1, 2]), 'a.png'));
    form.append(field, value);
    const r = await call('POST', '/user/projects/file/upload', { form });
    expect(r.status).toBe(status);
  });

  it('deployed: files start PROCESSING with uuid ids; the file_id is usable as image_file_id', async () => {
    await use('deployed');
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([1, 2]), 'diagram.png'));
    form.append('temp_id_map', JSON.stringify({ '2|diagram.png': 'temp-9' }));
    const r = await call<{
      user_files: { id: string; file_id: string; status: string; temp_id: string }[];
      rejected_files: unknown[];
    }>('POST', '/user/projects/file/upload', { form });
    expect(r.body.rejected_files).toEqual([]);
    const [file] = r.body.user_files;
    expect(file).toMatchObject({ status: 'PROCESSING', temp_id: 'temp-9', name: 'diagram.png' });
    expect(file?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(emulator.state.files()[0]?.file_id).toBe(file?.file_id);
  });
});
