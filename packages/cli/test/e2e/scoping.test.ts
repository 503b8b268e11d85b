/**
 * Scoping from the command line, as a user runs `kis` (built, default flags) against the emulator
 * of the test project's profile: `kis group`, `kis docset` and `connector create --access
 * --group`, sets and groups by id or name; who sees a private pair's documents through a group
 * (a key in the group, checked with document-size-info as that key); `--wait` on a stuck sync
 * naming what still syncs; and the one error of each refusal: no enterprise edition (404), below
 * the Business plan (402), a scoped manager (main line) and a curator key (release 4.6.1).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASIC_GROUP_ID, type Emulator, type EmulatorOptions } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, assertBuilt, emulator, envFor, jsonLines, kis } from '../helpers/cli.js';
import { api, expectOneError, literal, until } from '../helpers/pairs.js';
import { testProfile } from '../helpers/profile.js';

const SYNC_MS = 150;
const FILES = ['--source', 'file', '--config', '{"file_locations": []}'];

let emu: Emulator;
let work: string;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator({ tasks: { syncMs: SYNC_MS } });
  work = await mkdtemp(join(tmpdir(), 'kis-scoping-'));
});
afterAll(async () => {
  await emu?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const run = (args: string[], key = ADMIN_KEY, on: Emulator = emu) =>
  kis(args, { env: envFor(on, key), cwd: work });

/** A key of the server's model: in the Basic group (main line), of role basic (the others). */
async function memberKey(on: Emulator, name: string): Promise<{ key: string; email: string }> {
  const body = on.kind === 'main' ? { name, group_ids: [BASIC_GROUP_ID] } : { name, role: 'basic' };
  const made = (await api(on, 'POST', '/admin/api-key', body)) as { api_key: string };
  const me = await fetch(`${on.baseUrl}/me`, {
    headers: { authorization: `Bearer ${made.api_key}` },
  });
  return { key: made.api_key, email: ((await me.json()) as { email: string }).email };
}

