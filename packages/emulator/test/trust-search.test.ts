// Admin search and the document checks on the emulator's FTS5 index (compat-trust §1): keyword
// hits with hidden documents, a random sample without them, at most 50 chunks and one entry per
// document, the filters, the caller's access with no admin bypass, and the Vespa/OpenSearch
// differences. Expected values are written out from compat-trust.md §1 and §2.
import { describe, expect, it } from 'vitest';
import { ADMIN_GROUP_ID } from '../src/index.js';
import { CURATOR, emulatorsPerTest } from './lifecycle-helpers.js';
import { AT, found, newKey, ownedPair, push, sizeStatus } from './trust-helpers.js';

const { use } = emulatorsPerTest();

describe('the index', () => {
  it('is written by the indexer: nothing is found before, the chunks are after', async () => {
    const s = await use('main', { indexing: { paused: true } });
    await push(s.call, 1, 'guide', { sections: [{ text: 'onboarding steps' }] });
    expect(await sizeStatus(s.call, 'guide')).toBe(404);
    expect(await found(s.call, 'onboarding')).toEqual([]);
    s.emulator.indexer.drain();
    expect(await sizeStatus(s.call, 'guide')).toBe(200);
    expect(await found(s.call, 'onboarding')).toEqual(['guide']);
    expect(s.emulator.state.documentAccess('guide')).toMatchObject({
      chunks: 1,
      readers: ['PUBLIC'],
    });
  });

  it('a hit carries its best chunk: the chunk id chunk-info reads, highlights, the link', async () => {
    const s = await use('main');
    const filler = Array.from({ length: 512 }, (_, i) => `word${i}`).join(' ');
    await push(s.call, 1, 'long', {
      semantic_identifier: 'Long guide',
      sections: [
        { text: filler, link: 'https://docs.example.com/one' },
        { text: 'the zeppelin chapter', link: 'https://docs.example.com/two' },
      ],
      metadata: { team: 'kis' },
      primary_owners: [{ display_name: 'Ada' }, { first_name: 'Grace', last_name: 'Hopper' }],
    });
    s.emulator.indexer.drain();
    const r = await s.call<{ documents: Record<string, unknown>[] }>('POST', '/admin/search', {
      json: { query: 'zeppelin', filters: {} },
    });
    expect(r.body.documents).toEqual([
      {
        document_id: 'long',
        chunk_ind: 1,
        semantic_identifier: 'Long guide',
        link: 'https://docs.example.com/two',
        blurb: 'the zeppelin chapter',
        source_type: 'file',
        boost: 0,
        hidden: false,
        metadata: { team: 'kis' },
        score: expect.any(Number),
        is_relevant: null,
        relevance_explanation: null,
        match_highlights: ['the <hi>zeppelin</hi> chapter'],
        updated_at: AT,
        primary_owners: ['Ada', 'Grace Hopper'],
        secondary_owners: null,
        is_internet: false,
        file_id: null,
      },
    ]);
    const chunk = await s.call('GET', '/document/chunk-info?document_id=long&chunk_id=1');
    expect(chunk.body).toEqual({ content: 'the zeppelin chapter', num_tokens: 3 });
    expect((await s.call('GET', '/document/document-size-info?document_id=long')).body).toEqual({
      num_chunks: 2,
      num_tokens: 515,
    });
  });

  it('keyword search: at most 50 chunks, one entry per document, hidden documents included', async () => {
    const s = await use('main');
    for (let i = 0; i < 60; i++)
      await push(s.call, 1, `doc-${i}`, { sections: [{ text: 'alpha beta' }] });
    s.emulator.indexer.drain();
    expect(await found(s.call, 'alpha')).toHaveLength(50);
    const hidden = await s.call('POST', '/manage/admin/doc-hidden', {
      json: { document_id: 'doc-0', hidden: true },
    });
    expect(hidden.body).toEqual({ success: true, message: 'Updated document boost' });
    expect(await found(s.call, 'alpha beta')).toHaveLength(50);
    await push(s.call, 1, 'secret', { sections: [{ text: 'gamma' }] });
    s.emulator.indexer.drain();
    await s.call('POST', '/manage/admin/doc-hidden', {
      json: { document_id: 'secret', hidden: true },
    });
    expect(await found(s.call, 'gamma')).toEqual(['secret']);
  });

  it('an empty query samples at most 10 chunks at random, hidden documents left out', async () => {
    const s = await use('main');
    for (let i = 0; i < 12; i++) await push(s.call, 1, `d${i}`);
    s.emulator.indexer.drain();
    for (let i = 0; i < 12; i++) {
      if (i !== 5) {
        await s.call('POST', '/manage/admin/doc-hidden', {
          json: { document_id: `d${i}`, hidden: true },
        });
      }
    }
    expect(await found(s.call, '   ')).toEqual(['d5']);
    await s.call('POST', '/manage/admin/doc-hidden', {
      json: { document_id: 'd0', hidden: false },
    });
    await s.call('POST', '/manage/admin/doc-hidden', {
      json: { document_id: 'd1', hidden: false },
    });
    expect((await found(s.call, '')).sort()).toEqual(['d0', 'd1', 'd5']);
    const unknown = await s.call('POST', '/manage/admin/doc-hidden', {
      json: { document_id: 'nope', hidden: true },
    });
    expect([unknown.status, unknown.body]).toEqual([
      400,
      { detail: "No document found with ID: 'nope'" },
    ]);
  });
});

