import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { connectorBody, doc, filePart, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];
type Issues = { detail: { loc: (string | number)[]; msg: string; type: string }[] };
type Ingested = { document_id: string; already_existed: boolean };

let emulator: Emulator;
let call: Call;

beforeEach(async () => {
  // Paused indexer: tests observe `queued` and move documents on explicitly.
  ({ emulator, call } = await start({ indexing: { paused: true } }));
});
afterEach(async () => {
  await emulator.close();
});

async function ingest(document: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return call<Ingested>('POST', '/svc-api/ingestion', { json: { document, ...extra } });
}

async function createPair(source = 'web'): Promise<number> {
  const c = await call<{ id: number }>('POST', '/manage/admin/connector', {
    json: connectorBody({ source, connector_specific_config: {} }),
  });
  const p = await call<{ data: number }>(
    'PUT',
    `/manage/admin/connector/${c.body.id}/credential/0`,
  );
  return p.body.data;
}

describe('ingestDocument', () => {
  it('creates then updates (upsert) and answers { document_id, already_existed }', async () => {
    const first = await ingest(doc({ id: 'doc-1' }));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ document_id: 'doc-1', already_existed: false });
    const second = await ingest(doc({ id: 'doc-1', semantic_identifier: 'Renamed' }));
    expect(second.body).toEqual({ document_id: 'doc-1', already_existed: true });
    expect(emulator.state.document('doc-1')?.semantic_identifier).toBe('Renamed');
    expect(emulator.state.indexing().total).toBe(1);
  });

  it('derives the id from the semantic identifier exactly like Python quote(safe="")', async () => {
    const r = await ingest(doc({ semantic_identifier: "Q4 report (2024)! it's *new*.pdf" }));
    expect(r.body.document_id).toBe('ingestion_api_Q4_report_%282024%29%21_it%27s_%2Anew%2A.pdf');
    expect(r.body.already_existed).toBe(false);
    const again = await ingest(doc({ semantic_identifier: "Q4 report (2024)! it's *new*.pdf" }));
    expect(again.body.already_existed).toBe(true);
  });

  it('stores a given id with spaces to _ and percent-encoded', async () => {
    const r = await ingest(doc({ id: 'my doc/part 1' }));
    expect(r.body.document_id).toBe('my_doc%2Fpart_1');
    expect(emulator.state.document('my_doc%2Fpart_1')).toBeDefined();
  });

  it('uses the default pair 1 when cc_pair_id is missing, null or 0', async () => {
    await ingest(doc({ id: 'a' }));
    await ingest(doc({ id: 'b' }), { cc_pair_id: null });
    await ingest(doc({ id: 'c' }), { cc_pair_id: 0 });
    const docs = await call<{ document_id: string }[]>('GET', '/svc-api/connector-docs/1');
    expect(docs.body.map((d) => d.document_id)).toEqual(['a', 'b', 'c']);
  });

  it('attaches the document to the given pair', async () => {
    const pair = await createPair();
    await ingest(doc({ id: 'p1' }), { cc_pair_id: pair });
    const docs = await call<{ document_id: string }[]>('GET', `/svc-api/connector-docs/${pair}`);
    expect(docs.body).toEqual([
      {
        document_id: 'p1',
        semantic_id: 'A document',
        link: 'https://example.com/a',
        index_state: 'queued',
      },
    ]);
    const defaults = await call<unknown[]>('GET', '/svc-api/connector-docs/1');
    expect(defaults.body).toEqual([]);
  });

  it('answers 404 for an unknown cc_pair_id', async () => {
    const r = await call<{ detail: string }>('POST', '/svc-api/ingestion', {
      json: { document: doc(), cc_pair_id: 42 },
    });
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatch(/pair with id 42 not found/);
    expect(emulator.state.indexing().total).toBe(0);
  });

  it('fills source, from_ingestion_api and doc_updated_at', async () => {
    const before = Date.now();
    const document = doc({ id: 'defaults', from_ingestion_api: false });
    delete document.source;
    await ingest(document);
    const stored = emulator.state.document('defaults');
    expect(stored?.source).toBe('ingestion_api');
    expect(stored?.from_ingestion_api).toBe(true);
    const updatedAt = Date.parse(stored?.doc_updated_at ?? '');
    expect(updatedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(updatedAt).toBeLessThanOrEqual(Date.now() + 1000);

    await ingest(doc({ id: 'given', source: null, doc_updated_at: '2024-01-31T12:00:00Z' }));
    expect(emulator.state.document('given')).toMatchObject({
      source: 'ingestion_api',
      doc_updated_at: '2024-01-31T12:00:00Z',
    });
  });

  it('reads a doc_updated_at without an offset as UTC, as deployed servers do', async () => {
    for (const [id, given, stored] of [
      ['naive', '2026-11-22T17:25:02.123456', '2026-11-22T17:25:02.123456Z'],
      ['date-only', '2026-11-22', '2026-11-22T00:00:00Z'],
      ['space', '2026-11-22 17:25', '2026-11-22T17:25:00Z'],
      ['offset', '2026-11-22T17:25:02+0130', '2026-11-22T17:25:02+01:30'],
    ] as const) {
      const r = await ingest(doc({ id, doc_updated_at: given }));
      expect(r.status, given).toBe(200);
      expect(emulator.state.document(id)?.doc_updated_at).toBe(stored);
    }
  });

  it('derives the id when document.id is null (deployed servers accept null)', async () => {
    const r = await ingest(doc({ id: null, semantic_identifier: 'Null id' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ document_id: 'ingestion_api_Null_id', already_existed: false });
  });

  it('stores sections, metadata, owners and extra deployed fields', async () => {
    const owner = {
      display_name: 'Ada Lovelace',
      first_name: 'Ada',
      middle_initial: null,
      last_name: 'Lovelace',
      email: 'ada@example.com',
    };
    await ingest(
      doc({
        id: 'full',
        title: 'Full doc',
        sections: [{ text: 'one' }, { text: 'two', link: 'https://example.com/2' }],
        metadata: { tag: 'v', tags: ['a', 'b'] },
        chunk_count: 3,
        primary_owners: [owner],
        secondary_owners: [],
        additional_info: { any: ['json'] },
        doc_metadata: null,
      }),
    );
    expect(emulator.state.document('full')).toMatchObject({
      title: 'Full doc',
      link: 'https://example.com/2',
      sections: [{ text: 'one' }, { text: 'two', link: 'https://example.com/2' }],
      metadata: { tag: 'v', tags: ['a', 'b'] },
      chunk_count: 3,
      primary_owners: [owner],
      secondary_owners: [],
      extra: { additional_info: { any: ['json'] }, doc_metadata: null },
    });
  });

  it('rejects an image section whose image_file_id was never uploaded (422 with loc)', async () => {
    const r = await call<Issues>('POST', '/svc-api/ingestion', {
      json: { document: doc({ sections: [{ text: 'ok' }, { image_file_id: 'nope' }] }) },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toHaveLength(1);
    expect(r.body.detail[0]).toMatchObject({
      loc: ['body', 'document', 'sections', 1, 'image_file_id'],
      type: 'value_error',
    });
    expect(r.body.detail[0]?.msg).toMatch(/upload/);
    expect(emulator.state.indexing().total).toBe(0);
  });

  it('accepts an image section whose file was uploaded first', async () => {
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([137, 80, 78, 71]), 'diagram.png'));
    const up = await call<{ user_files: { file_id: string }[] }>('POST', '/user/file/upload', {
      form,
    });
    const fileId = up.body.user_files[0]!.file_id;
    const r = await ingest(
      doc({ id: 'img', sections: [{ image_file_id: fileId, text: 'caption' }] }),
    );
    expect(r.status).toBe(200);
    expect(emulator.state.document('img')?.sections).toEqual([
      { image_file_id: fileId, text: 'caption' },
    ]);
  });

  it('indexes asynchronously: queued, then indexed; a changed re-post is queued again', async () => {
    const at = '2026-01-15T10:00:00Z';
    await ingest(doc({ id: 'async', doc_updated_at: at }));
    expect(emulator.state.document('async')?.index_state).toBe('queued');
    emulator.indexer.resume();
    await emulator.indexer.idle();
    const indexed = emulator.state.document('async');
    expect(indexed?.index_state).toBe('indexed');
    expect(indexed?.indexed_at).not.toBeNull();

    emulator.indexer.pause();
    // the same content at the same time: skipped by the hash gate
    await ingest(doc({ id: 'async', doc_updated_at: at }));
    expect(emulator.state.document('async')?.index_state).toBe('indexed');
    await ingest(doc({ id: 'async', doc_updated_at: at, sections: [{ text: 'changed' }] }));
    expect(emulator.state.document('async')?.index_state).toBe('queued');
    expect(emulator.indexer.drain()).toBe(1);
    expect(emulator.state.document('async')?.index_state).toBe('indexed');
  });

  it('shows the indexing state in the state view', async () => {
    await ingest(doc({ id: 's1' }));
    const state = await (await fetch(`${emulator.url}/_emulator/state`)).json();
    expect(state.indexing).toEqual({ queued: 1, indexed: 0, total: 1 });
    expect(state.documents[0]).toMatchObject({ id: 's1', index_state: 'queued', cc_pair_ids: [1] });
    emulator.indexer.drain();
    const after = await (await fetch(`${emulator.url}/_emulator/state?full=1`)).json();
    expect(after.indexing).toEqual({ queued: 0, indexed: 1, total: 1 });
    expect(after.documents[0]).toMatchObject({ index_state: 'indexed', metadata: {} });
  });
});

