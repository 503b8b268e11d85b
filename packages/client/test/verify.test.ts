/**
 * `verifyPair` against the emulator playing deployed servers (main line): what each sabotage
 * does is found exactly (deleted, hidden, chunks dropped, index writes failed, a pair's access
 * changed, a legacy model switch), for a pair alone and for a source; a group-scoped key sees
 * exactly its pairs' documents; samples repeat with their seed; a refused key stops the run.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  createKisClient,
  type IngestionDocumentInput,
  type KisClient,
  type VerifyOptions,
  type VerifyResult,
  verifyPair,
} from '../src/index.node.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const ADMIN = 'kis-verify-test-admin-0123456789';

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<KisClient> {
  emulator = await startEmulator({
    profile: 'deployed',
    adminKey: ADMIN,
    tasks: { syncMs: 20, portMs: 20 },
    ...options,
  });
  return clientFor(ADMIN);
}

function clientFor(apiKey: string): KisClient {
  return createKisClient({ baseUrl: (emulator as Emulator).baseUrl, apiKey, logLevel: 'off' });
}

async function pair(kis: KisClient, name: string, access: 'public' | 'private'): Promise<number> {
  const { ccPairId } = await kis.setupConnector({
    connector: {
      name,
      source: 'file',
      input_type: 'load_state',
      access_type: access,
      connector_specific_config: { file_locations: [] },
    },
  });
  return ccPairId as number;
}

/** Documents whose titles are all alike: only a phrase of their text tells them apart. */
function corpus(prefix: string, n: number): IngestionDocumentInput[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    semantic_identifier: 'Weekly notes',
    sections: [{ text: `Notes of week ${i}: the ${prefix}${i}q widget met the orchard team.` }],
    source: 'file',
    metadata: {},
  }));
}

async function push(kis: KisClient, docs: IngestionDocumentInput[], ccPairId: number) {
  const summary = await kis.ingestMany(docs, { ccPairId }).done();
  expect(summary.failed).toBe(0);
  await emulator?.indexer.idle();
}

async function verify(kis: KisClient, options: VerifyOptions) {
  const run = await verifyPair(kis, options);
  const failing: VerifyResult[] = [];
  for await (const result of run) if (!result.ok) failing.push(result);
  const summary = await run.summary;
  const byReason = Object.fromEntries(
    Object.entries(summary.failures).map(([reason, f]) => [reason, [...(f?.ids ?? [])].sort()]),
  );
  return { summary, failing, byReason };
}

