// `kis apply` and `kis export` of user groups, document sets and pair access, with default flags,
// against the emulator (both profiles, through a recording proxy): 30 sets, 10 groups and 40 pairs
// converge in one apply, the second sends no write, changes go one at a time, the plan says who
// gains or loses access before anything is sent, an export round-trips, --prune deletes only what
// kis created, an apply killed part-way converges when run again, and a server without user
// groups refuses a file that names them with one error.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  collect,
  emulator,
  kis,
  type Recorder,
  recordingProxy,
  spawnKis,
} from '../helpers/cli.js';
import { api, expectOneError, until } from '../helpers/pairs.js';

const SYNC_MS = 100;
const pad = (n: number) => String(n).padStart(2, '0');
const group = (i: number) => `G${pad(i % 10)}`;

/**
 * 10 groups, 40 file connectors (even ones private in one group), 30 sets: public ones of two
 * pairs, and sets shared with a group holding that group's private pairs and a public one.
 */
function bigFile(email: string): string {
  const lines = ['user_groups:'];
  for (let g = 0; g < 10; g++) {
    lines.push(`  - name: ${group(g)}`, `    users: [${g === 2 ? email : ''}]`);
  }
  lines.push('connectors:');
  for (let i = 0; i < 40; i++) {
    lines.push(`  - name: C${pad(i)}`, '    source: file', '    config: { file_locations: [] }');
    if (i % 2 === 0) lines.push('    access_type: private', `    groups: [${group(i)}]`);
  }
  lines.push('document_sets:');
  for (let j = 0; j < 30; j++) {
    lines.push(`  - name: S${pad(j)}`);
    const g = j % 10;
    if (j % 6 === 0) {
      lines.push(
        `    pairs: [C${pad(g)}, C${pad(g + 10)}, C${pad(g + 1)}]`,
        `    groups: [${group(g)}]`,
      );
    } else {
      lines.push(`    pairs: [C${pad(j)}, C${pad((j + 3) % 40)}]`);
    }
  }
  return `${lines.join('\n')}\n`;
}

let emu: Emulator;
let proxy: Recorder;
let work: string;
let env: Record<string, string>;
let email = '';

