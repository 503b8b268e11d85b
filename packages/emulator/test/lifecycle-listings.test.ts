// The indexing-status listing (filters, per-source paging and counts) and the document checks
// (chunks and tokens of an indexed document, 404 before), on each kind of server. Expected values
// are written out from compat-lifecycle.md (§8, §9) and the emulator's README (chunks of 512
// whitespace-separated words, a word a token).
import { describe, expect, it } from 'vitest';
import {
  emulatorsPerTest,
  ingest,
  type Json,
  KINDS,
  runFirstAttempt,
  type Started,
  webPair,
} from './lifecycle-helpers.js';

const { use } = emulatorsPerTest();

type Entry = {
  source: string;
  summary: Json;
  current_page: number;
  total_pages: number;
  indexing_statuses: Json[];
};

async function statuses(s: Started, body: Json = {}): Promise<Entry[]> {
  const r = await s.call<Entry[]>('POST', '/manage/admin/connector/indexing-status', {
    json: body,
  });
  expect(r.status).toBe(200);
  return r.body;
}

describe.each(KINDS.map(([kind]) => kind))('indexing-status listing (%s)', (kind) => {
  it('one entry per source, sorted, with counts and a row per pair; never the ingestion pair', async () => {
    const s = await use(kind);
    const web = await webPair(s.call);
    await ingest(s.call, web.pair, 'w-1');
    const file = await webPair(s.call, {
      name: 'Uploads',
      source: 'file',
      access_type: 'private',
      connector_specific_config: { file_locations: [] },
    });
    runFirstAttempt(s);
    const list = await statuses(s);
    expect(list.map((e) => e.source)).toEqual(['file', 'web']);
    const [files, webs] = list;
    expect(files!.indexing_statuses.map((r) => r.cc_pair_id)).toEqual([file.pair]);
    expect(webs).toMatchObject({
      summary: {
        total_connectors: 1,
        active_connectors: 1,
        public_connectors: 1,
        total_docs_indexed: 1,
      },
      current_page: 1,
      total_pages: 1,
    });
    const row = webs!.indexing_statuses[0]!;
    expect(row).toMatchObject({
      cc_pair_id: web.pair,
      name: 'Docs site',
      source: 'web',
      access_type: 'public',
      cc_pair_status: 'ACTIVE',
      in_progress: false,
      in_repeated_error_state: false,
      last_finished_status: 'success',
      last_status: 'success',
      last_success: expect.any(String),
      is_editable: true,
      docs_indexed: 1,
      latest_index_attempt_docs_indexed: 1,
    });
    // the main line adds a permissions map; release 4.6.1 and the seed's kind do not
    if (kind === 'main') {
      expect(row.permissions).toEqual({ edit: true, delete: true, publish: true });
    } else {
      expect(row).not.toHaveProperty('permissions');
    }
  });

  it('filters: source, access types, last status, document count, name', async () => {
    const s = await use(kind);
    const a = await webPair(s.call, { name: 'Alpha' });
    await ingest(s.call, a.pair, 'a-1');
    await ingest(s.call, a.pair, 'a-2');
    const b = await webPair(s.call, { name: 'Beta', access_type: 'private' });
    runFirstAttempt(s);
    const rows = async (body: Json) =>
      (await statuses(s, body)).flatMap((e) => e.indexing_statuses.map((r) => r.cc_pair_id));
    expect(await rows({ source: 'web' })).toEqual([a.pair, b.pair]);
    expect(await rows({ source: 'jira' })).toEqual([]);
    expect(await rows({ name_filter: 'ALP' })).toEqual([a.pair]);
    expect(await rows({ docs_count_operator: '>', docs_count_value: 1 })).toEqual([a.pair]);
    expect(await rows({ docs_count_operator: '<', docs_count_value: 1 })).toEqual([b.pair]);
    expect(await rows({ docs_count_operator: '=', docs_count_value: 2 })).toEqual([a.pair]);
    expect(await rows({ docs_count_operator: '=' })).toEqual([a.pair, b.pair]);
    expect(await rows({ last_status_filters: ['success'] })).toEqual([a.pair, b.pair]);
    expect(await rows({ last_status_filters: ['failed'] })).toEqual([]);
    expect(await rows({ access_type_filters: ['private', 'sync'] })).toEqual([b.pair]);
    expect(await rows({ secondary_index: true })).toEqual([]);
    const invalid = await s.call('POST', '/manage/admin/connector/indexing-status', {
      json: { last_status_filters: ['broken'] },
    });
    expect(invalid.status).toBe(422);
    const noBody = await s.call('POST', '/manage/admin/connector/indexing-status');
    expect(noBody.status).toBe(422);
  });

  it('pages of 10 rows per source: source_to_page (from 1) or every row', async () => {
    const s = await use(kind);
    const pairs: number[] = [];
    for (let i = 0; i < 12; i++) pairs.push((await webPair(s.call, { name: `Site ${i}` })).pair);
    const [first] = await statuses(s);
    expect(first).toMatchObject({ current_page: 1, total_pages: 2 });
    expect(first!.summary).toMatchObject({ total_connectors: 12 });
    expect(first!.indexing_statuses.map((r) => r.cc_pair_id)).toEqual(pairs.slice(0, 10));
    const [second] = await statuses(s, { source_to_page: { web: 2 } });
    expect(second).toMatchObject({ current_page: 2, total_pages: 2 });
    expect(second!.indexing_statuses.map((r) => r.cc_pair_id)).toEqual(pairs.slice(10));
    const [all] = await statuses(s, { get_all_connectors: true });
    expect(all!.indexing_statuses).toHaveLength(12);
  });
});

describe.each(KINDS.map(([kind]) => kind))('document checks (%s)', (kind) => {
  it('chunks and tokens of an indexed document; 404 before it is indexed', async () => {
    const s = await use(kind, { indexing: { paused: true } });
    const words = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(' ');
    await ingest(s.call, 1, 'long', words);
    const size = () => s.call('GET', '/document/document-size-info?document_id=long');
    const queued = await size();
    expect([queued.status, queued.body]).toEqual([404, { detail: 'Document not found' }]);
    const chunk = (id: number | string) =>
      s.call('GET', `/document/chunk-info?document_id=long&chunk_id=${id}`);
    expect((await chunk(0)).body).toEqual({ detail: 'Chunk not found' });
    s.emulator.indexer.drain();
    const indexed = await size();
    expect([indexed.status, indexed.body]).toEqual([200, { num_chunks: 3, num_tokens: 1100 }]);
    const last = await chunk(2);
    expect(last.body).toMatchObject({ num_tokens: 76 });
    expect((last.body as Json).content).toMatch(/^w1024 w1025 .* w1099$/);
    expect((await chunk(3)).status).toBe(404);
    expect((await chunk('x')).status).toBe(422);
    const unknown = await s.call('GET', '/document/document-size-info?document_id=nope');
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Document not found' }]);
    expect((await s.call('GET', '/document/document-size-info')).status).toBe(422);
  });

  it('a document without text is one chunk of its title', async () => {
    const s = await use(kind);
    await s.call('POST', '/svc-api/ingestion', {
      json: {
        document: {
          id: 'titled',
          semantic_identifier: 'Quarterly plan',
          sections: [{ text: '   ' }],
          metadata: {},
        },
      },
    });
    s.emulator.indexer.drain();
    const r = await s.call('GET', '/document/chunk-info?document_id=titled&chunk_id=0');
    expect(r.body).toEqual({ content: 'Quarterly plan', num_tokens: 2 });
  });
});