describe('filters', () => {
  it('source, tags (one per list item) and the update range, ANDed; time_cutoff starts the range', async () => {
    const s = await use('main');
    await push(s.call, 1, 'a', { source: 'file', metadata: { team: 'kis', tags: ['x', 'y'] } });
    await push(s.call, 1, 'b', {
      source: 'web',
      metadata: { team: 'ops' },
      doc_updated_at: '2025-06-01T00:00:00Z',
    });
    s.emulator.indexer.drain();
    expect(await found(s.call, 'words', { source_type: ['web'] })).toEqual(['b']);
    expect(await found(s.call, 'words', { tags: [{ tag_key: 'tags', tag_value: 'y' }] })).toEqual([
      'a',
    ]);
    expect(
      await found(s.call, 'words', {
        source_type: ['file', 'web'],
        tags: [{ tag_key: 'team', tag_value: 'ops' }],
      }),
    ).toEqual(['b']);
    expect(
      await found(s.call, 'words', { updated_at_range: { start: '2026-01-01T00:00:00' } }),
    ).toEqual(['a']);
    expect(
      await found(s.call, 'words', { updated_at_range: { end: '2025-06-01T00:00:00Z' } }),
    ).toEqual(['b']);
    expect(await found(s.call, 'words', { time_cutoff: '2026-01-01T00:00:00Z' })).toEqual(['a']);
  });

  it('created_at_range: ignored by a Vespa index (the default), applied by OpenSearch', async () => {
    for (const [indexBackend, expected] of [
      ['vespa', ['new', 'old']],
      ['opensearch', ['new']],
    ] as const) {
      const s = await use('main', { indexBackend });
      await push(s.call, 1, 'old', { doc_created_at: '2020-01-01T00:00:00Z' });
      await push(s.call, 1, 'new', { doc_created_at: '2026-01-20T00:00:00Z' });
      s.emulator.indexer.drain();
      const ids = await found(s.call, 'words', {
        created_at_range: { start: '2026-01-01T00:00:00Z' },
      });
      expect(ids.sort(), indexBackend).toEqual(expected);
    }
  });

  it('the document checks: a Vespa index answers hidden documents, OpenSearch does not', async () => {
    for (const [indexBackend, status] of [
      ['vespa', 200],
      ['opensearch', 404],
    ] as const) {
      const s = await use('main', { indexBackend });
      await push(s.call, 1, 'h');
      s.emulator.indexer.drain();
      await s.call('POST', '/manage/admin/doc-hidden', {
        json: { document_id: 'h', hidden: true },
      });
      expect(await sizeStatus(s.call, 'h'), indexBackend).toBe(status);
      expect(await found(s.call, 'words')).toEqual(['h']);
    }
  });
});

describe("the caller's access", () => {
  it("no admin bypass: a private pair is found by its credential's creator only", async () => {
    const s = await use('main');
    const mine = await ownedPair(s.call);
    await push(s.call, mine.pair, 'mine', { sections: [{ text: 'classified' }] });
    const theirs = await ownedPair(s.call, { key: CURATOR });
    await push(s.call, theirs.pair, 'private-doc', { sections: [{ text: 'classified' }] }, CURATOR);
    await push(s.call, 1, 'public-doc', { sections: [{ text: 'classified' }] });
    s.emulator.indexer.drain();
    expect((await found(s.call, 'classified')).sort()).toEqual(['mine', 'public-doc']);
    const other = await newKey(s.call, { name: 'other-admin', group_ids: [ADMIN_GROUP_ID] });
    expect(await found(s.call, 'classified', {}, other.key)).toEqual(['public-doc']);
    expect(await sizeStatus(s.call, 'private-doc')).toBe(404);
    expect(await sizeStatus(s.call, 'private-doc', CURATOR)).toBe(200);
    const chunk = await s.call('GET', '/document/chunk-info?document_id=private-doc&chunk_id=0');
    expect([chunk.status, chunk.body]).toEqual([404, { detail: 'Chunk not found' }]);
  });

  it('admin search needs admin on the main line, a curator or admin on release 4.6.1', async () => {
    const main = await use('main');
    const denied = await main.call('POST', '/admin/search', {
      key: CURATOR,
      json: { query: '', filters: {} },
    });
    expect(denied.status).toBe(403);
    const release = await use('v4.6.1');
    expect(
      (await release.call('POST', '/admin/search', { json: { query: '', filters: {} } })).status,
    ).toBe(200);
  });
});