beforeAll(async () => {
  assertBuilt();
  emu = await emulator({ tasks: { syncMs: SYNC_MS } });
  proxy = await recordingProxy(emu);
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

beforeEach(async () => {
  emu.state.reset();
  email = emu.state.accounts().find((a) => a.email.includes('admin'))?.email ?? '';
  work = await mkdtemp(join(tmpdir(), 'kis-apply-scoping-'));
  env = { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY };
  await writeFile(join(work, 'kis.yaml'), bigFile(email));
  proxy.requests.length = 0;
});
afterEach(() => rm(work, { recursive: true, force: true }));

const run = (args: string[]) => kis(args, { env, cwd: work });
const apply = (...extra: string[]) => run(['apply', '-f', 'kis.yaml', ...extra]);
/** The requests sent since the last call: writes by route (ids as N), and the number of reads. */
const sent = () => {
  const requests = proxy.requests.splice(0);
  const writes = requests
    .filter((q) => q.method !== 'GET')
    .map(
      (q) =>
        `${q.method} ${q.path
          .replace(/\?.*$/, '')
          .replace(/^\/api/, '')
          .replace(/\/\d+(?=\/|$)/g, '/N')}`,
    );
  const tally: Record<string, number> = {};
  for (const w of writes) tally[w] = (tally[w] ?? 0) + 1;
  return { writes: tally, reads: requests.length - writes.length };
};
const synced = () =>
  until('the groups and sets to sync', () =>
    [...emu.state.groups(), ...emu.state.documentSets()].every((x) => x.is_up_to_date),
  );

describe('kis apply of groups, sets and access', () => {
  it('converges 30 sets, 10 groups and 40 pairs in one apply, with one write per object; then sends none', async () => {
    const first = await apply();
    expect(first.code, first.stderr).toBe(0);
    const { writes, reads } = sent();
    expect(Object.values(writes).reduce((a, b) => a + b, 0)).toBe(40 + 10 + 40 + 30);
    expect(writes['POST /manage/admin/user-group']).toBe(10);
    expect(writes['POST /manage/admin/document-set']).toBe(30);
    expect(writes['POST /manage/admin/connector']).toBe(40);
    // five listings to read the state, one more to warn of duplicate connector names
    expect(reads).toBe(6);
    expect(emu.state.documentSets()).toHaveLength(30);
    const pair = emu.state.pairs().find((p) => p.name === 'C04');
    expect(pair?.groups).toEqual([emu.state.groups().find((g) => g.name === 'G04')?.id]);
    expect(first.stdout).toContain(
      'Access: who gains (+) or loses (-) sight of the documents of each pair:',
    );
    expect(first.stdout).toContain('  pair "C04" (new): + group "G04"');
    expect(first.stdout).toContain('  pair "C05" (new): + everyone (public)');
    expect(first.stdout).toContain(
      `  members of group "G02": + ${email} (its pairs: "C02", "C12", "C22", "C32")`,
    );

    const second = await apply();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Nothing to change.');
    expect(sent()).toEqual({ writes: {}, reads: 5 });
  });

  it('changes one thing at a time, and says who gains or loses access before sending it', async () => {
    expect((await apply()).code).toBe(0);
    sent();
    // a connector moves to another group: both groups change their pairs, one update each
    const block = (g: string) =>
      `  - name: C30\n    source: file\n    config: { file_locations: [] }\n    access_type: private\n    groups: [${g}]\n`;
    const moved = bigFile(email).replace(block('G00'), block('G01'));
    await writeFile(join(work, 'kis.yaml'), moved);
    const dry = await apply('--dry-run');
    expect(dry.stdout).toMatch(/ {2}pair "C30" #\d+: \+ group "G01", - group "G00"/);
    expect(sent().writes).toEqual({});
    const r = await apply();
    expect(r.code, r.stderr).toBe(0);
    expect(sent().writes).toEqual({ 'PATCH /manage/admin/user-group/N': 2 });

    // a set's pairs: one full replace of the set, after its sync (waited for)
    await writeFile(
      join(work, 'kis.yaml'),
      moved.replace('    pairs: [C01, C04]', '    pairs: [C01, C04, C07]'),
    );
    const set = await apply();
    expect(set.code, set.stderr).toBe(0);
    expect(sent().writes).toEqual({ 'PATCH /manage/admin/document-set': 1 });
    expect((await apply()).stdout).toContain('Nothing to change.');
  });

  it('waits for a set whose last change still syncs before changing it again', async () => {
    expect((await apply()).code).toBe(0);
    await synced();
    const id = emu.state.documentSets().find((x) => x.name === 'S01')?.id ?? 0;
    emu.sabotage.stickSync('document-set', id, true);
    const step = (pairs: string) => bigFile(email).replace('    pairs: [C01, C04]', pairs);
    await writeFile(join(work, 'kis.yaml'), step('    pairs: [C01, C04, C07]'));
    expect((await apply()).code).toBe(0);
    // the set's sync is held: the next apply waits for it, then sends its change
    await writeFile(join(work, 'kis.yaml'), step('    pairs: [C01, C07]'));
    const child = spawnKis(['apply', '-f', 'kis.yaml'], { env, cwd: work });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const done = collect(child);
    await until('apply to wait', () =>
      stderr.includes('waiting for document set "S01" to finish syncing its last change…'),
    );
    sent();
    emu.sabotage.stickSync('document-set', id, false);
    const r = await done;
    expect(r.code, stderr).toBe(0);
    expect(sent().writes).toEqual({ 'PATCH /manage/admin/document-set': 1 });
    expect(emu.state.documentSets().find((x) => x.id === id)?.cc_pair_ids).toHaveLength(2);
  });

  it('round-trips through kis export: applying the export sends no write', async () => {
    expect((await apply()).code).toBe(0);
    await synced();
    const exported = await run(['export', '-o', 'exported.yaml']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('40 connectors, 11 user groups, 30 document sets');
    const text = await readFile(join(work, 'exported.yaml'), 'utf8');
    expect(text).toContain(`users:\n      - ${email}`);
    sent();
    const again = await run(['apply', '-f', 'exported.yaml']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to change.');
    expect(sent().writes).toEqual({});
  });

  it('--prune deletes only the groups and sets kis created', async () => {
    await api(emu, 'POST', '/manage/admin/user-group', {
      name: 'Made by hand',
      user_ids: [],
      cc_pair_ids: [],
    });
    expect((await apply()).code).toBe(0);
    const fewer = bigFile(email).replace('  - name: S29\n    pairs: [C29, C32]\n', '');
    await writeFile(join(work, 'kis.yaml'), fewer);
    const kept = await apply();
    expect(kept.stdout).toMatch(
      /keep {6}document set "S29" #\d+ \(not in the file; kis created it, so --prune deletes it\)/,
    );
    expect(kept.stdout).toMatch(
      /keep {6}user group "Made by hand" #\d+ \(not in the file; kis did not create it, so --prune leaves it\)/,
    );
    sent();
    const pruned = await apply('--prune', '--yes');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(sent().writes).toEqual({ 'DELETE /manage/admin/document-set/N': 1 });
    await until(
      'the set to be gone',
      () => !emu.state.documentSets().some((s) => s.name === 'S29'),
    );
    expect(emu.state.groups().some((g) => g.name === 'Made by hand')).toBe(true);
  });

  it('converges when run again after being killed part-way, waiting for what still syncs', async () => {
    const child = spawnKis(['apply', '-f', 'kis.yaml'], { env, cwd: work });
    const done = collect(child);
    await until('60 writes', () => proxy.requests.filter((q) => q.method !== 'GET').length >= 60);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const resumed = await apply();
    expect(resumed.code, resumed.stderr).toBe(0);
    const names = (list: { name: string }[]) => list.map((x) => x.name);
    expect(new Set(names(emu.state.groups())).size).toBe(emu.state.groups().length);
    expect(emu.state.documentSets()).toHaveLength(30);
    expect(emu.state.pairs().filter((p) => p.connector_id !== 0)).toHaveLength(40);
    const final = await apply();
    expect(final.stdout).toContain('Nothing to change.');
    const created = await readFile(
      join(
        work,
        '.kis',
        'apply',
        `${proxy.baseUrl.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_')}.created.json`,
      ),
      'utf8',
    );
    expect(JSON.parse(created)).toMatchObject({ kis: 'apply-created', v: 1 });
    expect(JSON.parse(created).document_set).toHaveLength(30);
  });
});

describe('kis apply on a server without user groups', () => {
  it('refuses a file that names groups with one error saying why (exit 3); sets alone work', async () => {
    const community = await emulator({ profile: 'deployed', edition: 'community' });
    try {
      const on = { KIS_BASE_URL: community.baseUrl, KIS_API_KEY: ADMIN_KEY };
      expectOneError(
        await kis(['apply', '-f', 'kis.yaml'], { env: on, cwd: work }),
        3,
        /^error: user groups: not on this server: .* answered 404 Not Found \(no such route\): it runs the community edition, and user groups need the enterprise edition$/,
      );
      await writeFile(
        join(work, 'sets.yaml'),
        'connectors:\n  - { name: Docs, source: file, config: { file_locations: [] } }\ndocument_sets:\n  - { name: All docs, pairs: [Docs] }\n',
      );
      const sets = await kis(['apply', '-f', 'sets.yaml'], { env: on, cwd: work });
      expect(sets.code, sets.stderr).toBe(0);
      expect(community.state.documentSets().map((s) => s.name)).toEqual(['All docs']);
    } finally {
      await community.close();
    }
  });
});
