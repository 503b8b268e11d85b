/**
 * Operating a pair after it is created, against the emulator playing deployed servers (the main
 * line, and release 4.6.1 where answers differ): index attempts and errors read as async
 * iterators, run once, pause and resume, prune, deletion, whether documents are indexed, who the
 * key is, and new keys.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { createKisClient, type KisClient, NotFoundError } from '../src/index.node.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<KisClient> {
  emulator = await startEmulator({
    profile: 'deployed',
    tasks: { startDelayMs: 10, durationMs: 50, pruneMs: 20 },
    ...options,
  });
  return createKisClient({ baseUrl: emulator.baseUrl, apiKey: emulator.adminKey, logLevel: 'off' });
}

async function webPair(kis: KisClient): Promise<number> {
  const { ccPairId } = await kis.setupConnector({
    connector: {
      name: 'site',
      source: 'web',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { base_url: 'https://example.com', web_connector_type: 'single' },
    },
  });
  return ccPairId as number;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('a pair after its creation (main line)', () => {
  it('is SCHEDULED until its first attempt starts', async () => {
    const kis = await start({ tasks: { startDelayMs: 60_000, durationMs: 50, pruneMs: 20 } });
    const id = await webPair(kis);
    expect((await kis.pairs.get(id)).status).toBe('SCHEDULED');
  });

  it('moves through its first attempt to ACTIVE; run once adds an attempt', async () => {
    const kis = await start({ tasks: { startDelayMs: 10, durationMs: 400, pruneMs: 20 } });
    const id = await webPair(kis);
    // on a loaded machine the first attempt may already have started (10 ms) when we look
    expect(['SCHEDULED', 'INITIAL_INDEXING']).toContain((await kis.pairs.get(id)).status);
    await until('the first attempt to succeed', async () =>
      (await kis.pairs.get(id)).status === 'ACTIVE' ? true : undefined,
    );
    const run = await kis.pairs.run(id, { fromBeginning: true });
    expect(run.success).toBe(true);
    expect(run.data).toBe(1);
    const attempts = await until('two finished attempts', async () => {
      const all = await collect(kis.pairs.attempts(id, { pageSize: 1 }));
      return all.length === 2 && all.every((a) => a.status === 'success') ? all : undefined;
    });
    expect(attempts[0]?.from_beginning).toBe(true);
  });

  it('pauses a pair (its running attempt is canceled) and resumes it', async () => {
    const kis = await start({ tasks: { startDelayMs: 10, durationMs: 60_000, pruneMs: 20 } });
    const id = await webPair(kis);
    await until('an attempt in progress', async () =>
      (await kis.pairs.get(id)).indexing ? true : undefined,
    );
    await kis.pairs.pause(id);
    expect((await kis.pairs.get(id)).status).toBe('PAUSED');
    const [attempt] = await until('the attempt canceled', async () => {
      const all = await collect(kis.pairs.attempts(id));
      return all[0]?.status === 'canceled' ? all : undefined;
    });
    expect(attempt?.status).toBe('canceled');
    await kis.pairs.resume(id);
    expect((await kis.pairs.get(id)).status).not.toBe('PAUSED');
  });

  it('lists errors of failing attempts page by page, and prunes', async () => {
    const kis = await start({
      tasks: { startDelayMs: 10, durationMs: 30, pruneMs: 20, outcome: 'errors' },
    });
    const id = await webPair(kis);
    const errors = await until('an indexing error', async () => {
      const all = await collect(kis.pairs.errors(id, { pageSize: 1 }));
      return all.length > 0 ? all : undefined;
    });
    expect(errors[0]?.connector_credential_pair_id).toBe(id);
    expect(await kis.pairs.lastPruned(id)).toBeNull();
    expect((await kis.pairs.prune(id)).success).toBe(true);
    const when = await until(
      'the prune to finish',
      async () => (await kis.pairs.lastPruned(id)) ?? undefined,
    );
    expect(Number.isNaN(Date.parse(when))).toBe(false);
  });

  it('deletes a pair: DELETING, then gone', async () => {
    const kis = await start();
    const id = await webPair(kis);
    await kis.pairs.delete(id);
    expect((await kis.pairs.get(id).catch(() => ({ status: 'gone' }))).status).toMatch(
      /DELETING|gone/,
    );
    await kis.pairs.waitUntilGone(id, { waitMs: 20_000 });
    await expect(kis.pairs.get(id)).rejects.toSatisfy((e) => NotFoundError.isInstance(e));
  });

  it('tells whether a pushed document is indexed, with its chunks and tokens', async () => {
    const kis = await start();
    const { documentId } = await kis.ingestDocument({
      id: 'lifecycle-doc',
      semantic_identifier: 'A document',
      sections: [{ text: 'Some words to index. '.repeat(40) }],
      metadata: {},
    });
    const size = await until('the document indexed', () =>
      kis.documents.sizeInfo(documentId).catch((e) => {
        if (NotFoundError.isInstance(e)) return undefined;
        throw e;
      }),
    );
    expect(size.num_chunks).toBeGreaterThan(0);
    expect(size.num_tokens).toBeGreaterThan(0);
    expect((await kis.documents.chunkInfo(documentId, 0)).content).toContain('Some words');
    await expect(kis.documents.sizeInfo('no-such-document')).rejects.toSatisfy((e) =>
      NotFoundError.isInstance(e),
    );
  });

  it('knows the key: account type and permissions; creates keys in groups', async () => {
    const kis = await start();
    const me = await kis.identity.me();
    expect(me).toMatchObject({ account_type: 'SERVICE_ACCOUNT' });
    expect((await kis.identity.permissions()).permissions).toContain('admin');
    const created = await kis.apiKeys.create({ name: 'reader', group_ids: [] });
    expect(created.api_key).toBeTruthy();
    const reader = createKisClient({
      baseUrl: kis.baseUrl,
      apiKey: created.api_key as string,
      logLevel: 'off',
    });
    await expect(reader.connectors.list()).rejects.toMatchObject({ status: 403 });
  });
});

describe('release 4.6.1', () => {
  it('reads the bare permission list as the main line shape, and keys with roles', async () => {
    const kis = await start({ release: 'v4.6.1' });
    expect(await kis.identity.me()).toMatchObject({ role: 'admin' });
    const permissions = await kis.identity.permissions();
    expect(permissions.is_manager).toBe(false);
    expect(permissions.managed_group_ids).toEqual([]);
    const basic = await kis.apiKeys.create({ name: 'basic', role: 'basic' });
    expect(basic.api_key).toBeTruthy();
  });
});
