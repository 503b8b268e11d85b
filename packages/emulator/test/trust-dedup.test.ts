// Ingestion de-duplication (compat-trust §5): the hash gate's decision per call, what the hash
// covers, `already_existed` (true for skips, rewrites and failed writes; inverted on v0.20 to
// v3.2.x), the embeddings counted, hidden and boost reset by a re-embed, and index writes that
// fail inside the call. Expected values written out from compat-trust.md §5.
import { describe, expect, it } from 'vitest';
import { emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { AT, push, sizeStatus } from './trust-helpers.js';

const { use } = emulatorsPerTest();

const embeddings = (s: Started, id: string) => s.emulator.state.documentAccess(id)?.embeddings;

describe('the hash gate', () => {
  it('decides per call: new, skipped, re-embedded; embeddings counted per document and in all', async () => {
    const s = await use('main');
    expect(await push(s.call, 1, 'd')).toEqual({ document_id: 'd', already_existed: false });
    expect(embeddings(s, 'd')).toBe(1);
    // the same time and hash: skipped, whatever the semantic identifier, tags, links or source
    const same = await push(s.call, 1, 'd', {
      semantic_identifier: 'Renamed',
      metadata: { team: 'new' },
      source: 'web',
      sections: [{ text: 'words of d', link: 'https://elsewhere.example.com' }],
    });
    expect(same.already_existed).toBe(true);
    expect(embeddings(s, 'd')).toBe(1);
    expect(s.emulator.state.document('d')).toMatchObject({
      semantic_identifier: 'd',
      source: 'file',
    });
    // an earlier time with other content: re-embedded, the stored time becomes the earlier one
    const earlier = await push(s.call, 1, 'd', {
      doc_updated_at: '2025-01-01T00:00:00Z',
      sections: [{ text: 'other words' }],
    });
    expect(earlier.already_existed).toBe(true);
    expect(embeddings(s, 'd')).toBe(2);
    expect(s.emulator.state.document('d')?.doc_updated_at).toBe('2025-01-01T00:00:00Z');
    // a later time with the same content, or no time at all (= now): re-embedded
    await push(s.call, 1, 'd', { doc_updated_at: AT, sections: [{ text: 'other words' }] });
    expect(embeddings(s, 'd')).toBe(3);
    await push(s.call, 1, 'd', { doc_updated_at: undefined, sections: [{ text: 'other words' }] });
    expect(embeddings(s, 'd')).toBe(4);
    // a section split at the joining space is the same content
    const split = await push(s.call, 1, 'e', { sections: [{ text: 'one two' }] });
    await push(s.call, 1, 'e', { sections: [{ text: 'one' }, { text: 'two' }] });
    expect([split.already_existed, embeddings(s, 'e')]).toEqual([false, 1]);
    expect(s.emulator.stats().ingestion.embeddings).toBe(5);
  });

  it('a re-embed resets hidden and the boost; a skip leaves them', async () => {
    const s = await use('main');
    await push(s.call, 1, 'd');
    s.emulator.indexer.drain();
    await s.call('POST', '/manage/admin/doc-hidden', { json: { document_id: 'd', hidden: true } });
    await s.call('POST', '/manage/admin/doc-boosts', { json: { document_id: 'd', boost: 3 } });
    await push(s.call, 1, 'd');
    expect(s.emulator.state.documentAccess('d')).toMatchObject({ hidden: true, boost: 3 });
    const boosted = await s.call('GET', '/manage/admin/doc-boosts?ascending=false&limit=5');
    expect(boosted.body).toEqual([
      {
        document_id: 'd',
        semantic_id: 'd',
        link: 'https://docs.example.com/d',
        boost: 3,
        hidden: true,
      },
    ]);
    await push(s.call, 1, 'd', { sections: [{ text: 'changed' }] });
    expect(s.emulator.state.documentAccess('d')).toMatchObject({ hidden: false, boost: 0 });
  });
});

describe('index writes that fail inside the call', () => {
  it('answer 200 already_existed true; the document is stored without chunks; a re-push is new', async () => {
    const s = await use('main');
    s.emulator.sabotage.failIndexing(['broken']);
    expect(await push(s.call, 1, 'broken')).toEqual({
      document_id: 'broken',
      already_existed: true,
    });
    s.emulator.indexer.drain();
    expect(s.emulator.state.documentAccess('broken')).toMatchObject({
      stored: true,
      chunks: 0,
      embeddings: 0,
    });
    expect(await sizeStatus(s.call, 'broken')).toBe(404);
    const listed = await s.call<{ document_id: string }[]>('GET', '/svc-api/ingestion');
    expect(listed.body.map((d) => d.document_id)).toEqual(['broken']);
    expect(s.emulator.stats().faults['index-fail']).toBe(1);
    // the failed write stored no hash: the same push is written now, new to the index
    s.emulator.sabotage.failIndexing([]);
    expect(await push(s.call, 1, 'broken')).toEqual({
      document_id: 'broken',
      already_existed: false,
    });
    s.emulator.indexer.drain();
    expect(await sizeStatus(s.call, 'broken')).toBe(200);
  });

  it('--faults index-fail=1: every push fails its index write; the control route sets ids', async () => {
    const s = await use('main', { faults: 'index-fail=1', seed: 1 });
    expect((await push(s.call, 1, 'a')).already_existed).toBe(true);
    expect(s.emulator.stats().faults).toEqual({ 'index-fail': 1 });
    const r = await fetch(`${s.emulator.url}/_emulator/index-failures`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
      body: JSON.stringify({ rate: 0, document_ids: ['b'] }),
    });
    expect(await r.json()).toEqual({ document_ids: ['b'], rate: 0 });
    expect((await push(s.call, 1, 'c')).already_existed).toBe(false);
    expect((await push(s.call, 1, 'b')).already_existed).toBe(true);
  });
});

describe('releases', () => {
  it('v3.2.16 answers already_existed the other way round; /version says the release', async () => {
    const s = await use('main', { serverVersion: '3.2.16' });
    expect((await s.call('GET', '/version')).body).toEqual({ backend_version: 'v3.2.16' });
    expect((await push(s.call, 1, 'd')).already_existed).toBe(true);
    s.emulator.indexer.drain();
    expect((await push(s.call, 1, 'd', { sections: [{ text: 'changed' }] })).already_existed).toBe(
      false,
    );
  });

  it('before v4.0.0 there is no hash gate: an unchanged push is embedded again', async () => {
    const s = await use('main', { serverVersion: 'v3.3.0' });
    await push(s.call, 1, 'd');
    s.emulator.indexer.drain();
    expect((await push(s.call, 1, 'd')).already_existed).toBe(true);
    expect(embeddings(s, 'd')).toBe(2);
  });

  it('a release needs the deployed profile and must be one', async () => {
    await expect(use('seed', { serverVersion: '4.6.1' })).rejects.toThrow(/deployed profile/);
    await expect(use('main', { serverVersion: 'latest' })).rejects.toThrow(/release number/);
  });
});
