/**
 * The `doc_updated_at` a run sends with a document that has none (compat notes §5): the time its
 * journal recorded with the same content, which the server's hash gate skips, and a later one
 * when anything changed, metadata included. Against the emulator, which counts embeddings.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type KisClient } from '../src/index.js';
import { updatedAtFor } from '../src/internal/bulk/updated-at.js';
import { API_KEY, textDocument as doc, memoryJournal } from './helpers.js';

describe('the stamp of a document without a time', () => {
  const now = new Date('2026-03-01T10:00:00.750Z');
  it.each([
    [
      'no journal: the time of the send, as the server takes it',
      undefined,
      false,
      '2026-03-01T10:00:00.750Z',
    ],
    [
      'first sent with a journal: the time of the send, rounded up',
      undefined,
      true,
      '2026-03-01T10:00:01.000Z',
    ],
    [
      'the same content: the time first sent',
      { updatedAt: '2026-01-01T00:00:00.000Z', sameContent: true },
      true,
      '2026-01-01T00:00:00.000Z',
    ],
    [
      'changed content: the time of the send, rounded up',
      { updatedAt: '2026-01-01T00:00:00.000Z', sameContent: false },
      true,
      '2026-03-01T10:00:01.000Z',
    ],
    [
      'changed content within the second of the last: a second after it',
      { updatedAt: '2026-03-01T10:00:01.000Z', sameContent: false },
      true,
      '2026-03-01T10:00:02.000Z',
    ],
  ])('%s', (_, last, kept, stamp) => {
    expect(updatedAtFor(last, now, kept)).toBe(stamp);
  });
});

describe.each(['seed', 'deployed'] as const)('against the emulator (%s profile)', (profile) => {
  let emu: Emulator;
  let kis: KisClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, dbPath: ':memory:', adminKey: API_KEY, profile });
    kis = createKisClient({ baseUrl: emu.baseUrl, apiKey: API_KEY, logLevel: 'off' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('the journal keeps the time a content was first sent; a change of metadata alone re-embeds', async () => {
    const embeddings = () => emu.stats().ingestion.embeddings;
    const { journal, acked } = memoryJournal();
    const send = (tag: string, through = journal) =>
      kis.ingestMany([doc('t1', 'same', { tag })], { journal: through, ccPairId: 1 }).done();
    expect((await send('a')).created).toBe(1);
    const stamp = acked.get('t1')?.updatedAt as string;
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(emu.state.document('t1')?.doc_updated_at).toBe(stamp);
    const before = embeddings();
    // the same content sent again (the journal holds it, yet it is sent): the same time, skipped
    expect((await send('a', { ...journal, has: () => false })).updated).toBe(1);
    expect(embeddings()).toBe(before);
    expect(acked.get('t1')?.updatedAt).toBe(stamp);
    // metadata alone changed (the server's hash leaves it out): a later time, re-embedded
    await send('b');
    expect(embeddings()).toBe(before + 1);
    expect(Date.parse(acked.get('t1')?.updatedAt as string)).toBeGreaterThan(Date.parse(stamp));
    expect(emu.state.document('t1')?.metadata).toEqual({ tag: 'b' });
  });

  it('a document with a time of its own is sent as it is, and nothing is stamped', async () => {
    const { journal, acked } = memoryJournal();
    const given = { ...doc('t2'), doc_updated_at: '2025-05-05T05:05:05Z' };
    await kis.ingestMany([given], { journal, ccPairId: 1 }).done();
    expect(acked.get('t2')?.updatedAt).toBeUndefined();
    expect(emu.state.document('t2')?.doc_updated_at).toBe('2025-05-05T05:05:05Z');
  });
});
