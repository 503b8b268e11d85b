/**
 * `plan` and `apply` against the emulator in both profiles: every problem of a desired
 * state at once before any request, matching by name and source, secrets compared with what was
 * sent (never with masked answers), duplicates and leftovers reported, an apply that stops at the
 * first failure and converges on the next.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKisClient, DesiredStateError, type KisClient } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENTRY_KEYS } from '../src/declarative/validate.js';
import {
  apply,
  type DesiredState,
  FileSecretRecords,
  type PlannedChange,
  plan as planOf,
} from '../src/index.js';

const TOKEN = 'tok-5a8e0c2f9d1b7e43';

const desired = (token = TOKEN, projectKey = 'KIS'): DesiredState => ({
  credentials: [
    {
      name: 'Jira bot',
      source: 'jira',
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: token },
    },
  ],
  connectors: [
    {
      name: 'Jira KIS',
      source: 'jira',
      config: { jira_base_url: 'https://jira.example.com', project_key: projectKey },
      credential: 'Jira bot',
    },
    {
      name: 'Docs',
      source: 'web',
      config: { base_url: 'https://docs.example.com', web_connector_type: 'recursive' },
    },
  ],
});

const summary = (changes: PlannedChange[]) => changes.map((c) => `${c.action} ${c.kind} ${c.name}`);

describe('the desired state checks', () => {
  it('knows the keys the published file schema has', async () => {
    const schema = JSON.parse(
      await readFile(new URL(import.meta.resolve('@kis/spec/kis-file.schema.json')), 'utf8'),
    );
    expect([...ENTRY_KEYS.file].sort()).toEqual(Object.keys(schema.properties).sort());
    expect([...ENTRY_KEYS.credential].sort()).toEqual(
      Object.keys(schema.$defs.Credential.properties).sort(),
    );
    expect([...ENTRY_KEYS.connector].sort()).toEqual(
      Object.keys(schema.$defs.Connector.properties).sort(),
    );
  });

  it('reports every problem at once, naming entry and field, before any request', async () => {
    const sent: string[] = [];
    const kis = createKisClient({
      baseUrl: 'http://127.0.0.1:9/api',
      apiKey: 'k-unused-1234',
      logLevel: 'off',
      fetch: (input: RequestInfo | URL) => {
        sent.push(String(input));
        throw new Error('no request expected');
      },
    });
    const state = {
      connectors: [
        { name: 'A', source: 'jirra', config: {} },
        {
          name: 'B',
          source: 'jira',
          config: { jira_base_url: 1 },
          credential: 'nope',
          refresh_freq: -1,
        },
        { name: 'B', source: 'jira', config: { jira_base_url: 'x' }, credential: 'nope' },
        {
          name: 'C',
          source: 'web',
          input_type: 'pol',
          config: { base_url: 'u', web_connector_type: 'recursive' },
        },
      ],
      extra: true,
    } as unknown as DesiredState;
    const error = await planOf(kis, state).catch((e: unknown) => e);
    expect(DesiredStateError.isInstance(error)).toBe(true);
    const lines = (error as DesiredStateError).issues.map((i) => `${i.entry} ${i.path}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'file extra',
        'connectors[0] "A" source',
        'connectors[1] "B" refresh_freq',
        'connectors[1] "B" config.jira_base_url',
        'connectors[1] "B" credential',
        'connectors[2] "B" name',
        'connectors[3] "C" input_type',
      ]),
    );
    expect(sent).toEqual([]);
  });
});

for (const profile of ['seed', 'deployed'] as const) {
  describe(`plan and apply (${profile} profile)`, () => {
    let emulator: Emulator;
    let kis: KisClient;
    let records: FileSecretRecords;
    let recordsDir = '';
    const sent: string[] = [];
    const bodies: string[] = [];

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, dbPath: ':memory:', profile });
    });
    afterAll(async () => {
      await emulator?.close();
    });
    afterEach(() => rm(recordsDir, { recursive: true, force: true }));
    beforeEach(async () => {
      emulator.state.reset();
      sent.length = 0;
      recordsDir = await mkdtemp(join(tmpdir(), 'kis-decl-'));
      records = new FileSecretRecords(join(recordsDir, 's.json'));
      kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const request = new Request(input, init);
          if (request.method !== 'GET') {
            sent.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api/, '')}`);
          }
          const response = await fetch(request);
          bodies.push(await response.clone().text());
          return response;
        },
      });
    });

    const applyAll = async (state: DesiredState, prune = false) => {
      const plan = await planOf(kis, state, { secrets: records, prune });
      const result = await apply(kis, plan);
      expect(result.ok, String(result.applied.at(-1)?.error)).toBe(true);
      return plan;
    };

    it('creates, then plans nothing; no answer or record holds a secret', async () => {
      const first = await applyAll(desired());
      expect(summary(first.changes)).toEqual([
        'create credential Jira bot',
        'create connector Jira KIS',
        'create connector Docs',
        'create pair Jira KIS',
        'create pair Docs',
      ]);
      sent.length = 0;
      const second = await planOf(kis, desired(), { secrets: records });
      expect(second.empty).toBe(true);
      expect(second.counts.unchanged).toBe(5);
      expect(bodies.join('\n')).not.toContain(TOKEN);
      expect(await readFile(records.path, 'utf8')).not.toContain(TOKEN);
      expect((await stat(records.path)).mode & 0o777).toBe(0o600);
      expect(JSON.stringify(second)).not.toContain(TOKEN);
    });

    it('finds again an ingestion_api connector the file declares, which listings leave out', async () => {
      const crm: DesiredState = {
        connectors: [
          {
            name: 'CRM tickets',
            source: 'ingestion_api',
            config: {},
            documents: {
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference, as the file has it
              sql: { connection: '${CRM_URL}', table: 'tickets', id: 'id', text: 'body' },
            },
          },
        ],
      };
      const first = await applyAll(crm);
      expect(summary(first.changes)).toEqual([
        'create connector CRM tickets',
        'create pair CRM tickets',
      ]);
      const second = await planOf(kis, crm, { secrets: records });
      expect(second.empty).toBe(true);
      expect(summary(second.changes)).toEqual([
        'unchanged connector CRM tickets',
        'unchanged pair CRM tickets',
      ]);
    });

    it('sends a secret again when nothing records it, and says so without its value', async () => {
      await applyAll(desired());
      const plan = await planOf(kis, desired()); // no records given
      const credential = plan.changes.find((c) => c.kind === 'credential');
      expect(credential?.action).toBe('update');
      expect(credential?.changes).toEqual(
        expect.arrayContaining([{ field: 'credential_json.jira_api_token', secret: 'unverified' }]),
      );
      expect(JSON.stringify(plan)).not.toContain(TOKEN);
    });

    it('diffs a config field and a rotated secret, and sends one request for each', async () => {
      await applyAll(desired());
      sent.length = 0;
      const plan = await applyAll(desired('tok-rotated-000111222', 'KIS2'));
      expect(plan.changes.filter((c) => c.action === 'update').map((c) => c.changes)).toEqual([
        [{ field: 'credential_json.jira_api_token', secret: 'changed' }],
        [{ field: 'config.project_key', before: 'KIS', after: 'KIS2' }],
      ]);
      expect(sent.map((s) => s.replace(/\d+/g, 'N'))).toEqual([
        'PUT /manage/admin/credential/N',
        'PATCH /manage/admin/connector/N',
      ]);
      expect(
        (await planOf(kis, desired('tok-rotated-000111222', 'KIS2'), { secrets: records })).empty,
      ).toBe(true);
    });

    it('renames a pair in place, and warns about an access type it cannot change', async () => {
      await applyAll(desired());
      sent.length = 0;
      const state = desired();
      const jira = state.connectors?.[0];
      if (jira === undefined) throw new Error('no connector');
      jira.pair_name = 'Jira (KIS)';
      jira.access_type = 'private';
      const plan = await applyAll(state);
      expect(plan.changes.find((c) => c.kind === 'pair' && c.action === 'update')?.changes).toEqual(
        [{ field: 'name', before: 'Jira KIS', after: 'Jira (KIS)' }],
      );
      expect(plan.warnings).toEqual([expect.stringContaining('the file says private')]);
      expect(sent.map((s) => s.replace(/\d+/g, 'N'))).toEqual(['PUT /manage/admin/cc-pair/N/name']);
      expect((await kis.pairs.list()).map((p) => p.name).sort()).toContain('Jira (KIS)');
    });

    it('reports a connector left without a pair; prune removes it', async () => {
      await applyAll(desired());
      const stray = await kis.connectors.create({
        name: 'Stray',
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: {
          base_url: 'https://x.example.com',
          web_connector_type: 'single',
        },
      });
      const kept = await planOf(kis, desired(), { secrets: records });
      expect(kept.changes.find((c) => c.kind === 'connector' && c.id === stray.id)).toMatchObject({
        action: 'keep',
        note: 'not in the file; it has no pair (a half-made connector)',
      });
      await applyAll(desired(), true);
      expect((await kis.connectors.list()).map((c) => c.name).sort()).toEqual(['Docs', 'Jira KIS']);
    });

    it('keeps prune_freq never through updates: null and 0 are the same, and a null is sent as 0', async () => {
      const files: DesiredState = {
        connectors: [{ name: 'Files', source: 'file', config: { file_locations: [] } }],
      };
      await applyAll(files);
      const id = (await kis.connectors.list()).find((c) => c.name === 'Files')?.id as number;
      expect((await kis.connectors.get(id)).prune_freq).toBeNull();
      // another change updates the connector: the file says nothing of prune_freq
      const renamed: DesiredState = {
        connectors: [
          { name: 'Files', source: 'file', config: { file_locations: [] }, refresh_freq: 3600 },
        ],
      };
      await applyAll(renamed);
      expect((await kis.connectors.get(id)).prune_freq).toBe(0);
      const never: DesiredState = {
        connectors: [
          {
            name: 'Files',
            source: 'file',
            config: { file_locations: [] },
            refresh_freq: 3600,
            prune_freq: null,
          },
        ],
      };
      expect((await planOf(kis, never, { secrets: records })).empty).toBe(true);
    });

    it('refuses an update that turns on prunes deleting pushed documents, unless told', async () => {
      const files: DesiredState = {
        connectors: [{ name: 'Files', source: 'file', config: { file_locations: [] } }],
      };
      await applyAll(files);
      const pair = (await kis.pairs.list()).find((p) => p.connector.name === 'Files');
      const pairId = pair?.cc_pair_id as number;
      await kis
        .ingestMany(
          ['a', 'b'].map((id) => ({
            id,
            semantic_identifier: id,
            sections: [{ text: id }],
            metadata: {},
          })),
          { ccPairId: pairId },
        )
        .done();
      const armed: DesiredState = {
        connectors: [
          { name: 'Files', source: 'file', config: { file_locations: [] }, prune_freq: 86400 },
        ],
      };
      const risky = await planOf(kis, armed, { secrets: records });
      expect(risky.pruneRisks).toEqual([
        {
          ccPairId: pairId,
          connector: 'Files',
          source: 'file',
          pruneFreq: 86400,
          documents: 2,
          removes: 2,
        },
      ]);
      sent.length = 0;
      await expect(apply(kis, risky)).rejects.toThrow(
        `kis.apply: the plan turns on automatic prunes that would delete 2 document(s) its connectors do not list: pair ${pairId} of "Files" (2 of 2); nothing was changed (pass deletePushedDocuments: true to apply it anyway, or set their prune_freq to null)`,
      );
      expect(sent).toEqual([]);
      const result = await apply(kis, risky, { deletePushedDocuments: true });
      expect(result.ok).toBe(true);
      expect((await kis.pairs.get(pairId)).connector.prune_freq).toBe(86400);
      // an update that keeps prunes off is no risk
      const off: DesiredState = {
        connectors: [
          { name: 'Files', source: 'file', config: { file_locations: [] }, prune_freq: null },
        ],
      };
      expect((await planOf(kis, off, { secrets: records })).pruneRisks).toEqual([]);
    });

    it('stops at the first failure and converges on the next apply', async () => {
      const state = desired();
      // connector creation fails in mid-apply (after the credential was created)
      const failing = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
        maxRetries: 0,
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const request = new Request(input, init);
          if (request.method === 'POST' && request.url.endsWith('/manage/admin/connector')) {
            return new Response('{"detail":"boom"}', { status: 500 });
          }
          return fetch(request);
        },
      });
      const failedPlan = await planOf(failing, state, { secrets: records });
      const result = await apply(failing, failedPlan);
      expect(result.ok).toBe(false);
      expect(result.applied.map((a) => `${a.ok} ${a.change.kind}`)).toEqual([
        'true credential',
        'false connector',
      ]);
      expect(result.skipped).toHaveLength(3);
      const next = await applyAll(state);
      expect(summary(next.changes).slice(0, 2)).toEqual([
        'unchanged credential Jira bot',
        'create connector Jira KIS',
      ]);
      expect((await planOf(kis, state, { secrets: records })).empty).toBe(true);
    });
  });
}
