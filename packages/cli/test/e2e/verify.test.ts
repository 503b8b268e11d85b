/**
 * `kis verify` as people run it (the built binary, default flags) against the emulator, both
 * profiles: a folder pushed with `kis ingest`, then sabotaged (a document deleted with `kis docs
 * delete`, one hidden, one's chunks dropped, a new one whose index write fails on push, a legacy
 * model switch): `kis verify` finds exactly that, `--repair` mends it and a second run passes. On
 * the deployed profile a group-scoped key sees exactly its pair's documents (`--as`), also after
 * the pair's access changes behind the server's back; the key never appears in any output.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createKisClient } from '@kis/client';
import { writeTree } from '@kis/test-support';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { emulatorAndFolder, jsonLines, type KisResult, kis } from '../helpers/cli.js';
import { testProfile } from '../helpers/profile.js';

const NOTES = 10;
const tree: Record<string, string> = {};
for (let i = 0; i < NOTES; i++) {
  // alike titles: only a phrase of the text finds one note
  tree[`note-${i}.md`] = `# Weekly note\n\nThe q${i}z gadget of week ${i} met the orchard team.\n`;
}

const ctx = emulatorAndFolder('kis-verify-', async (work) => {
  await writeTree(join(work, 'docs'), tree);
  await writeTree(join(work, 'team'), {
    'plan.txt': 'The t1k rocket plan for the team',
    'budget.txt': 'The t2k rocket budget for the team',
  });
});
const run = (args: string[], env: Record<string, string> = {}) =>
  kis(args, { env: { ...ctx.env, ...env }, cwd: ctx.work });
const admin = () =>
  createKisClient({ baseUrl: ctx.emu.baseUrl, apiKey: ctx.env.KIS_API_KEY as string });

interface Report {
  failing: Record<string, unknown>[];
  summary: Record<string, unknown> & {
    ok: boolean;
    failures: Record<string, { count: number; ids: string[] }>;
  };
}

function report(result: KisResult): Report {
  const lines = jsonLines(result.stdout);
  const summary = lines.at(-1)?.summary as Report['summary'];
  return { failing: lines.slice(0, -1), summary };
}

const idsByReason = (r: Report) =>
  Object.fromEntries(Object.entries(r.summary.failures).map(([k, v]) => [k, [...v.ids].sort()]));

async function pair(name: string, access: 'public' | 'private'): Promise<number> {
  const created = await run([
    '--json',
    'connector',
    'create',
    '--name',
    name,
    '--source',
    'file',
    '--config',
    '{"file_locations": []}',
    '--access-type',
    access,
  ]);
  expect(created.code, created.stderr).toBe(0);
  return jsonLines(created.stdout)[0]?.cc_pair_id as number;
}

async function ingest(path: string, ccPair: number): Promise<void> {
  const sent = await run(['ingest', path, '--cc-pair', String(ccPair)]);
  expect(sent.code, sent.stderr).toBe(0);
  await ctx.emu.indexer.idle();
}

beforeEach(async () => {
  ctx.emu.state.reset();
  await rm(join(ctx.work, '.kis'), { recursive: true, force: true });
  await rm(join(ctx.work, 'docs', 'note-new.md'), { force: true });
});

describe('kis verify', () => {
  it('finds exactly what was done to a pair, and --repair mends it', async () => {
    const id = String(await pair('Docs', 'public'));
    await ingest('docs', Number(id));
    const clean = await run(['verify', 'docs', '--cc-pair', id]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain(`Verified pair ${id} against docs: ${NOTES} document(s)`);
    expect(clean.stdout).toMatch(/findable {2}10 passed, 0 failed/);

    expect((await run(['docs', 'delete', 'docs/note-1.md'])).code).toBe(0);
    await admin().documents.setHidden('docs%2Fnote-2.md', true);
    ctx.emu.sabotage.dropChunks('docs%2Fnote-3.md');
    ctx.emu.sabotage.failIndexing(['docs%2Fnote-new.md']);
    await writeFile(join(ctx.work, 'docs', 'note-new.md'), 'A new note on the n3w widget\n');
    await ingest('docs', Number(id));
    ctx.emu.sabotage.failIndexing([]);

    const found = await run(['--json', 'verify', 'docs', '--cc-pair', id]);
    expect(found.code, found.stderr).toBe(1);
    const r = report(found);
    expect(idsByReason(r)).toEqual({
      missing: ['docs%2Fnote-1.md'],
      hidden: ['docs%2Fnote-2.md'],
      unindexed: ['docs%2Fnote-3.md', 'docs%2Fnote-new.md'],
    });
    expect(r.failing.map((f) => f.ref).sort()).toEqual([
      'docs/note-1.md',
      'docs/note-2.md',
      'docs/note-3.md',
      'docs/note-new.md',
    ]);
    // the pair alone: what it lists, the deleted one gone from it
    const alone = report(await run(['--json', 'verify', '--cc-pair', id]));
    expect(idsByReason(alone)).toEqual({
      hidden: ['docs%2Fnote-2.md'],
      unindexed: ['docs%2Fnote-3.md', 'docs%2Fnote-new.md'],
    });

    const repaired = await run(['verify', 'docs', '--cc-pair', id, '--repair']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(
      'Repair: re-sent 4 failing document(s) without doc_updated_at, so the server re-indexes them: 4 stored, 0 failed.',
    );
    await ctx.emu.indexer.idle();
    const again = await run(['verify', 'docs', '--cc-pair', id]);
    expect(again.code, again.stdout).toBe(0);
  });

  it('a legacy model switch fails the pair until --repair re-pushes it, once', async () => {
    const id = String(await pair('Docs', 'public'));
    await ingest('docs', Number(id));
    // the background work held: the switch's ports wait, as they would on a large server
    ctx.emu.tasks.pause();
    onTestFinished(() => ctx.emu.tasks.resume());
    ctx.emu.modelSwitch.start({ use_port_flow: false });
    const flagged = await run(['--json', 'verify', 'docs', '--cc-pair', id]);
    expect(flagged.code).toBe(1);
    expect(report(flagged).summary).toMatchObject({
      failures: {},
      modelSwitch: { portFlow: false, needsRepush: true },
    });
    const stats = ctx.emu.stats().ingestion.requests;
    const repushed = await run(['--json', 'verify', 'docs', '--cc-pair', id, '--repair']);
    expect(repushed.code, repushed.stderr).toBe(0);
    expect(report(repushed).summary).toMatchObject({
      ok: true,
      repair: { scope: 'model-switch', sent: NOTES, failed: 0 },
    });
    expect(ctx.emu.stats().ingestion.requests - stats).toBe(NOTES);
    // recorded in the pair's journal: the next verification passes, of the folder or the pair
    expect((await run(['verify', 'docs', '--cc-pair', id])).code).toBe(0);
    expect((await run(['verify', '--cc-pair', id])).code).toBe(0);
    ctx.emu.modelSwitch.finish();
    expect((await run(['verify', '--cc-pair', id])).code).toBe(0);
  });

  it('a sample repeats with its seed; the journal can be the source; --report writes the summary', async () => {
    const id = String(await pair('Docs', 'public'));
    await ingest('docs', Number(id));
    const sampled = report(
      await run([
        '--json',
        'verify',
        '--cc-pair',
        id,
        '--from-journal',
        '--sample',
        '4',
        '--seed',
        '9',
      ]),
    );
    expect(sampled.summary).toMatchObject({ ok: true, total: NOTES, checked: 4, sampleSeed: 9 });
    const written = await run(['verify', 'docs', '--cc-pair', id, '--report', 'report.json']);
    expect(written.code).toBe(0);
    const file = JSON.parse(await readFile(join(ctx.work, 'report.json'), 'utf8'));
    expect(file).toMatchObject({
      ccPairId: Number(id),
      ok: true,
      checked: NOTES,
      verified: 'docs',
    });
  });

  it('usage errors exit 2, a refused key 3', async () => {
    const id = String(await pair('Docs', 'public'));
    const noPaths = await run(['verify', '--cc-pair', id, '--repair']);
    expect(noPaths.code).toBe(2);
    expect(noPaths.stderr).toContain('--repair: give the PATHs to re-send from');
    const unset = await run(['verify', '--cc-pair', id, '--as', 'NO_SUCH_KEY_VAR']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('the environment variable NO_SUCH_KEY_VAR is not set or empty');
    const given = await run(['verify', '--cc-pair', id, '--as', 'kis-a-key-given-by-mistake-0123']);
    expect(given.code).toBe(2);
    expect(given.stderr).not.toContain('kis-a-key-given-by-mistake-0123');
    expect((await run(['verify', '--cc-pair', id, '--checks', 'visible'])).code).toBe(2);
    const refused = await run(['verify', '--cc-pair', id], { KIS_API_KEY: 'not-a-key-0123456789' });
    expect(refused.code).toBe(3);
    // a server with none of the routes kis verify reads (one that follows the seed)
    const bare = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"detail":"Not Found"}');
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const { port } = bare.address() as AddressInfo;
    try {
      const seedServer = await run(['verify', '--cc-pair', id], {
        KIS_BASE_URL: `http://127.0.0.1:${port}/api`,
      });
      expect(seedServer.code).toBe(3);
      expect(seedServer.stderr).toContain('lacks a route kis verify reads');
    } finally {
      bare.closeAllConnections();
      bare.close();
    }
  });

  it.runIf(testProfile() === 'deployed')(
    'a group-scoped key sees exactly its pair’s documents (--as), also after the pair’s access changes',
    async () => {
      const open = String(await pair('Open', 'public'));
      const team = String(await pair('Team', 'private'));
      await ingest('docs', Number(open));
      await ingest('team', Number(team));
      const kisAdmin = admin();
      const group = await kisAdmin.userGroups.create({
        name: 'Team A',
        user_ids: [],
        cc_pair_ids: [Number(team)],
      });
      await kisAdmin.userGroups.waitUntilSynced(group.id);
      // on the main line a key's rights are its groups': Basic (document reads) and the team's
      const key = String(
        (await kisAdmin.apiKeys.create({ name: 'team', group_ids: [2, group.id] })).api_key,
      );
      const as = { TEAM_KEY: key };
      const outputs: string[] = [];
      const verifyAs = async (args: string[]) => {
        const result = await run(['--json', 'verify', ...args, '--as', 'TEAM_KEY'], as);
        outputs.push(result.stdout, result.stderr);
        return result;
      };
      for (const id of [open, team]) {
        const seen = await verifyAs(['--cc-pair', id]);
        expect(seen.code, seen.stderr).toBe(0);
        expect(report(seen).summary).toMatchObject({
          checks: { visible: { failed: 0, skipped: 0 } },
        });
      }
      // the admin key is in none of the team pair's groups: its own checks are said skipped
      const teamReport = report(await verifyAs(['--cc-pair', team]));
      expect(teamReport.summary).toMatchObject({
        checks: { visible: { passed: 2 }, indexed: { skipped: 2 } },
      });

      ctx.emu.sabotage.setPairAccess(Number(team), { groups: [] });
      const stale = await verifyAs(['team', '--cc-pair', team]);
      expect(stale.code).toBe(1);
      expect(idsByReason(report(stale))).toEqual({
        'unexpectedly-visible': ['team%2Fbudget.txt', 'team%2Fplan.txt'],
      });
      ctx.emu.sabotage.setPairAccess(Number(open), { access_type: 'private' });
      const lost = await verifyAs(['docs', '--cc-pair', open]);
      expect(idsByReason(report(lost))).toMatchObject({
        'unexpectedly-visible': expect.any(Array),
      });
      expect(report(lost).summary.failures['unexpectedly-visible']?.count).toBe(NOTES);

      // re-sent, the documents are stamped with their pairs' access now
      expect((await verifyAs(['team', '--cc-pair', team, '--repair'])).code).toBe(0);
      await ctx.emu.indexer.idle();
      expect((await verifyAs(['team', '--cc-pair', team])).code).toBe(0);
      expect(outputs.some((text) => text.includes(key))).toBe(false);
    },
  );
});