describe('listIngestedDocuments and deleteIngestedDocument', () => {
  it('lists ingested documents as { document_id, semantic_id, link } plus their index_state', async () => {
    await ingest(doc({ id: 'l1', semantic_identifier: 'First' }));
    emulator.indexer.drain();
    await ingest(doc({ id: 'l2', semantic_identifier: 'Second', sections: [{ text: 'x' }] }));
    const r = await call('GET', '/svc-api/ingestion');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        document_id: 'l1',
        semantic_id: 'First',
        link: 'https://example.com/a',
        index_state: 'indexed',
      },
      { document_id: 'l2', semantic_id: 'Second', link: null, index_state: 'queued' },
    ]);
  });

  it('deletes an ingested document (by its stored id, encoded once more in the path)', async () => {
    const r = await ingest(doc({ semantic_identifier: 'Q4 report (2024).pdf' }));
    const id = r.body.document_id;
    expect(id).toBe('ingestion_api_Q4_report_%282024%29.pdf');
    const del = await call('DELETE', `/svc-api/ingestion/${encodeURIComponent(id)}`);
    expect(del.status).toBe(200);
    expect(del.body).toBeNull();
    expect(emulator.state.document(id)).toBeUndefined();
    expect((await call<unknown[]>('GET', '/svc-api/ingestion')).body).toEqual([]);
  });

  it('also finds a stored id given as-is (not encoded again)', async () => {
    const r = await ingest(doc({ id: 'a/b' }));
    expect(r.body.document_id).toBe('a%2Fb');
    const del = await call('DELETE', '/svc-api/ingestion/a%2Fb');
    expect(del.status).toBe(200);
    expect(emulator.state.indexing().total).toBe(0);
  });

  it('answers 404 for an unknown document', async () => {
    const r = await call<{ detail: string }>('DELETE', '/svc-api/ingestion/missing-doc');
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatch(/missing-doc/);
  });

  it('answers 400 for a document not created through the ingestion API', async () => {
    const seeded = await fetch(`${emulator.url}/_emulator/documents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${emulator.adminKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ document: doc({ id: 'from-connector' }) }),
    });
    expect(seeded.status).toBe(200);
    expect(emulator.state.document('from-connector')?.from_ingestion_api).toBe(false);
    const listed = await call<unknown[]>('GET', '/svc-api/ingestion');
    expect(listed.body).toEqual([]);
    const r = await call<{ detail: string }>('DELETE', '/svc-api/ingestion/from-connector');
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/not created through the ingestion API/);
    expect(emulator.state.document('from-connector')).toBeDefined();
  });

  it('lists a pair documents; 404 for an unknown pair, 422 for a non-integer id', async () => {
    expect((await call('GET', '/svc-api/connector-docs/77')).status).toBe(404);
    const bad = await call<Issues>('GET', '/svc-api/connector-docs/x');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]?.loc).toEqual(['path', 'cc_pair_id']);
  });
});
