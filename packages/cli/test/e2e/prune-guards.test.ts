/**
 * The guards against prunes that empty pairs of pushed documents, as a user runs `kis` with its
 * default flags against the emulator of the test project's profile (compat notes §7): a pair to
 * push into (`connector create --for-ingestion`), `connector prune` refusing to delete pushed
 * documents without `--delete-pushed-documents`, `kis apply` refusing updates that would have
 * the server prune them and keeping a null `prune_freq` as never, and `kis doctor` listing the
 * pairs at risk.
 */
import { join } from 'node:path';
import { writeTree } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import { emulatorAndFolder, jsonLines, kis } from '../helpers/cli.js';
import { api, expectOneError, until } from '../helpers/pairs.js';
import { testProfile } from '../helpers/profile.js';

const ctx = emulatorAndFolder('kis-prune-guards-', (work) =>
  writeTree(join(work, 'docs'), { 'a.txt': 'alpha', 'b.md': '# Beta\n\nbeta', 'c.txt': 'gamma' }),
);
const run = (args: string[]) => kis(args, { env: ctx.env, cwd: ctx.work });
const documentsOf = (pairId: number) =>
  ctx.emu.state.documents().filter((d) => d.cc_pair_ids.includes(pairId)).length;
const connectorOf = (pairId: number) => {
  const pair = ctx.emu.state.pairs().find((p) => p.id === pairId);
  return ctx.emu.state.connectors({ all: true }).find((c) => c.id === pair?.connector_id);
};
const pruning = (pairId: number) =>
  ctx.emu.state.pairs().find((p) => p.id === pairId)?.pruning_since != null;

/** `kis --json connector create ARGS…`: the new pair's id. */
async function create(args: string[]): Promise<{ pair: number; stderr: string }> {
  const r = await run(['--json', 'connector', 'create', ...args]);
  expect(r.code, r.stderr).toBe(0);
  const [made] = jsonLines(r.stdout);
  return { pair: made?.cc_pair_id as number, stderr: r.stderr };
}

