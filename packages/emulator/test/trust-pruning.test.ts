// Pruning of pushed documents (compat-trust §7): a prune removes what the pair's connector does
// not list: a `file` connector lists its `file_locations` (nothing with `[]`); an `ingestion_api`
// connector cannot be built, so its prune removes nothing. Automatic prunes when `prune_freq`
// passed, and a connector update that arms them. Expected values from compat-trust.md §7.
import { describe, expect, it } from 'vitest';
import { emulatorsPerTest, runFirstAttempt, type Started } from './lifecycle-helpers.js';
import { push } from './trust-helpers.js';

const { use } = emulatorsPerTest();
const PRUNE_MS = 500;

/** A connector of `source` with credential 0 and its pair. */
async function pairOf(s: Started, source: string, config: object, extra: object = {}) {
  const connector = await s.call<{ id: number }>('POST', '/manage/admin/connector', {
    json: {
      name: `${source} ${Math.random()}`,
      source,
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: config,
      ...extra,
    },
  });
  expect(connector.status).toBe(200);
  const pair = await s.call<{ data: number }>(
    'PUT',
    `/manage/connector/${connector.body.id}/credential/0`,
    {
      json: { name: source, access_type: 'public' },
    },
  );
  expect(pair.status).toBe(200);
  return { connector: connector.body.id, pair: pair.body.data };
}

const stored = (s: Started) =>
  s.emulator.state
    .documents({ limit: -1 })
    .map((d) => [d.id, d.cc_pair_ids])
    .sort();

describe('a prune of a file pair', () => {
  it('with no files: every pushed document only it holds goes; a shared one only loses the pair', async () => {
    const s = await use('main');
    const { pair } = await pairOf(s, 'file', { file_locations: [] });
    await push(s.call, pair, 'only-here');
    await push(s.call, pair, 'shared');
    await push(s.call, 1, 'shared');
    s.emulator.indexer.drain();
    const r = await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    expect(r.status).toBe(200);
    s.step(PRUNE_MS);
    expect(stored(s)).toEqual([['shared', [1]]]);
    expect(s.emulator.state.documentAccess('shared')).toMatchObject({
      chunks: 1,
      readers: ['PUBLIC'],
    });
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}/last_pruned`)).body).toBe(s.now());
  });

  it("with a dummy file: every document but the dummy's goes", async () => {
    const s = await use('main');
    const { pair } = await pairOf(s, 'file', { file_locations: ['dummy'] });
    await push(s.call, pair, 'FILE_CONNECTOR__dummy');
    await push(s.call, pair, 'pushed');
    await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    s.step(PRUNE_MS);
    expect(stored(s)).toEqual([['FILE_CONNECTOR__dummy', [pair]]]);
  });
});

describe('an ingestion_api connector', () => {
  it('is created and associated, hidden from the connector list, and its prune removes nothing', async () => {
    const s = await use('main');
    const { connector, pair } = await pairOf(s, 'ingestion_api', {});
    const listed = await s.call<{ id: number }[]>('GET', '/manage/connector');
    expect(listed.body.map((c) => c.id)).not.toContain(connector);
    const status = await s.call<{ cc_pair_id: number }[]>('GET', '/manage/admin/connector/status');
    expect(status.body.map((p) => p.cc_pair_id)).toContain(pair);
    await push(s.call, pair, 'kept');
    const r = await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    expect(r.body).toEqual({
      success: true,
      message: 'Successfully created the pruning task.',
      data: null,
    });
    s.step(PRUNE_MS);
    expect(stored(s)).toEqual([['kept', [pair]]]);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}/last_pruned`)).body).toBeNull();
    // never indexed, so never due for an automatic prune either
    s.step(30 * 24 * 3600 * 1000);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}`)).body).toMatchObject({
      status: 'SCHEDULED',
    });
  });
});

describe('automatic prunes', () => {
  it('run once prune_freq passed since the connector was created, for a pair that indexed', async () => {
    const s = await use('main');
    const { pair } = await pairOf(s, 'file', { file_locations: [] }, { prune_freq: 3600 });
    runFirstAttempt(s);
    await push(s.call, pair, 'doomed');
    s.step(3600 * 1000); // due: the prune starts
    expect(stored(s)).toEqual([['doomed', [pair]]]);
    s.step(PRUNE_MS);
    expect(stored(s)).toEqual([]);
  });

  it('a connector update turns a null prune_freq into 604800 and so arms them', async () => {
    const s = await use('main');
    const body = {
      name: 'Files',
      source: 'file',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { file_locations: [] },
      prune_freq: null,
    };
    const { connector, pair } = await pairOf(
      s,
      'file',
      { file_locations: [] },
      { prune_freq: null },
    );
    runFirstAttempt(s);
    await push(s.call, pair, 'pushed');
    s.step(8 * 24 * 3600 * 1000);
    expect(stored(s)).toEqual([['pushed', [pair]]]);
    const patched = await s.call('PATCH', `/manage/admin/connector/${connector}`, { json: body });
    expect(patched.body).toMatchObject({ prune_freq: 604800 });
    s.step(1); // due at once: the connector was created more than 7 days ago
    s.step(PRUNE_MS);
    expect(stored(s)).toEqual([]);
  });
});
