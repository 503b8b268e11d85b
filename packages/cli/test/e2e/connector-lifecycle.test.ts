/**
 * Operating pairs after their creation, as a user runs `kis`, against the emulator of the test
 * project's profile: `connector list`, `status [--watch]`, `run`, `pause`, `resume`, `prune`,
 * `delete` and `docs status`. Index attempts are steered through the emulator (`tasks.setAttemptOutcome`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  collect,
  emulator,
  envFor,
  jsonLines,
  kis,
  spawnKis,
} from '../helpers/cli.js';
import {
  api,
  expectOneError,
  literal,
  newestAttempt,
  newPair,
  pairOf,
  until,
} from '../helpers/pairs.js';
import { testProfile } from '../helpers/profile.js';

let emu: Emulator;
let work: string;
let env: Record<string, string>;

let alpha: number;
let beta: number;

beforeAll(async () => {
  assertBuilt();
  // prunes that last, so a second one finds the first still running
  emu = await emulator({ tasks: { startDelayMs: 20, durationMs: 300, pruneMs: 20_000 } });
  env = envFor(emu);
  work = await mkdtemp(join(tmpdir(), 'kis-lifecycle-'));
  await writeTree(work, { 'notes.txt': 'alpha beta gamma', 'dir/a.txt': 'a' });
  alpha = await newPair(emu, 'alpha');
  beta = await newPair(emu, 'beta');
  emu.tasks.setAttemptOutcome('hang', beta);
  await newPair(emu, 'dup', 'web');
  await newPair(emu, 'dup', 'file');
  await until('alpha to be indexed', () => pairOf(emu, alpha)?.status === 'ACTIVE');
});

afterAll(async () => {
  await emu?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('kis connector list and status', () => {
  it('lists one row per pair: connector, source, pair id, status, documents, last success, in error', async () => {
    const r = await kis(['connector', 'list'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(
      /^CONNECTOR +SOURCE +PAIR +STATUS +DOCUMENTS +LAST SUCCESS +IN ERROR$/,
    );
    expect(lines.find((l) => l.startsWith('alpha '))).toMatch(
      new RegExp(`^alpha +web +${alpha} +ACTIVE +0 +\\d{4}-\\d\\d-\\d\\dT\\S+ +no$`),
    );
    const json = jsonLines((await kis(['--json', 'connector', 'list'], { env })).stdout);
    expect(json.find((row) => row.cc_pair_id === alpha)).toMatchObject({
      connector: 'alpha',
      source: 'web',
      status: 'ACTIVE',
      documents: 0,
      in_error: false,
      indexing: false,
    });
    expect(json.at(-1)).toEqual({ summary: { count: json.length - 1 } });
  });

  it('shows a pair by name: its detail, its latest attempts and unresolved errors', async () => {
    const r = await kis(['connector', 'status', 'alpha'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^pair ${alpha} "alpha": connector \\d+ "alpha" \\(web\\), credential 0$`),
    );
    expect(lines).toContain('  status:        ACTIVE');
    expect(lines).toContain('index attempts (newest first, 1 of 1):');
    expect(lines.find((l) => l.startsWith('  #'))).toMatch(
      /^ {2}#\d+ {2}success {2}started \S+: 0 document\(s\)/,
    );
    expect(lines).toContain('unresolved errors: none');
    const [json] = jsonLines(
      (await kis(['--json', 'connector', 'status', String(alpha)], { env })).stdout,
    );
    expect(json).toMatchObject({ pair: { id: alpha, status: 'ACTIVE' }, errors: [] });
  });

  it('refuses an unknown id and an ambiguous name, each on one line (exit 2)', async () => {
    expectOneError(
      await kis(['connector', 'status', '999'], { env }),
      2,
      new RegExp(
        `^error: pair 999: no such pair on ${literal(emu.baseUrl)}, or not one this key may reach \\(404 Not Found \\(".+"\\)\\)$`,
      ),
    );
    expectOneError(
      await kis(['connector', 'status', 'dup'], { env }),
      2,
      /^error: PAIR "dup" names 2 pairs \(ids \d+, \d+\); give the pair id instead$/,
    );
    expectOneError(
      await kis(['connector', 'pause', 'nope'], { env }),
      2,
      /^error: PAIR "nope": no pair has a connector or pair of that name \(names: .*"alpha".*\); give a pair id or a name from `kis connector list`$/,
    );
  });
});

describe('kis connector run, pause and resume', () => {
  it('says when a run is already going, pauses (canceling it), refuses to run a paused pair, resumes', async () => {
    await until('beta to be indexing', () => newestAttempt(emu, beta)?.status === 'in_progress');
    const again = await kis(['connector', 'run', 'beta'], { env });
    expectOneError(
      again,
      1,
      new RegExp(
        `^error: pair ${beta} "beta": not run: an index attempt is already running or waiting \\(kis connector status ${beta}\\)$`,
      ),
    );

    const paused = await kis(['connector', 'pause', 'beta'], { env });
    expect(paused.code).toBe(0);
    expect(paused.stdout).toBe(
      `pair ${beta} "beta": paused; its running attempt is being canceled\n`,
    );
    expect(pairOf(emu, beta)?.status).toBe('PAUSED');
    await until(
      'the attempt to be canceled',
      () => newestAttempt(emu, beta)?.status === 'canceled',
    );

    const refused = await kis(['--json', 'connector', 'run', String(beta), String(alpha)], { env });
    expect(refused.code).toBe(1);
    expect(jsonLines(refused.stdout)).toEqual([
      {
        cc_pair_id: beta,
        action: 'run',
        ok: false,
        error: `not run: the pair is paused; a run would wait until it is resumed (kis connector resume ${beta})`,
      },
      {
        cc_pair_id: alpha,
        action: 'run',
        ok: true,
        message: `run started (kis connector status ${alpha} --watch)`,
      },
      { summary: { ok: 1, failed: 1 } },
    ]);

    const resumed = await kis(['connector', 'resume', 'beta', 'alpha'], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe(
      `pair ${beta} "beta": resumed (was PAUSED)\npair ${alpha} "alpha": not paused (ACTIVE)\n`,
    );
    expect(pairOf(emu, beta)?.status).toBe('ACTIVE');
  });

  it('status --watch follows a run until its attempt ends: exit 0 on success, 1 on failure', async () => {
    for (const [outcome, code] of [
      ['succeed', 0],
      ['fail', 1],
    ] as const) {
      // an attempt left running ends first; the run's own then hangs until the test says
      emu.tasks.setAttemptOutcome('succeed', beta);
      await until(
        'no attempt running',
        () => !['not_started', 'in_progress'].includes(String(newestAttempt(emu, beta)?.status)),
      );
      emu.tasks.setAttemptOutcome('hang', beta);
      const started = await kis(['connector', 'run', String(beta), '--from-beginning'], { env });
      expect(started.stdout).toBe(
        `pair ${beta} "beta": run started, re-reading the whole source (kis connector status ${beta} --watch)\n`,
      );
      await until(
        'the run to be in progress',
        () => newestAttempt(emu, beta)?.status === 'in_progress',
      );
      const child = spawnKis(['connector', 'status', 'beta', '--watch', '--interval', '100ms'], {
        env,
      });
      let seen = '';
      child.stdout?.on('data', (d: Buffer) => {
        seen += d.toString('utf8');
      });
      await until('the first status', () => seen.includes('unresolved errors'));
      emu.tasks.setAttemptOutcome(outcome, beta);
      // collect() listens from now on: what came before is in `seen`
      const r = await collect(child);
      expect(r.code).toBe(code);
      expect(seen.startsWith(`pair ${beta} "beta"`)).toBe(true);
      const status = outcome === 'succeed' ? 'success' : 'failed';
      expect(seen).toMatch(
        new RegExp(`\\n\\S+Z {2}ACTIVE {2}attempt #\\d+ ${status}, \\d+ document\\(s\\)\\n`),
      );
      expect(seen).toContain(', from the beginning');
    }
  });
});

describe('kis connector prune and delete', () => {
  it('starts a prune and says when one is already running', async () => {
    const r = await kis(['connector', 'prune', 'alpha'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^pair ${alpha} "alpha": prune started: `));
    expectOneError(
      await kis(['connector', 'prune', String(alpha)], { env }),
      1,
      new RegExp(
        `^error: pair ${alpha} "alpha": not pruned: a prune of this pair is already running$`,
      ),
    );
  });

  it('asks before deleting (refused without a terminal or --yes), then deletes and waits', async () => {
    expectOneError(
      await kis(['connector', 'delete', 'alpha'], { env }),
      2,
      /^error: connector delete: this deletes 1 pair\(s\) and their documents; pass --yes to confirm \(stdin is not a terminal to ask\)$/,
    );
    expect(pairOf(emu, alpha)?.status).not.toBe('DELETING');
    const r = await kis(['--json', 'connector', 'delete', 'alpha', '--yes', '--wait'], { env });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      { cc_pair_id: alpha, action: 'delete', ok: true, message: 'deletion started' },
      { cc_pair_id: alpha, action: 'delete', gone: true },
      { summary: { ok: 1, failed: 0, gone: 1 } },
    ]);
    expect(pairOf(emu, alpha)).toBeUndefined();
  });
});

describe('kis docs status', () => {
  it('says whether documents are indexed, with chunks and tokens; exit 1 when one is not', async () => {
    await api(emu, 'POST', '/svc-api/ingestion', {
      document: {
        id: 'notes.txt',
        semantic_identifier: 'Notes',
        sections: [{ text: 'one two three' }],
        metadata: {},
      },
    });
    await emu.indexer.idle();
    const r = await kis(['docs', 'status', 'notes.txt'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('notes.txt  indexed  1 chunk(s), 3 token(s)\n');
    const json = await kis(['--json', 'docs', 'status', 'notes.txt', 'missing.txt'], { env });
    expect(json.code).toBe(1);
    expect(jsonLines(json.stdout)).toEqual([
      { document_id: 'notes.txt', indexed: true, chunks: 1, tokens: 3 },
      { document_id: 'missing.txt', indexed: false },
      { summary: { indexed: 1, not_indexed: 1 } },
    ]);
  });
});

// Keys without the rights on deployed servers: the error names what the key lacks.
describe.runIf(testProfile() === 'deployed')('a key without the rights', () => {
  async function newKey(on: Emulator, body: Record<string, unknown>): Promise<string> {
    const made = (await api(on, 'POST', '/admin/api-key', body)) as { api_key: string };
    return made.api_key;
  }

  it('main line: names the permission the key lacks, for the command it ran', async () => {
    const key = await newKey(emu, { name: 'no-group' });
    const keyEnv = envFor(emu, key);
    const denied = (doing: string, needs: string, op: string) =>
      new RegExp(
        `^error: permission denied: ${literal(doing)} needs ${needs}, which this key lacks: ${literal(emu.baseUrl)} answered 403 Forbidden \\("You do not have the required permissions for this action\\."\\) on ${op}; add the key to a group that grants ${needs} \\(kis doctor shows what the key holds\\)$`,
      );
    expectOneError(
      await kis(['connector', 'pause', String(beta)], { env: keyEnv }),
      3,
      denied(`reading pair ${beta}`, 'manage:connectors', 'getCcPair'),
    );
    expectOneError(
      await kis(['ingest', 'notes.txt', '--cc-pair', String(beta)], { env: keyEnv, cwd: work }),
      3,
      denied(`kis ingest into pair ${beta}`, 'manage:connectors', 'getCcPair'),
    );
    expectOneError(
      await kis(['docs', 'status', 'notes.txt'], { env: keyEnv }),
      3,
      denied('checking document notes.txt', 'basic', 'getDocumentSizeInfo'),
    );
  });

  it('release 4.6.1: names the role instead', async () => {
    const release = await emulator({ release: 'v4.6.1' });
    try {
      const key = await newKey(release, { name: 'basic', role: 'basic' });
      const gamma = await newPair(release, 'gamma');
      expectOneError(
        await kis(['connector', 'run', String(gamma)], { env: envFor(release, key) }),
        3,
        new RegExp(
          `^error: permission denied: reading pair ${gamma} was refused because the key's role is neither curator nor admin: ${literal(release.baseUrl)} answered 403 Forbidden \\("Access denied\\. User is not a curator or admin\\."\\); use a key of role admin \\(kis doctor shows the key's role\\)$`,
        ),
      );
      // an unknown pair is still an unknown pair
      expectOneError(
        await kis(['connector', 'status', '999'], { env: envFor(release) }),
        2,
        /^error: pair 999: no such pair on .+ \(404 Not Found \("CC Pair not found for current user permissions"\)\)$/,
      );
    } finally {
      await release.close();
    }
  });
});