describe('verifyPair', () => {
  it('passes a fresh pair, then finds exactly what was done to it', async () => {
    const kis = await start();
    const id = await pair(kis, 'Notes', 'public');
    const docs = corpus('n', 30);
    await push(kis, docs, id);
    const clean = await verify(kis, { ccPairId: id });
    expect(clean.summary.ok).toBe(true);
    expect(clean.summary.checked).toBe(30);
    expect(clean.summary.checks.findable).toEqual({ passed: 30, failed: 0, skipped: 0 });

    await kis.ingestion.delete('n-1');
    await kis.documents.setHidden('n-2', true);
    emulator?.sabotage.dropChunks('n-3');
    // a new document whose index write fails (200, already_existed: true, no chunks), and a
    // changed one whose rewrite fails: the index keeps its old text, which its new text misses
    const more = corpus('n', 32).slice(30);
    emulator?.sabotage.failIndexing(['n-30', 'n-4']);
    const changed = {
      ...(docs[4] as IngestionDocumentInput),
      sections: [{ text: 'A zebra4 text' }],
    };
    await push(kis, [...more, changed], id);
    emulator?.sabotage.failIndexing([]);
    const source = [...docs.slice(0, 4), changed, ...docs.slice(5), ...more];

    const alone = await verify(kis, { ccPairId: id });
    expect(alone.byReason).toEqual({ hidden: ['n-2'], unindexed: ['n-3', 'n-30'] });
    expect(alone.summary.total).toBe(31);

    const fromSource = await verify(kis, { ccPairId: id, source });
    expect(fromSource.byReason).toEqual({
      missing: ['n-1'],
      hidden: ['n-2'],
      unindexed: ['n-3', 'n-30'],
      unfindable: ['n-4'],
    });
    expect(fromSource.summary.ok).toBe(false);
    expect(fromSource.summary.extra).toBe(0);
    const hidden = fromSource.failing.find((r) => r.documentId === 'n-2');
    expect(hidden?.item).toBe(source[2]);
    expect(hidden?.rank).toBe(0);
  });

  it('counts what the pair lists beyond the source, and items it cannot read', async () => {
    const kis = await start();
    const id = await pair(kis, 'Notes', 'public');
    const docs = corpus('x', 6);
    await push(kis, docs, id);
    const source = [
      ...docs.slice(0, 4),
      { ref: 'broken.md', id: 'broken.md', load: () => Promise.reject(new Error('cannot read')) },
      { ref: 'no-id', load: () => Promise.reject(new Error('cannot read either')) },
      { document: docs[5] as IngestionDocumentInput, ccPairId: id + 100 },
    ];
    const { summary, byReason, failing } = await verify(kis, { ccPairId: id, source });
    expect(byReason).toEqual({ missing: ['broken.md'], unreadable: ['no-id'] });
    expect(failing.find((r) => r.ref === 'no-id')?.detail).toBe('cannot read either');
    expect(summary.extra).toBe(2); // x-4, and x-5, whose item names another pair
    expect(summary.notes).toContain(
      '1 item(s) name another pair than the one verified: not checked',
    );
  });

  it('a group-scoped key sees exactly its pairs’ documents, until a pair’s access changes', async () => {
    const kis = await start();
    const open = await pair(kis, 'Open', 'public');
    const team = await pair(kis, 'Team', 'private');
    const other = await pair(kis, 'Other', 'private');
    const group = await kis.userGroups.create({
      name: 'Team A',
      user_ids: [],
      cc_pair_ids: [team],
    });
    await kis.userGroups.waitUntilSynced(group.id);
    // Basic grants document reads; Team A the team pair's documents
    const key = await kis.apiKeys.create({ name: 'team', group_ids: [2, group.id] });
    const asKey = clientFor(String(key.api_key));
    await push(kis, corpus('o', 5), open);
    await push(kis, corpus('t', 5), team);
    await push(kis, corpus('p', 5), other);
    await push(kis, corpus('p', 1), open); // p-0 is also in the public pair
    for (const id of [open, team, other]) {
      const { summary } = await verify(kis, { ccPairId: id, as: asKey });
      expect(summary.ok).toBe(true);
      expect(summary.checks.visible.failed).toBe(0);
    }
    // the admin key is no owner of credential 0 and in no group of the private pairs
    const hiddenFromAdmin = await verify(kis, { ccPairId: other, as: asKey });
    expect(hiddenFromAdmin.summary.checks.indexed).toEqual({ passed: 1, failed: 0, skipped: 4 });
    expect(hiddenFromAdmin.summary.notes.join('\n')).toMatch(
      /4 document\(s\) are not visible to this key/,
    );

    emulator?.sabotage.setPairAccess(team, { groups: [] });
    emulator?.sabotage.setPairAccess(other, { groups: [group.id] });
    const stale = await verify(kis, { ccPairId: team, as: asKey });
    expect(stale.byReason).toEqual({ 'unexpectedly-visible': ['t-0', 't-1', 't-2', 't-3', 't-4'] });
    const missed = await verify(kis, { ccPairId: other, as: asKey });
    expect(missed.byReason).toEqual({ 'not-visible': ['p-1', 'p-2', 'p-3', 'p-4'] });
  });

  it('says when a legacy model switch leaves the pair out of the new index', async () => {
    const kis = await start({ tasks: { portMs: 60_000 } });
    const id = await pair(kis, 'Notes', 'public');
    await push(kis, corpus('m', 3), id);
    emulator?.modelSwitch.start({ use_port_flow: false });
    const run = await verifyPair(kis, { ccPairId: id });
    const results = run[Symbol.asyncIterator]();
    await results.next(); // the switch is known before the first result
    expect(await run.modelSwitch).toMatchObject({ portFlow: false, needsRepush: true });
    await results.return?.();
    const legacy = await verify(kis, { ccPairId: id });
    expect(legacy.summary.failures).toEqual({});
    expect(legacy.summary.ok).toBe(false);
    expect(legacy.summary.modelSwitch).toMatchObject({ portFlow: false, needsRepush: true });
    const indexName = String(legacy.summary.modelSwitch?.indexName);
    const repushed = await verify(kis, {
      ccPairId: id,
      repushed: { indexName, at: '2026-11-28T10:00:00Z' },
    });
    expect(repushed.summary.ok).toBe(true);
    expect(repushed.summary.modelSwitch).toMatchObject({
      needsRepush: false,
      repushedAt: '2026-11-28T10:00:00Z',
    });
    emulator?.modelSwitch.finish();
    emulator?.modelSwitch.start({ use_port_flow: true });
    const ported = await verify(kis, { ccPairId: id });
    expect(ported.summary.modelSwitch).toMatchObject({ portFlow: true, needsRepush: false });
    expect(ported.summary.ok).toBe(true);
  });

  it('a sample repeats with its seed and checks that many', async () => {
    const kis = await start();
    const id = await pair(kis, 'Notes', 'public');
    await push(kis, corpus('s', 40), id);
    const ids = async (seed?: number) => {
      const run = await verifyPair(kis, { ccPairId: id, sample: 7, ...(seed ? { seed } : {}) });
      const seen: string[] = [];
      for await (const r of run) seen.push(r.documentId);
      return { seen: seen.sort(), summary: await run.summary };
    };
    const first = await ids(42);
    const again = await ids(42);
    expect(first.seen).toHaveLength(7);
    expect(again.seen).toEqual(first.seen);
    expect(first.summary).toMatchObject({ total: 40, checked: 7, sampleSeed: 42 });
    const unseeded = await ids();
    expect(typeof unseeded.summary.sampleSeed).toBe('number');
  });

  it('without admin search, findable is skipped and said; a refused key stops the run', async () => {
    const kis = await start({ userKeys: ['kis-verify-test-user-0123456789'] });
    const id = await pair(kis, 'Notes', 'public');
    await push(kis, corpus('u', 3), id);
    const user = clientFor('kis-verify-test-user-0123456789');
    const run = await verifyPair(user, { ccPairId: id, source: corpus('u', 3) });
    const summary = await run.done();
    expect(summary.checks.indexed.passed).toBe(3);
    expect(summary.checks.present).toEqual({ passed: 0, failed: 0, skipped: 3 });
    expect(summary.checks.findable).toEqual({ passed: 0, failed: 0, skipped: 3 });
    expect(summary.notes.slice(0, 2)).toEqual([
      'this key may not use admin search (403): findable is not checked',
      `this key may not list pair ${id}'s documents (403): present is not checked`,
    ]);
    // the pair alone has nothing to check without its listing
    await expect((await verifyPair(user, { ccPairId: id })).done()).rejects.toThrow(/403/);
    const refused = await verifyPair(clientFor('not-a-key-0123456789'), { ccPairId: id });
    await expect(refused.done()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('refuses bad options before any request', async () => {
    const kis = createKisClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: 'k-0123456789' });
    await expect(verifyPair(kis, { ccPairId: -1 })).rejects.toThrow(/ccPairId/);
    await expect(verifyPair(kis, { ccPairId: 2, checks: ['visible'] })).rejects.toThrow(/`as`/);
    await expect(verifyPair(kis, { ccPairId: 2, sample: 0 })).rejects.toThrow(/sample/);
  });
});
