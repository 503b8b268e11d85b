import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Emulator } from '../src/index.js';
import { doc, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];

let emulator: Emulator;
let call: Call;

beforeEach(async () => {
  ({ emulator, call } = await start());
});
afterEach(async () => {
  await emulator.close();
});

const ingest = (id: string, text = 'Some text') =>
  call('POST', '/svc-api/ingestion', { json: { document: doc({ id, sections: [{ text }] }) } });

const indexed = (id: string) => emulator.state.document(id)?.index_state === 'indexed';

describe('the indexing worker', () => {
  it('sleeps with nothing queued, and wakes when a document is queued', async () => {
    // nothing queued at start: no timer (an idle emulator spends no CPU)
    await vi.waitFor(() => expect(emulator.indexer.sleeping).toBe(true));
    expect((await ingest('first')).status).toBe(200);
    await vi.waitFor(() => expect(indexed('first')).toBe(true));
    await vi.waitFor(() => expect(emulator.indexer.sleeping).toBe(true));

    // a changed document is queued again, and the worker wakes for it
    expect((await ingest('first', 'changed')).status).toBe(200);
    await vi.waitFor(() => expect(indexed('first')).toBe(true));
    await vi.waitFor(() => expect(emulator.indexer.sleeping).toBe(true));
  });

  it('stays paused when a document is queued, and resumes where it left off', async () => {
    emulator.indexer.pause();
    expect((await ingest('held')).status).toBe(200);
    expect(emulator.indexer.sleeping).toBe(false);
    expect(emulator.state.document('held')?.index_state).toBe('queued');
    emulator.indexer.resume();
    await vi.waitFor(() => expect(indexed('held')).toBe(true));
  });
});
