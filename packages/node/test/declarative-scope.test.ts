/**
 * `plan` and `apply` of user groups, document sets and pair access against the emulator in both
 * profiles: matched by name, converged in one apply and then planning nothing, one change at a
 * time, who gains or loses access to which pair before anything is sent, a prune that deletes
 * only what kis created, and syncs waited for (an edit refused while one runs is expected).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKisClient, DesiredStateError, type KisClient } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryCreated } from '../src/declarative/created.js';
import { SCOPE_ENTRY_KEYS } from '../src/declarative/validate-scope.js';
import {
  apply,
  type CreatedRecords,
  type DesiredState,
  FileCreatedRecords,
  type PlannedChange,
  plan as planOf,
} from '../src/index.js';

const SYNC_MS = 60;
const summary = (changes: PlannedChange[]) =>
  changes
    .filter((c) => c.action !== 'unchanged' && c.action !== 'keep')
    .map((c) => `${c.action} ${c.kind} ${c.name}`);

const files = (name: string, extra: object = {}) => ({
  name,
  source: 'file' as const,
  config: { file_locations: [] },
  ...extra,
});

const desired = (): DesiredState => ({
  user_groups: [{ name: 'Support' }, { name: 'Sales' }],
  connectors: [
    files('Tickets', { access_type: 'private', groups: ['Support'] }),
    files('Deals', { access_type: 'private', groups: ['Sales', 'Support'] }),
    files('Handbook'),
  ],
  document_sets: [
    { name: 'Support answers', pairs: ['Tickets', 'Handbook'], groups: ['Support'] },
    { name: 'Everything', description: 'all of it', pairs: ['Tickets', 'Deals', 'Handbook'] },
  ],
});

describe('the desired state checks of groups and sets', () => {
  it('knows the keys the published file schema has', async () => {
    const schema = JSON.parse(
      await readFile(new URL(import.meta.resolve('@kis/spec/kis-file.schema.json')), 'utf8'),
    );
    expect([...SCOPE_ENTRY_KEYS.user_group].sort()).toEqual(
      Object.keys(schema.$defs.UserGroup.properties).sort(),
    );
    expect([...SCOPE_ENTRY_KEYS.document_set].sort()).toEqual(
      Object.keys(schema.$defs.DocumentSet.properties).sort(),
    );
  });

  it('reports every problem at once before any request', async () => {
    const kis = createKisClient({
      baseUrl: 'http://127.0.0.1:9/api',
      apiKey: 'k-unused-1234',
      logLevel: 'off',
      fetch: () => {
        throw new Error('no request expected');
      },
    });
    const state = {
      user_groups: [{ name: 'A', members: [] }, { name: 'A' }],
      document_sets: [
        { name: 'S', pairs: [] },
        { name: 'T', pairs: ['x'], public: 'yes' },
      ],
      connectors: [{ ...files('C'), groups: [true] }],
    } as unknown as DesiredState;
    const error = await planOf(kis, state).catch((e: unknown) => e);
    expect(DesiredStateError.isInstance(error)).toBe(true);
    expect((error as DesiredStateError).issues.map((i) => `${i.entry} ${i.path}`)).toEqual(
      expect.arrayContaining([
        'user_groups[0] "A" members',
        'user_groups[1] "A" name',
        'document_sets[0] "S" pairs',
        'document_sets[1] "T" public',
        'connectors[0] "C" groups',
      ]),
    );
  });
});

describe('FileCreatedRecords', () => {
  it('keeps the names apply created across runs, in a file only its owner reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kis-created-'));
    try {
      const path = join(dir, 'apply', 'server.created.json');
      const records = new FileCreatedRecords(path);
      expect(records.any('user_group')).toBe(false);
      records.add('user_group', 'Support');
      records.add('document_set', 'Runbooks');
      const again = new FileCreatedRecords(path);
      expect([again.has('user_group', 'Support'), again.any('document_set')]).toEqual([true, true]);
      again.delete('user_group', 'Support');
      expect(new FileCreatedRecords(path).any('user_group')).toBe(false);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

for (const profile of ['seed', 'deployed'] as const) {
  describe(`groups, sets and access (${profile} profile)`, () => {
    let emulator: Emulator;
    let kis: KisClient;
    let created: CreatedRecords;
    const sent: string[] = [];

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, profile, tasks: { syncMs: SYNC_MS } });
    });
    afterAll(async () => {
      await emulator?.close();
    });
    beforeEach(() => {
      emulator.state.reset();
      sent.length = 0;
      created = memoryCreated();
      kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const request = new Request(input, init);
          const path = new URL(request.url).pathname.replace(/^\/api/, '');
          if (request.method !== 'GET') sent.push(`${request.method} ${path}`);
          return fetch(request);
        },
      });
    });

    const applyAll = async (state: DesiredState, prune = false) => {
      const plan = await planOf(kis, state, { prune, created });
      const result = await apply(kis, plan);
      expect(result.ok, String(result.applied.at(-1)?.error)).toBe(true);
      return plan;
    };

    it('converges in one apply, groups before the pairs that name them, then plans nothing', async () => {
      const first = await applyAll(desired());
      expect(summary(first.changes)).toEqual([
        'create connector Tickets',
        'create connector Deals',
        'create connector Handbook',
        'create user_group Support',
        'create user_group Sales',
        'create pair Tickets',
        'create pair Deals',
        'create pair Handbook',
        'create document_set Support answers',
        'create document_set Everything',
      ]);
      // one request per object: pairs link to their groups at their association
      expect(sent.map((s) => s.replace(/\d+/g, 'N'))).toEqual([
        ...Array(3).fill('POST /manage/admin/connector'),
        ...Array(2).fill('POST /manage/admin/user-group'),
        ...Array(3).fill('PUT /manage/connector/N/credential/N'),
        ...Array(2).fill('POST /manage/admin/document-set'),
      ]);
      expect(first.access.pairs).toEqual([
        { pair: 'Tickets', id: null, gains: ['group:Support'], loses: [] },
        { pair: 'Deals', id: null, gains: ['group:Sales', 'group:Support'], loses: [] },
        { pair: 'Handbook', id: null, gains: ['PUBLIC'], loses: [] },
      ]);
      const pairs = emulator.state.pairs();
      const tickets = pairs.find((p) => p.name === 'Tickets');
      const groupIds = emulator.state.groups().filter((g) => g.name === 'Support');
      expect(tickets?.groups).toEqual(groupIds.map((g) => g.id));
      sent.length = 0;
      const second = await planOf(kis, desired(), { created });
      expect(second.empty).toBe(true);
      expect(second.access).toEqual({ pairs: [], members: [] });
      expect(sent).toEqual([]);
    });

    it('changes one thing at a time, each with one request, waiting for the sync before an edit', async () => {
      await applyAll(desired());
      // the sets and groups still sync: the edits wait for it instead of failing
      const moved = desired();
      moved.connectors = [
        files('Tickets', { access_type: 'private', groups: ['Sales'] }),
        ...(moved.connectors ?? []).slice(1),
      ];
      moved.document_sets = [
        { name: 'Support answers', pairs: ['Handbook'], groups: ['Support'] },
        ...(moved.document_sets ?? []).slice(1),
      ];
      sent.length = 0;
      const waits: string[] = [];
      const plan = await planOf(kis, moved, { created });
      expect(summary(plan.changes)).toEqual([
        'update user_group Support',
        'update user_group Sales',
        'update document_set Support answers',
      ]);
      expect(plan.access.pairs).toEqual([
        {
          pair: 'Tickets',
          id: expect.any(Number),
          gains: ['group:Sales'],
          loses: ['group:Support'],
        },
      ]);
      const result = await apply(kis, plan, { onSyncWait: (w) => waits.push(w) });
      expect(result.ok, String(result.applied.at(-1)?.error)).toBe(true);
      expect(waits.join('\n')).toContain('to finish syncing its last change');
      expect(sent.map((s) => s.replace(/\d+/g, 'N'))).toEqual([
        'PATCH /manage/admin/user-group/N',
        'PATCH /manage/admin/user-group/N',
        'PATCH /manage/admin/document-set',
      ]);
      expect((await planOf(kis, moved, { created })).empty).toBe(true);
    });

    it('shows members a group gains, with the pairs they then see', async () => {
      await applyAll(desired());
      const account = emulator.state.accounts()[0];
      expect(account).toBeDefined();
      const state = desired();
      state.user_groups = [{ name: 'Support', users: [account?.email ?? ''] }, { name: 'Sales' }];
      const plan = await applyAll(state);
      expect(plan.access.members).toEqual([
        { group: 'Support', gains: [account?.email], loses: [], pairs: ['Tickets', 'Deals'] },
      ]);
      const support = emulator.state.groups().find((g) => g.name === 'Support');
      expect(support).toBeDefined();
      expect((await planOf(kis, state, { created })).empty).toBe(true);
    });

    it('prunes only the groups and sets kis created; reports the others', async () => {
      await kis.userGroups.create({ name: 'Made by hand', user_ids: [], cc_pair_ids: [] });
      await applyAll(desired());
      const smaller: DesiredState = { ...desired(), document_sets: [], user_groups: [] };
      smaller.connectors = (smaller.connectors ?? []).map((c) => ({ ...c, groups: [] }));
      const kept = await planOf(kis, smaller, { created });
      expect(kept.changes.filter((c) => c.action === 'keep').map((c) => [c.name, c.note])).toEqual(
        expect.arrayContaining([
          ['Made by hand', 'not in the file; kis did not create it, so --prune leaves it'],
          ['Support answers', 'not in the file; kis created it, so --prune deletes it'],
          ['Everything', 'not in the file; kis created it, so --prune deletes it'],
        ]),
      );
      const pruned = await applyAll(smaller, true);
      expect(summary(pruned.changes).filter((s) => s.startsWith('delete'))).toEqual([
        'delete document_set Support answers',
        'delete document_set Everything',
        'delete user_group Support',
        'delete user_group Sales',
      ]);
      expect(pruned.access.pairs.map((a) => [a.pair, a.loses])).toEqual([
        ['Tickets', ['group:Support']],
        ['Deals', ['group:Sales', 'group:Support']],
      ]);
      emulator.tasks.tick();
      await new Promise((r) => setTimeout(r, SYNC_MS * 3));
      const names = (await kis.userGroups.list()).map((g) => g.name);
      expect(names).toContain('Made by hand');
      expect(names).not.toContain('Support');
    });

    it('names what fits nothing, before any change', async () => {
      const state = desired();
      state.document_sets = [{ name: 'Bad', pairs: ['Nope'], groups: ['Ghosts'] }];
      const error = await planOf(kis, state, { created }).catch((e: unknown) => e);
      expect(DesiredStateError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('"Nope" names no connector of the file');
      expect((error as Error).message).toContain('"Ghosts" names no user group');
      expect(sent).toEqual([]);
    });
  });
}