/** The status of document-size-info for `id` as `key`: 200 seen, 404 not visible. */
async function sizeStatus(id: string, key: string): Promise<number> {
  const url = `${emu.baseUrl}/document/document-size-info?document_id=${encodeURIComponent(id)}`;
  return (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status;
}

describe('kis group, kis docset and a pair created with its access', () => {
  it('creates a group, a private pair in it, a set of pairs by name; lists, changes and deletes them', async () => {
    const group = await run(['--json', 'group', 'create', 'Support', '--wait']);
    expect(group.code, group.stderr).toBe(0);
    expect(jsonLines(group.stdout).at(-1)).toMatchObject({ name: 'Support', synced: true });
    const pair = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'Tickets',
      ...FILES,
      '--access',
      'private',
      '--group',
      'Support',
    ]);
    expect(pair.code, pair.stderr).toBe(0);
    const groupId = emu.state.groups().find((g) => g.name === 'Support')?.id;
    expect(jsonLines(pair.stdout)[0]).toMatchObject({ access_type: 'private', groups: [groupId] });
    expect((await run(['connector', 'create', '--name', 'Handbook', ...FILES])).code).toBe(0);

    const set = await run([
      'docset',
      'create',
      'Support answers',
      '--pair',
      'Tickets',
      '--pair',
      'Handbook',
      '--group',
      'Support',
      '--wait',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/document set \d+ "Support answers": created with 2 pair\(s\)/);
    expect(set.stdout).toMatch(/document set \d+ "Support answers": synced \(/);
    const list = await run(['docset', 'list']);
    expect(list.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^ID\s+NAME\s+PAIRS\s+SHARED WITH\s+STATE$/),
      expect.stringMatching(/^\d+\s+Support answers\s+Tickets, Handbook\s+group Support\s+synced$/),
    ]);
    const groups = jsonLines((await run(['--json', 'group', 'list'])).stdout);
    expect(groups.find((g) => g.name === 'Support')).toMatchObject({
      pairs: [{ name: 'Tickets', access_type: 'private' }],
      document_sets: [{ name: 'Support answers' }],
      state: 'synced',
    });

    const removed = await run(['docset', 'remove', 'Support answers', 'Handbook', '--wait']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain('removed 1 pair(s), 1 now');
    const updated = await run(['docset', 'update', 'Support answers', '--description', 'Asked']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(emu.state.documentSets().find((s) => s.name === 'Support answers')?.description).toBe(
      'Asked',
    );
    // while the update syncs, the next change is refused with one line saying so (exit 1)
    const setId = emu.state.documentSets().find((s) => s.name === 'Support answers')?.id ?? 0;
    emu.sabotage.stickSync('document-set', setId, true);
    expectOneError(
      await run(['docset', 'add', 'Support answers', 'Handbook']),
      1,
      /^error: not now: .* answered 400 Bad Request \("Cannot update document set while it is syncing\..*"\); its last change is still syncing: run the command again once kis docset list .* shows it synced/,
    );
    emu.sabotage.stickSync('document-set', setId, false);
    await until('the set to sync', async () => {
      const sets = jsonLines((await run(['--json', 'docset', 'list'])).stdout);
      return sets.every((s) => s.state === 'synced');
    });
    const deleted = await run(['docset', 'delete', 'Support answers', '--yes', '--wait']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/"Support answers": gone \(/);
  });

  it('says which set or group a name or id does not fit, naming what is there (exit 2)', async () => {
    expectOneError(
      await run(['docset', 'add', 'No such set', 'Tickets']),
      2,
      /^error: "No such set": no document set of that name is listed to this key \(/,
    );
    expectOneError(
      await run(['group', 'add-pairs', '999', 'Tickets']),
      2,
      /^error: user group 999: no user group of that id is listed to this key \(user groups: .*"Support"/,
    );
    expectOneError(
      await run(['connector', 'create', '--name', 'X', ...FILES, '--group', 'Nobody']),
      2,
      /^error: "Nobody": no user group of that name is listed to this key/,
    );
  });

  it("lets a group's members see a private pair's documents, members at once", async () => {
    await run(['group', 'create', 'Readers', '--wait']);
    const made = await run(['--json', 'connector', 'create', '--name', 'Secrets', ...FILES]);
    expect(made.code, made.stderr).toBe(0);
    const privatePair = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'Vault',
      ...FILES,
      '--access',
      'private',
      '--group',
      'Readers',
    ]);
    const ccPair = Number(jsonLines(privatePair.stdout)[0]?.cc_pair_id);
    await writeFile(join(work, 'vault-note.txt'), 'the combination is in the vault');
    const ingest = await run(['ingest', 'vault-note.txt', '--cc-pair', String(ccPair)]);
    expect(ingest.code, ingest.stderr).toBe(0);
    await emu.indexer.idle();
    const member = await memberKey(emu, 'reader');
    expect(await sizeStatus('vault-note.txt', member.key)).toBe(404);
    const added = await run(['group', 'add-users', 'Readers', member.email]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/user group \d+ "Readers": 1 member\(s\) added, 1 now/);
    expect(await sizeStatus('vault-note.txt', member.key)).toBe(200);
    expect(emu.state.documentAccess('vault-note.txt')?.readers).toEqual(['group:Readers']);
  });

  it('--wait on a stuck sync gives up after --wait-for, naming what still syncs (exit 1)', async () => {
    await run(['connector', 'create', '--name', 'Stuck pair', ...FILES]);
    await run(['connector', 'create', '--name', 'Stuck pair 2', ...FILES]);
    const made = await run([
      '--json',
      'docset',
      'create',
      'Stuck',
      '--pair',
      'Stuck pair',
      '--wait',
    ]);
    const id = Number(jsonLines(made.stdout)[0]?.document_set_id);
    emu.sabotage.stickSync('document-set', id, true);
    try {
      const r = await run(['docset', 'add', 'Stuck', 'Stuck pair 2', '--wait', '--wait-for', '1s']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: still syncing after [\\d.]+ s: document set ${id} "Stuck" \\(the server's sync has not finished; --wait-for waits longer\\)$`,
          'm',
        ),
      );
    } finally {
      emu.sabotage.stickSync('document-set', id, false);
    }
  });
});

/** An emulator playing another kind of server, for one test. */
async function otherServer(options: EmulatorOptions): Promise<Emulator> {
  return emulator({ profile: 'deployed', tasks: { syncMs: SYNC_MS }, ...options });
}

describe('refusals, each said once with why', () => {
  it('a server without the enterprise edition (404) or below the Business plan (402): exit 3', async () => {
    const community = await otherServer({ edition: 'community' });
    const lower = await otherServer({ edition: 'enterprise-below-business' });
    try {
      expectOneError(
        await run(['group', 'list'], ADMIN_KEY, community),
        3,
        new RegExp(
          `^error: user groups: not on this server: ${literal(community.baseUrl)} answered 404 Not Found \\(no such route\\): it runs the community edition, and user groups need the enterprise edition$`,
        ),
      );
      expectOneError(
        await run(
          ['connector', 'create', '--name', 'P', ...FILES, '--group', 'G'],
          ADMIN_KEY,
          community,
        ),
        3,
        /^error: user groups: not on this server: .* community edition/,
      );
      // document sets need no edition
      expect((await run(['docset', 'list'], ADMIN_KEY, community)).code).toBe(0);
      expectOneError(
        await run(['group', 'create', 'G'], ADMIN_KEY, lower),
        3,
        /^error: user groups: not in this server's plan: .* answered 402 Payment Required \(FEATURE_NOT_AVAILABLE\): it needs the business plan$/,
      );
    } finally {
      await community.close();
      await lower.close();
    }
  });

  // the keys of deployed servers: run once, in the deployed project
  it.runIf(testProfile() === 'deployed')(
    'a group manager (main line) out of its scope: the reason and what it may do, exit 3',
    async () => {
      const main = await otherServer({});
      try {
        await run(['group', 'create', 'Team', '--wait'], ADMIN_KEY, main);
        const manager = await memberKey(main, 'manager');
        const group = main.state.groups().find((g) => g.name === 'Team');
        const account = main.state.accounts().find((a) => a.email === manager.email);
        await api(main, 'POST', `/manage/admin/user-group/${group?.id}/add-users`, {
          user_ids: [account?.id],
        });
        await api(main, 'PUT', `/manage/admin/user-group/${group?.id}/manager`, {
          user_id: account?.id,
          is_manager: true,
        });
        await run(
          [
            'connector',
            'create',
            '--name',
            'Team pair',
            ...FILES,
            '--access',
            'private',
            '--group',
            'Team',
          ],
          ADMIN_KEY,
          main,
        );
        expectOneError(
          await run(
            ['docset', 'create', 'Open', '--pair', 'Team pair', '--public'],
            manager.key,
            main,
          ),
          3,
          /^error: permission denied: .* answered 403 Forbidden \("Group managers can only act on private resources within the groups they manage\."\); the key acts only within the groups it manages/,
        );
        const inScope = await run(
          ['docset', 'create', 'Team set', '--pair', 'Team pair', '--group', 'Team'],
          manager.key,
          main,
        );
        expect(inScope.code, inScope.stderr).toBe(0);
        expectOneError(
          await run(['group', 'delete', 'Team', '--yes'], manager.key, main),
          3,
          /^error: permission denied: .* answered 403 Forbidden .*lacks the permission this call needs/,
        );
      } finally {
        await main.close();
      }
    },
  );

  it.runIf(testProfile() === 'deployed')(
    'a curator key (release 4.6.1): refused with the reason, exit 3',
    async () => {
      const curatorKey = 'kis-test-curator-key-3b9d7f1e';
      const release = await otherServer({ release: 'v4.6.1', curatorKeys: [curatorKey] });
      try {
        await run(['group', 'create', 'Team', '--wait'], ADMIN_KEY, release);
        expectOneError(
          await run(['group', 'add-users', 'Team', 'someone'], curatorKey, release),
          3,
          /^error: permission denied: .* answered 403 Forbidden \("Access denied\. User has limited permissions\."\); the API key was accepted but holds no permission at all/,
        );
        expectOneError(
          await run(['docset', 'create', 'S', '--pair', '2'], curatorKey, release),
          3,
          /^error: permission denied: .*\(a limited key/,
        );
      } finally {
        await release.close();
      }
    },
  );
});
