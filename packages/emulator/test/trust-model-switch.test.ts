// An embedding-model switch (compat-trust §8), started and finished through the emulator's
// controls: the port flow copies every in-scope pair's documents, pushed ones included, and
// counts its ports in reindex-progress; the legacy flow leaves push-only pairs out (a document
// reaches the new index only if pushed again meanwhile); pushes write both indexes, searches read
// the current one; `instant` swaps at once and back-fills. From compat-trust.md §8.
import { describe, expect, it } from 'vitest';
import { emulatorsPerTest, type Started } from './lifecycle-helpers.js';
import { found, push, sizeStatus } from './trust-helpers.js';

const { use } = emulatorsPerTest();
const PORT_MS = 500;

/** A pair of an `ingestion_api` connector (push-only, never indexed: SCHEDULED). */
async function pushOnlyPair(s: Started): Promise<number> {
  const connector = await s.call<{ id: number }>('POST', '/manage/admin/connector', {
    json: {
      name: `Pushed ${Math.random()}`,
      source: 'ingestion_api',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: {},
    },
  });
  const pair = await s.call<{ data: number }>(
    'PUT',
    `/manage/connector/${connector.body.id}/credential/0`,
    {
      json: { name: 'pushed', access_type: 'public' },
    },
  );
  return pair.body.data;
}

const progress = async (s: Started) =>
  (await s.call('GET', '/search-settings/reindex-progress')).body;

describe('no switch', () => {
  it('secondary settings null, progress all 0, no errors', async () => {
    const s = await use('main');
    expect((await s.call('GET', '/search-settings/get-secondary-search-settings')).body).toBeNull();
    const all = await s.call('GET', '/search-settings/get-all-search-settings');
    expect(all.body).toMatchObject({
      current_settings: { model_name: 'nomic-ai/nomic-embed-text-v1', switchover_type: 'reindex' },
      secondary_settings: null,
    });
    expect(await progress(s)).toEqual({
      total: 0,
      waiting: 0,
      in_progress: 0,
      completed: 0,
      failed: 0,
      paused: 0,
    });
    expect((await s.call('GET', '/search-settings/reindex-errors')).body).toEqual([]);
  });
});

describe('the port flow', () => {
  it('ports every in-scope pair, pushed documents included; pushes meanwhile write both indexes', async () => {
    const s = await use('main');
    const pushed = await pushOnlyPair(s);
    await push(s.call, 1, 'default-doc');
    await push(s.call, pushed, 'pushed-doc');
    s.emulator.indexer.drain();
    s.emulator.modelSwitch.start({ model_name: 'new-model' });
    expect(
      (await s.call('GET', '/search-settings/get-secondary-search-settings')).body,
    ).toMatchObject({
      model_name: 'new-model',
      switchover_type: 'reindex',
      use_port_flow: true,
    });
    expect(await progress(s)).toMatchObject({ total: 2, waiting: 2 });
    // a push now: written into both indexes (the new one without a hash gate)
    const before = s.emulator.stats().ingestion.embeddings;
    await push(s.call, 1, 'during', { sections: [{ text: 'fresh words' }] });
    expect(s.emulator.stats().ingestion.embeddings).toBe(before + 2);
    s.step(0);
    expect(await progress(s)).toMatchObject({ total: 2, in_progress: 1, waiting: 1 });
    s.step(PORT_MS);
    s.step(0);
    expect(await progress(s)).toMatchObject({ completed: 1, in_progress: 1 });
    expect(
      (await s.call('GET', '/search-settings/get-secondary-search-settings')).body,
    ).not.toBeNull();
    s.step(PORT_MS);
    // every port done: swapped; the new index holds the pushed documents
    expect((await s.call('GET', '/search-settings/get-secondary-search-settings')).body).toBeNull();
    expect((await s.call('GET', '/search-settings/get-all-search-settings')).body).toMatchObject({
      current_settings: { model_name: 'new-model' },
    });
    s.emulator.indexer.drain();
    for (const id of ['default-doc', 'pushed-doc', 'during'])
      expect(await sizeStatus(s.call, id), id).toBe(200);
    expect(await found(s.call, 'fresh')).toEqual(['during']);
  });

  it('searches read the current index only: a document written only into the new one is not found', async () => {
    const s = await use('main');
    await push(s.call, 1, 'doc', { sections: [{ text: 'needle' }] });
    s.emulator.indexer.drain();
    s.emulator.modelSwitch.start({});
    s.emulator.sabotage.dropChunks('doc');
    await push(s.call, 1, 'doc', { sections: [{ text: 'needle' }] });
    // the push skipped the current index (unchanged) and wrote the new one
    expect(await found(s.call, 'needle')).toEqual([]);
    expect(s.emulator.modelSwitch.finish()).toBe(true);
    expect(await found(s.call, 'needle')).toEqual(['doc']);
  });

  it('active_only leaves paused pairs out; instant swaps at once and back-fills the live index', async () => {
    const s = await use('main');
    const paused = await pushOnlyPair(s);
    await s.call('PUT', `/manage/admin/cc-pair/${paused}/status`, { json: { status: 'PAUSED' } });
    s.emulator.modelSwitch.start({ switchover_type: 'active_only' });
    expect(await progress(s)).toMatchObject({ total: 1 });
    s.emulator.modelSwitch.finish();
    const t = await use('main');
    await push(t.call, 1, 'old');
    t.emulator.indexer.drain();
    t.emulator.modelSwitch.start({ switchover_type: 'instant' });
    expect((await t.call('GET', '/search-settings/get-secondary-search-settings')).body).toBeNull();
    expect(await sizeStatus(t.call, 'old')).toBe(404);
    expect(await progress(t)).toMatchObject({ total: 1, waiting: 1 });
    t.step(0);
    t.step(PORT_MS);
    expect(await sizeStatus(t.call, 'old')).toBe(200);
    expect(await progress(t)).toMatchObject({ total: 0 });
  });
});

