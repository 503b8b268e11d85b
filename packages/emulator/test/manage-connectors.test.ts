// Listing, replacing and deleting connectors and pairs, in both profiles. Expected statuses and
// bodies are fixed values taken from compat-notes.md ("Listing, updating and deleting") and, for
// the deployed profile's pair answers, compat-lifecycle.md (the main line); every answer is also
// checked against the spec by the helpers' contract check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Emulator, EmulatorOptions, Profile } from '../src/index.js';
import { type client, connectorBody, doc, start } from './helpers.js';
import { until } from './lifecycle-helpers.js';

type Call = ReturnType<typeof client>;
type Json = Record<string, unknown>;

const CURATOR = 'manage-curator-key-1';
const BASIC = 'manage-basic-key-1';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function use(profile: Profile, options: EmulatorOptions = {}): Promise<Call> {
  const started = await start({ profile, curatorKeys: [CURATOR], userKeys: [BASIC], ...options });
  emulator = started.emulator;
  return started.call;
}

async function createConnector(call: Call, overrides: Json = {}): Promise<number> {
  const r = await call<{ id: number }>('POST', '/manage/admin/connector', {
    json: connectorBody(overrides),
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

async function createCredential(call: Call, json: Json = { jira_api_token: 'token-1' }) {
  const r = await call<{ id: number }>('POST', '/manage/credential', {
    json: { credential_json: json, admin_public: true, source: 'jira' },
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

async function associate(call: Call, connector: number, credential: number, body: Json = {}) {
  const r = await call<{ data: number }>(
    'PUT',
    `/manage/connector/${connector}/credential/${credential}`,
    { json: { name: 'Pair', access_type: 'public', ...body } },
  );
  expect(r.status).toBe(200);
  return r.body.data;
}

async function ingest(call: Call, pair: number, id: string): Promise<void> {
  const r = await call('POST', '/svc-api/ingestion', {
    json: { document: doc({ id, semantic_identifier: id }), cc_pair_id: pair },
  });
  expect(r.status).toBe(200);
}

describe.each(['seed', 'deployed'] as const)('connectors, %s profile', (profile) => {
  it('lists every connector but the ingestion one, with or without a pair', async () => {
    const call = await use(profile);
    expect((await call('GET', '/manage/connector')).body).toEqual([]);
    const paired = await createConnector(call);
    const credential = await createCredential(call);
    await associate(call, paired, credential);
    const alone = await createConnector(call, { name: 'Second' });
    const r = await call<Json[]>('GET', '/manage/connector');
    expect(r.status).toBe(200);
    expect(r.body.map((c) => [c.id, c.name, c.credential_ids])).toEqual([
      [paired, 'Issue tracker', [credential]],
      [alone, 'Second', []],
    ]);
    expect(Object.keys(r.body[0]!).sort()).toEqual(
      [
        'connector_specific_config',
        'credential_ids',
        'id',
        'indexing_start',
        'input_type',
        'name',
        'prune_freq',
        'refresh_freq',
        'source',
        'time_created',
        'time_updated',
      ].sort(),
    );
  });

  it('gets one connector; an unknown id is 404 { detail }', async () => {
    const call = await use(profile);
    const id = await createConnector(call);
    const r = await call<Json>('GET', `/manage/connector/${id}`);
    expect(r.body).toMatchObject({
      id,
      name: 'Issue tracker',
      source: 'jira',
      input_type: 'poll',
      refresh_freq: 3600,
      prune_freq: 86400,
      indexing_start: null,
      credential_ids: [],
    });
    expect(r.body.time_updated).toBe(r.body.time_created);
    const unknown = await call('GET', '/manage/connector/99');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Connector 99 does not exist' });
  });

  it('PATCH replaces the whole connector: no refresh_freq is null, no prune_freq is 604800', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const call = await use(profile, { now: () => new Date(clock) });
    const id = await createConnector(call);
    const credential = await createCredential(call);
    const pair = await associate(call, id, credential, { access_type: 'public' });
    clock += 60_000;
    const r = await call<Json>('PATCH', `/manage/admin/connector/${id}`, {
      json: {
        name: 'Issue tracker',
        source: 'jira',
        input_type: 'load_state',
        access_type: 'private',
        groups: [4],
        connector_specific_config: { jira_base_url: 'https://example.atlassian.net' },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id,
      name: 'Issue tracker',
      source: 'jira',
      input_type: 'load_state',
      connector_specific_config: { jira_base_url: 'https://example.atlassian.net' },
      refresh_freq: null,
      prune_freq: 604800,
      indexing_start: null,
      credential_ids: [credential],
      time_created: '2026-01-01T00:00:00.000Z',
      time_updated: '2026-01-01T00:01:00.000Z',
    });
    expect((await call('GET', `/manage/connector/${id}`)).body).toEqual(r.body);
    // access type and groups are stored on the connector, as creation stores them; pairs keep theirs
    const stored = emulator!.state.connectors({ all: true }).find((c) => c.id === id);
    expect(stored).toMatchObject({ access_type: 'private', groups: [4] });
    expect(emulator!.state.pairs().find((p) => p.id === pair)).toMatchObject({
      access_type: 'public',
      groups: [],
    });
    const nullPrune = await call<Json>('PATCH', `/manage/admin/connector/${id}`, {
      json: connectorBody({ prune_freq: null, refresh_freq: 60, indexing_start: '2026-02-01' }),
    });
    expect(nullPrune.body).toMatchObject({
      prune_freq: 604800,
      refresh_freq: 60,
      indexing_start: '2026-02-01T00:00:00Z',
    });
    const kept = await call<Json>('PATCH', `/manage/admin/connector/${id}`, {
      json: connectorBody({ prune_freq: 7200 }),
    });
    expect(kept.body).toMatchObject({ prune_freq: 7200, refresh_freq: 3600 });
  });

  it('PATCH to a name the source already has: 400 { message }; unknown id: 404', async () => {
    const call = await use(profile);
    const first = await createConnector(call, { name: 'First' });
    const second = await createConnector(call, { name: 'Second' });
    const taken = await call('PATCH', `/manage/admin/connector/${second}`, {
      json: connectorBody({ name: 'First' }),
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({
      message: 'Connector by this name already exists, duplicate naming not allowed.',
    });
    // the same name under another source, and a connector keeping its own name, are fine
    const web = await call('PATCH', `/manage/admin/connector/${second}`, {
      json: connectorBody({
        name: 'First',
        source: 'web',
        connector_specific_config: { base_url: 'https://docs.example.com' },
      }),
    });
    expect(web.status).toBe(200);
    const same = await call('PATCH', `/manage/admin/connector/${first}`, {
      json: connectorBody({ name: 'First' }),
    });
    expect(same.status).toBe(200);
    const unknown = await call('PATCH', '/manage/admin/connector/99', { json: connectorBody() });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Connector 99 does not exist' });
    const invalid = await call('PATCH', `/manage/admin/connector/${first}`, {
      json: { name: 'No source' },
    });
    expect(invalid.status).toBe(422);
  });

  it('DELETE removes the connector and its pairs at once; its documents stay, unattached', async () => {
    const call = await use(profile);
    const id = await createConnector(call);
    const credential = await createCredential(call);
    const pair = await associate(call, id, credential);
    await ingest(call, pair, 'doc-a');
    const r = await call('DELETE', `/manage/admin/connector/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Connector deleted successfully', data: id });
    expect((await call('GET', `/manage/connector/${id}`)).status).toBe(404);
    expect((await call('GET', `/manage/admin/cc-pair/${pair}`)).status).toBe(404);
    expect(emulator!.state.documents().map((d) => [d.id, d.cc_pair_ids])).toEqual([['doc-a', []]]);
    const again = await call('DELETE', `/manage/admin/connector/${id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      success: true,
      message: 'Connector was already deleted',
      data: id,
    });
    // the credential is free again
    expect((await call('DELETE', `/manage/credential/${credential}`)).status).toBe(200);
  });
});

describe.each(['seed', 'deployed'] as const)('pairs, %s profile', (profile) => {
  it('lists every pair with its connector, masked credential, access type and groups', async () => {
    const call = await use(profile);
    const id = await createConnector(call);
    const credential = await createCredential(call, { jira_api_token: 'a-secret-token-value' });
    const pair = await associate(call, id, credential, {
      name: 'Engineering',
      access_type: 'private',
      groups: [3, 42],
    });
    const r = await call<Json[]>('GET', '/manage/admin/connector/status');
    expect(r.status).toBe(200);
    // the main line hides its ingestion pair 1 and the links to groups that are gone (42)
    const main = profile === 'deployed';
    expect(r.body.map((p) => p.cc_pair_id)).toEqual(main ? [pair] : [1, pair]);
    if (!main) expect((r.body[0]!.connector as Json).source).toBe('ingestion_api');
    expect(r.body.at(-1)).toMatchObject({
      cc_pair_id: pair,
      name: 'Engineering',
      access_type: 'private',
      groups: main ? [3] : [3, 42],
      connector: { id, name: 'Issue tracker', credential_ids: [credential] },
      credential: { id: credential, credential_json: { jira_api_token: 'a-se...alue' } },
    });
    expect(r.text).not.toContain('a-secret-token-value');
  });

  it('gets one pair with its status and document count; unknown: 404', async () => {
    // nothing runs in the background: the pair stays as it was created
    const call = await use(profile, { tasks: { paused: true } });
    const id = await createConnector(call);
    const credential = await createCredential(call);
    const pair = await associate(call, id, credential);
    await ingest(call, pair, 'doc-1');
    await ingest(call, pair, 'doc-2');
    const r = await call<Json>('GET', `/manage/admin/cc-pair/${pair}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: pair,
      name: 'Pair',
      status: 'SCHEDULED',
      num_docs_indexed: 2,
      access_type: 'public',
      connector: { id },
      credential: { id: credential, credential_json: { jira_api_token: '••••••••••••' } },
    });
    const unknown = await call('GET', '/manage/admin/cc-pair/99');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(
      profile === 'seed'
        ? { detail: 'Connector-credential pair 99 does not exist' }
        : { error_code: 'NOT_FOUND', detail: 'CC Pair not found for current user permissions' },
    );
  });

  it('renames a pair from the new_name query parameter', async () => {
    const call = await use(profile);
    const pair = await associate(call, await createConnector(call), await createCredential(call));
    const r = await call('PUT', `/manage/admin/cc-pair/${pair}/name?new_name=Operations%20team`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Name updated successfully', data: pair });
    expect((await call<Json>('GET', `/manage/admin/cc-pair/${pair}`)).body.name).toBe(
      'Operations team',
    );
    const missing = await call('PUT', `/manage/admin/cc-pair/${pair}/name`);
    expect(missing.status).toBe(422);
  });

  it('pauses and resumes a pair', async () => {
    const call = await use(profile);
    const pair = await associate(call, await createConnector(call), await createCredential(call));
    const paused = await call('PUT', `/manage/admin/cc-pair/${pair}/status`, {
      json: { status: 'PAUSED' },
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ message: '200' });
    expect((await call<Json>('GET', `/manage/admin/cc-pair/${pair}`)).body.status).toBe('PAUSED');
    await call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'ACTIVE' } });
    expect((await call<Json>('GET', `/manage/admin/cc-pair/${pair}`)).body.status).toBe('ACTIVE');
    const invalid = await call('PUT', `/manage/admin/cc-pair/${pair}/status`, {
      json: { status: 'paused' },
    });
    expect(invalid.status).toBe(422);
  });

  it('an unknown pair cannot be renamed or paused: 404 on the seed; 400 and 403 on the main line', async () => {
    const call = await use(profile);
    const rename = await call('PUT', '/manage/admin/cc-pair/99/name?new_name=x');
    const status = await call('PUT', '/manage/admin/cc-pair/99/status', {
      json: { status: 'PAUSED' },
    });
    if (profile === 'seed') {
      expect([rename.status, status.status]).toEqual([404, 404]);
      expect(rename.body).toEqual({ detail: 'Connector-credential pair 99 does not exist' });
    } else {
      expect([rename.status, status.status]).toEqual([400, 403]);
      expect(rename.body).toEqual({ detail: "CC Pair not found for current user's permissions" });
      expect(status.body).toEqual({
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: "Connection not found for current user's permissions",
      });
    }
  });

  it('a deletion attempt answers null, marks the pair DELETING, then removes documents, pair and connector', async () => {
    // a long delay keeps the pair in DELETING while it is looked at; the test then polls
    const call = await use(profile, { deletionDelayMs: 300 });
    const connector = await createConnector(call);
    const credential = await createCredential(call);
    const pair = await associate(call, connector, credential);
    await ingest(call, pair, 'doc-1');
    await ingest(call, pair, 'doc-2');
    await ingest(call, 1, 'doc-elsewhere');
    const body = { connector_id: connector, credential_id: credential };
    const r = await call('POST', '/manage/admin/deletion-attempt', { json: body });
    expect(r.status).toBe(200);
    expect(r.text).toBe('null');
    expect((await call<Json>('GET', `/manage/admin/cc-pair/${pair}`)).body.status).toBe('DELETING');
    const repeated = await call('POST', '/manage/admin/deletion-attempt', { json: body });
    expect([repeated.status, repeated.body]).toEqual([200, null]);
    await until(async () => (await call('GET', `/manage/admin/cc-pair/${pair}`)).status === 404);
    expect((await call('GET', `/manage/connector/${connector}`)).status).toBe(404);
    expect(emulator!.state.documents().map((d) => d.id)).toEqual(['doc-elsewhere']);
    const gone = await call('POST', '/manage/admin/deletion-attempt', { json: body });
    expect(gone.status).toBe(404);
    const detail = `Connector with ID '${connector}' and credential ID '${credential}' does not exist. Has it already been deleted?`;
    expect(gone.body).toEqual(
      profile === 'seed' ? { detail } : { error_code: 'CONNECTOR_NOT_FOUND', detail },
    );
    // the credential is no longer used
    expect((await call('DELETE', `/manage/credential/${credential}`)).status).toBe(200);
    // ids are not reused, as on the servers' Postgres: a journal of the deleted pair stays its own
    const nextConnector = await createConnector(call);
    const nextCredential = await createCredential(call);
    expect(nextConnector).toBeGreaterThan(connector);
    expect(nextCredential).toBeGreaterThan(credential);
    expect(await associate(call, nextConnector, nextCredential)).toBeGreaterThan(pair);
  });

  it('a connector with another pair stays; documents another pair holds stay with it', async () => {
    const call = await use(profile, { tasks: { startDelayMs: 0, durationMs: 0 } });
    const connector = await createConnector(call);
    const first = await createCredential(call);
    const second = await createCredential(call);
    const doomed = await associate(call, connector, first);
    const kept = await associate(call, connector, second);
    await ingest(call, doomed, 'only-doomed');
    await ingest(call, doomed, 'shared');
    await ingest(call, kept, 'shared');
    await call('PUT', `/manage/admin/cc-pair/${doomed}/status`, { json: { status: 'PAUSED' } });
    const r = await call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: first },
    });
    expect(r.status).toBe(200);
    await until(async () => (await call('GET', `/manage/admin/cc-pair/${doomed}`)).status === 404);
    const left = await call<Json>('GET', `/manage/connector/${connector}`);
    expect(left.body.credential_ids).toEqual([second]);
    expect(emulator!.state.documents().map((d) => [d.id, d.cc_pair_ids])).toEqual([
      ['shared', [kept]],
    ]);
    // the kept pair was indexed meanwhile (attempts end at once here)
    await until(
      async () =>
        (await call<Json>('GET', `/manage/admin/cc-pair/${kept}`)).body.status === 'ACTIVE',
    );
    expect((await call<Json>('GET', `/manage/admin/cc-pair/${kept}`)).body).toMatchObject({
      num_docs_indexed: 1,
    });
  });
});

describe('roles of the new operations', () => {
  it('deployed: a curator key may call them, a basic key may not (403 INSUFFICIENT_PERMISSIONS)', async () => {
    const call = await use('deployed');
    const id = await createConnector(call);
    for (const [method, path] of [
      ['GET', '/manage/connector'],
      ['GET', `/manage/connector/${id}`],
      ['GET', '/manage/admin/connector/status'],
      ['GET', '/manage/admin/cc-pair/1'],
      ['GET', '/manage/credential/0'],
    ] as const) {
      expect((await call(method, path, { key: CURATOR })).status, path).toBe(200);
      const denied = await call(method, path, { key: BASIC });
      expect(denied.status, path).toBe(403);
      expect(denied.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSIONS' });
    }
  });

  it('seed: a basic key may read connectors and credentials, not the admin paths', async () => {
    const call = await use('seed');
    expect((await call('GET', '/manage/connector', { key: BASIC })).status).toBe(200);
    expect((await call('GET', '/manage/credential/0', { key: BASIC })).status).toBe(200);
    expect((await call('GET', '/manage/admin/connector/status', { key: BASIC })).status).toBe(403);
    expect((await call('GET', '/manage/admin/connector/status', { key: CURATOR })).status).toBe(
      403,
    );
  });
});

describe('deletions and the emulator process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-deletions-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a deletion left DELETING by a stopped emulator finishes after the next start', async () => {
    const dbPath = join(dir, 'restart.db');
    const errors: unknown[] = [];
    const first = await start({ dbPath, deletionDelayMs: 60_000, logError: (e) => errors.push(e) });
    const connector = await createConnector(first.call, {
      source: 'web',
      connector_specific_config: { base_url: 'https://docs.example.com' },
    });
    const pair = await associate(first.call, connector, 0);
    const r = await first.call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: 0 },
    });
    expect(r.status).toBe(200);
    await first.emulator.close(); // clears the pending timer: nothing runs after close
    const second = await start({ dbPath, deletionDelayMs: 1 });
    emulator = second.emulator;
    expect(emulator.state.pairs().map((p) => p.id)).toContain(pair);
    await until(async () => !emulator!.state.pairs().some((p) => p.id === pair));
    expect(emulator.state.connectors({ all: true }).map((c) => c.id)).toEqual([0]);
    expect(errors).toEqual([]);
  });

  it('refuses a negative deletionDelayMs', async () => {
    await expect(start({ deletionDelayMs: -1 })).rejects.toThrow(/deletionDelayMs/);
  });
});