describe('kis connector create --for-ingestion', () => {
  it('sets up an ingestion_api connector with no refresh and no prune; a prune of it deletes nothing', async () => {
    const r = await run(['connector', 'create', '--for-ingestion', '--name', 'Team docs']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      'Created connector "Team docs" (source ingestion_api): a pair to push into, which no connector run or prune empties',
    );
    const pair = Number(/cc_pair_id: +(\d+)/.exec(r.stdout)?.[1]);
    expect(connectorOf(pair)).toMatchObject({
      source: 'ingestion_api',
      connector_specific_config: {},
      refresh_freq: null,
      prune_freq: null,
    });
    expect((await run(['ingest', 'docs', '--cc-pair', String(pair)])).code).toBe(0);
    expect(documentsOf(pair)).toBe(3);

    const pruned = await run(['connector', 'prune', 'Team docs']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toBe(
      `pair ${pair} "Team docs": prune started: its ingestion_api connector lists nothing to prune against, so servers fail this prune and delete nothing (kis connector status ${pair} shows when it last finished)\n`,
    );
    await until('the prune to end', () => !pruning(pair));
    expect(documentsOf(pair)).toBe(3);
  });

  it('refuses the flags that describe another connector, on one line (exit 2)', async () => {
    expectOneError(
      await run(['connector', 'create', '--for-ingestion', '--source', 'file']),
      2,
      /^error: --for-ingestion: cannot be used with --source \(it sets up an ingestion_api connector, its config, frequencies and credential itself\)$/,
    );
  });
});

describe('kis connector prune', () => {
  it('refuses to delete the pushed documents of a file pair with no files, then prunes with --delete-pushed-documents', async () => {
    const { pair, stderr } = await create([
      '--name',
      'Files',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ]);
    expect(stderr).toBe(
      "warning: a prune of a file connector's pair deletes every document pushed into it that its file_locations do not list (every one with []); for a pair to push into, use --for-ingestion\n",
    );
    expect((await run(['ingest', 'docs', '--cc-pair', String(pair)])).code).toBe(0);

    const refused = await run(['connector', 'prune', 'Files']);
    expectOneError(
      refused,
      2,
      new RegExp(
        `^error: pair ${pair} "Files": not pruned: a prune would delete 3 of its 3 document\\(s\\) \\(its file connector lists only its file_locations, so every pushed document goes\\); pass --delete-pushed-documents to prune anyway$`,
      ),
    );
    expect(refused.stdout).toBe('');
    expect(pruning(pair)).toBe(false);
    const json = await run(['--json', 'connector', 'prune', String(pair)]);
    expect(json.code).toBe(2);
    expect(jsonLines(json.stdout)[0]).toMatchObject({
      cc_pair_id: pair,
      action: 'prune',
      ok: false,
      documents: 3,
      deletes: 3,
    });

    const forced = await run(['connector', 'prune', 'Files', '--delete-pushed-documents']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(new RegExp(`^pair ${pair} "Files": prune started: `));
    await until('the prune to delete the pushed documents', () => documentsOf(pair) === 0);
  });
});

describe('kis apply and prune_freq', () => {
  const file = (pruneFreq?: string) =>
    [
      'connectors:',
      '  - name: Shelf',
      '    source: file',
      '    config: { file_locations: [] }',
      '    refresh_freq: 3600',
      ...(pruneFreq === undefined ? [] : [`    prune_freq: ${pruneFreq}`]),
      '',
    ].join('\n');

  it('an update through kis keeps a null prune_freq as never, where the server stores a null as a week', async () => {
    const { pair } = await create([
      '--name',
      'Shelf',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ]);
    expect(connectorOf(pair)?.prune_freq).toBeNull();
    await writeTree(ctx.work, { 'shelf.yaml': file() });
    const applied = await run(['apply', '-f', 'shelf.yaml']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('updated connector "Shelf" (file)');
    // the PATCH kis sent stated prune_freq: 0, which the server keeps as never
    expect(connectorOf(pair)?.prune_freq).toBe(0);
    expect((await run(['apply', '-f', 'shelf.yaml'])).stdout).toContain('Nothing to change.');
    if (testProfile() === 'deployed') {
      // the same update as another tool sends it (prune_freq null): a week, prunes armed
      const id = connectorOf(pair)?.id as number;
      await api(ctx.emu, 'PATCH', `/manage/admin/connector/${id}`, {
        name: 'Shelf',
        source: 'file',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { file_locations: [] },
        prune_freq: null,
      });
      expect(connectorOf(pair)?.prune_freq).toBe(604800);
    }
  });

  it('refuses an update that leaves prunes on for a pair holding pushed documents, unless --delete-pushed-documents', async () => {
    const pair = ctx.emu.state.pairs().find((p) => p.name === 'Shelf')?.id as number;
    expect((await run(['ingest', 'docs', '--cc-pair', String(pair)])).code).toBe(0);
    await writeTree(ctx.work, { 'shelf.yaml': file('86400') });
    const warning = `warning: connector "Shelf" (file): the update leaves automatic prunes on (prune_freq 86400), and a prune of pair ${pair} deletes 3 of its 3 document(s), those its connector does not list`;
    const dry = await run(['apply', '-f', 'shelf.yaml', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr.split('\n')).toContain(warning);

    const refused = await run(['apply', '-f', 'shelf.yaml']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n').filter(Boolean)).toEqual([
      warning,
      'error: the plan turns on automatic prunes that would delete documents (above); nothing was changed: pass --delete-pushed-documents to apply it anyway, or set prune_freq: null for those connectors',
    ]);
    expect(connectorOf(pair)?.prune_freq).not.toBe(86400);

    const forced = await run(['apply', '-f', 'shelf.yaml', '--delete-pushed-documents']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(connectorOf(pair)?.prune_freq).toBe(86400);
  });
});

describe('kis doctor and the pairs a prune could empty', () => {
  it('warns of a file pair holding pushed documents, and fails once the server prunes it on its own', async () => {
    const { pair } = await create([
      '--name',
      'Drawer',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ]);
    expect((await run(['ingest', 'docs', '--cc-pair', String(pair)])).code).toBe(0);
    // the server prunes a pair on its own only once it indexed (an empty file connector succeeds)
    const shelf = ctx.emu.state.pairs().find((p) => p.name === 'Shelf')?.id as number;
    await until('"Shelf" to index', () =>
      ctx.emu.state.indexAttempts(shelf).some((a) => a.status === 'success'),
    );
    const warned = await run(['doctor']);
    const line = warned.stdout.split('\n').find((l) => l.includes('"Drawer"'));
    expect(line).toMatch(
      new RegExp(
        `^! prune risk: pair ${pair} "Drawer" \\(a file connector, connector \\d+\\): a prune deletes 3 of its 3 document\\(s\\), those its connector does not list$`,
      ),
    );
    expect(warned.stdout).toContain(
      '  fix: push into a pair of an ingestion_api connector, which no prune empties, and do not prune this one',
    );
    // "Shelf" is armed (prune_freq 86400, indexed): a failure, so the doctor exits 1
    expect(warned.code).toBe(1);
    expect(warned.stdout).toMatch(
      /^✗ prune risk: pair \d+ "Shelf" .*: a prune deletes 3 of its 3 document\(s\), those its connector does not list; the server prunes it on its own \(prune_freq 86400 s\), next at \S+Z$/m,
    );
    expect(warned.stdout).toMatch(/check\(s\) failed, \d+ with a warning\.\n$/);
  });
});