describe('the legacy flow', () => {
  it('leaves push-only pairs out: only a document pushed again during the switch reaches the new index', async () => {
    const s = await use('main');
    const pushed = await pushOnlyPair(s);
    await push(s.call, pushed, 'forgotten');
    await push(s.call, pushed, 'repushed');
    s.emulator.indexer.drain();
    s.emulator.modelSwitch.start({ use_port_flow: false });
    expect(await progress(s)).toEqual({
      total: 0,
      waiting: 0,
      in_progress: 0,
      completed: 0,
      failed: 0,
      paused: 0,
    });
    await push(s.call, pushed, 'repushed', { doc_updated_at: undefined });
    // an extra push-only pair holds the legacy swap: it waits until forced
    s.step(10 * PORT_MS);
    expect(
      (await s.call('GET', '/search-settings/get-secondary-search-settings')).body,
    ).toMatchObject({
      use_port_flow: false,
    });
    const finish = await fetch(`${s.emulator.url}/_emulator/model-switch/finish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.emulator.adminKey}` },
    });
    expect(await finish.json()).toEqual({ finished: true });
    s.emulator.indexer.drain();
    expect(await sizeStatus(s.call, 'forgotten')).toBe(404);
    expect(await sizeStatus(s.call, 'repushed')).toBe(200);
  });

  it('a legacy instant swap drops every document', async () => {
    const s = await use('main');
    await push(s.call, 1, 'gone');
    s.emulator.modelSwitch.start({ use_port_flow: false, switchover_type: 'instant' });
    expect(s.emulator.state.documents()).toEqual([]);
  });
});

describe('the control routes', () => {
  it('start one (409 while one runs), finish it (409 without one)', async () => {
    const s = await use('main');
    const send = (path: string, body?: object) =>
      fetch(`${s.emulator.url}/_emulator/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.emulator.adminKey}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const started = await send('model-switch', { model_name: 'm2', switchover_type: 'reindex' });
    expect(await started.json()).toMatchObject({
      status: 'FUTURE',
      model_name: 'm2',
      use_port_flow: true,
    });
    expect((await send('model-switch', {})).status).toBe(409);
    expect((await send('model-switch/finish')).status).toBe(200);
    expect((await send('model-switch/finish')).status).toBe(409);
    expect((await send('model-switch', { switchover_type: 'sideways' })).status).toBe(400);
  });
});
