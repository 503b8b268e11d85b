/**
 * An SQL ingest killed with SIGKILL mid-run resumes from its journal: what the server
 * acknowledged is not sent again (at most the requests on the wire at the kill are), the cursor
 * moves only after a complete run, and the password appears in no output and no journal line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKisClient } from '@kis/client';
import { startEmulator } from '@kis/emulator';
import { startPostgres, until } from '@kis/test-support';
import { describe, expect, it, onTestFinished } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/sql-ingest-child.mjs', import.meta.url));
const CANARY = 'kis-canary-5e3';
const ROWS = 1_500;

function runChild(env: Record<string, string>) {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

const acks = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{"id"')).length;

describe('an SQL ingest killed mid-run', () => {
  it('resumes from its journal without sending acknowledged rows again', async () => {
    const db = await startPostgres({ password: CANARY });
    const emulator = await startEmulator({ port: 0, dbPath: ':memory:', latencyMs: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'kis-sql-kill-'));
    onTestFinished(async () => {
      await emulator.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    await db.sql(`CREATE TABLE tickets AS SELECT n AS id, 'Ticket ' || n AS subject, 'Body ' || n AS body,
      timestamptz '2024-01-01' + n * interval '1 minute' AS updated_at FROM generate_series(1, ${ROWS}) AS n;`);
    const kis = createKisClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.adminKey,
      logLevel: 'off',
    });
    const { ccPairId } = await kis.setupConnector({
      connector: {
        name: 'Kill',
        source: 'ingestion_api',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: {},
      },
    });
    const journal = join(dir, 'journal.jsonl');
    const env = {
      KIS_BASE_URL: emulator.baseUrl,
      KIS_API_KEY: emulator.adminKey,
      KIS_SQL_URL: db.url,
      KIS_JOURNAL: journal,
      KIS_PAIR: String(ccPairId),
    };
    const killed = runChild(env);
    await until(
      () => {
        try {
          return acks(journal) >= 300;
        } catch {
          return false;
        }
      },
      '300 acknowledgements',
      60_000,
      5,
    );
    killed.child.kill('SIGKILL');
    await killed.exited;
    const before = acks(journal);
    expect(before).toBeLessThan(ROWS);

    const resumed = runChild(env);
    expect(await resumed.exited).toBe(0);
    const summary = JSON.parse(resumed.output().split('SUMMARY ')[1] as string);
    expect(summary.skipped).toBeGreaterThanOrEqual(before);
    expect(summary.created + summary.updated + summary.skipped).toBe(ROWS);
    expect(summary.moved).toBe(true);
    // at most the requests on the wire when it was killed went twice
    expect(emulator.stats().ingestion.resent_after_ack).toBeLessThanOrEqual(4);
    expect(
      emulator.state.documents({ limit: -1 }).filter((d) => d.id.startsWith('kill%2F')),
    ).toHaveLength(ROWS);
    const text = readFileSync(journal, 'utf8');
    expect(text).toContain('"state":"sql:postgres://kis@127.0.0.1:');
    for (const shown of [text, killed.output(), resumed.output()])
      expect(shown).not.toContain(CANARY);
  }, 120_000);
});
