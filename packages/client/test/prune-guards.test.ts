/**
 * What takes pushed documents away through prunes (compat notes §7), and the client's guards: a
 * pair to push into (an ingestion_api connector), what a prune of a pair would remove, and
 * `prune_freq` kept through connector updates (servers store 604800 for a null). Against a
 * recording fetch and the emulator in both profiles; expected values from the compat notes.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type KisClient } from '../src/index.js';
import { API_KEY, BASE, client, textDocument as doc, json, mockFetch, until } from './helpers.js';

const connector = (over: object = {}) => ({
  id: 7,
  name: 'Docs',
  source: 'web',
  input_type: 'load_state',
  connector_specific_config: { base_url: 'https://example.com', web_connector_type: 'single' },
  refresh_freq: null,
  prune_freq: null,
  indexing_start: null,
  credential_ids: [0],
  time_created: '2026-01-01T00:00:00Z',
  time_updated: '2026-01-01T00:00:00Z',
  ...over,
});

describe('connectors.update states prune_freq', () => {
  it('carries the current value over (read first); null, which servers store as 604800, goes as 0', async () => {
    const { fetch, calls } = mockFetch((c) =>
      c.method === 'GET' ? json(connector({ prune_freq: null })) : json(connector()),
    );
    const kis = client(fetch);
    const body = {
      name: 'Docs',
      source: 'web' as const,
      input_type: 'load_state' as const,
      access_type: 'public' as const,
      connector_specific_config: {
        base_url: 'https://example.com',
        web_connector_type: 'single' as const,
      },
    };
    await kis.connectors.update(7, body);
    await kis.connectors.update(7, { ...body, prune_freq: null });
    await kis.connectors.update(7, { ...body, prune_freq: 3600 });
    expect(
      calls.map((c) => [c.method, c.url, (c.body as { prune_freq?: unknown })?.prune_freq]),
    ).toEqual([
      ['GET', `${BASE}/manage/connector/7`, undefined],
      ['PATCH', `${BASE}/manage/admin/connector/7`, 0],
      ['PATCH', `${BASE}/manage/admin/connector/7`, 0],
      ['PATCH', `${BASE}/manage/admin/connector/7`, 3600],
    ]);
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

  const push = (ccPairId: number, ids: string[]) =>
    kis
      .ingestMany(
        ids.map((id) => doc(id)),
        { ccPairId },
      )
      .done();

  /** A file connector with no files, and its pair. */
  const filePair = (name: string) =>
    kis.setupConnector({
      connector: {
        name,
        source: 'file',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { file_locations: [] },
        prune_freq: null,
      },
    });

  it('setupIngestionPair: an ingestion_api connector with no refresh and no prune; a prune of it removes nothing', async () => {
    const made = await kis.setupIngestionPair({ name: `Pushed ${profile}` });
    expect(made.credentialId).toBe(0);
    const pairId = made.ccPairId as number;
    const pair = await kis.pairs.get(pairId);
    expect(pair.connector).toMatchObject({
      source: 'ingestion_api',
      input_type: 'load_state',
      connector_specific_config: {},
      refresh_freq: null,
      prune_freq: null,
    });
    await push(pairId, ['p1', 'p2']);
    expect(await kis.pairs.prunePreview(pairId)).toMatchObject({
      listing: 'fails',
      documents: 2,
      removes: 0,
      autoPruneAt: null,
    });
    await expect(kis.setupIngestionPair({ name: ' ' })).rejects.toThrow(
      'setupIngestionPair: name must be a non-empty string',
    );
  });

  it('prunePreview: a file pair with no files loses every pushed document; a web pair cannot be told', async () => {
    const file = await filePair(`Files ${profile}`);
    const pairId = file.ccPairId as number;
    await push(pairId, ['f1', 'f2', 'f3']);
    expect(await kis.pairs.prunePreview(pairId)).toMatchObject({
      ccPairId: pairId,
      pairName: `Files ${profile}`,
      connector: { id: file.connectorId, source: 'file' },
      listing: 'file-locations',
      documents: 3,
      removes: 3,
      removedIds: ['f1', 'f2', 'f3'],
      pruneFreq: null,
      autoPruneAt: null,
    });
    const web = await kis.setupConnector({
      connector: {
        name: `Site ${profile}`,
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: {
          base_url: 'https://example.com',
          web_connector_type: 'single',
        },
      },
    });
    expect(await kis.pairs.prunePreview(web.ccPairId as number)).toMatchObject({
      listing: 'source',
      removes: null,
    });
  });

  it('connectors.update keeps a null prune_freq as never (0), where the server would store 604800', async () => {
    const made = await filePair(`Kept ${profile}`);
    const body = {
      name: `Kept ${profile} (renamed)`,
      source: 'file' as const,
      input_type: 'load_state' as const,
      access_type: 'public' as const,
      connector_specific_config: { file_locations: [] },
    };
    const updated = await kis.connectors.update(made.connectorId, body);
    expect(updated.prune_freq).toBe(0);
    expect((await kis.connectors.get(made.connectorId)).prune_freq).toBe(0);
    // the same update sent as other tools send it: automatic prunes armed
    const raw = await kis.api.PATCH('/manage/admin/connector/{connector_id}', {
      params: { path: { connector_id: made.connectorId } },
      body: { ...body, prune_freq: null },
    });
    expect(raw.data?.prune_freq).toBe(604800);
  });

  it('doctor: a file pair a prune would empty is a warning, and a failure once the server prunes it on its own', async () => {
    const report = await kis.doctor();
    const files = report.checks.find(
      (c) => c.name === 'prune risk' && c.detail.includes(`"Files ${profile}"`),
    );
    expect(files).toMatchObject({ ok: true, warning: true });
    expect(files?.detail).toMatch(
      /^pair \d+ "Files \w+" \(a file connector, connector \d+\): a prune deletes 3 of its 3 document\(s\), those its connector does not list$/,
    );
    expect(files?.fix).toBe(
      'push into a pair of an ingestion_api connector, which no prune empties, and do not prune this one',
    );
    expect(report.summary.warnings).toBeGreaterThanOrEqual(1);
    expect(report.summary.ok).toBe(true);
    const pair = report.pruneRisks?.find((p) => p.pairName === `Files ${profile}`);
    const id = pair?.connector.id as number;
    // a pair is pruned on its own only once it indexed (an empty file connector succeeds)
    await until('the file pair to index', async () => {
      return (await kis.pairs.get(pair?.ccPairId as number)).last_indexed != null;
    });
    // armed the way other tools arm it: an update sending a null prune_freq
    await kis.api.PATCH('/manage/admin/connector/{connector_id}', {
      params: { path: { connector_id: id } },
      body: {
        name: `Files ${profile}`,
        source: 'file',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { file_locations: [] },
        prune_freq: null,
      },
    });
    const armed = (await kis.doctor()).checks.find((c) => c.detail.includes(`"Files ${profile}"`));
    expect(armed?.ok).toBe(false);
    expect(armed?.detail).toMatch(
      /the server prunes it on its own \(prune_freq 604800 s\), next at \S+Z$/,
    );
    expect(armed?.fix).toBe(
      "set the connector's prune_freq to 0 (never), then push into a pair of an ingestion_api connector, which no prune empties",
    );
  });
});
