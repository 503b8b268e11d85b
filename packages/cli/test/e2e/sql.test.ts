/**
 * `kis ingest` and `kis sync` of a database, as users run them: the built CLI with default flags
 * against the emulator and a private PostgreSQL and MariaDB. Full and incremental runs (exactly
 * the rows changed are sent, what is gone deleted), rows that fail alone, the mapping checked
 * before anything is sent, bad connection strings as one line, a run killed with SIGKILL resuming
 * without re-sending what the server acknowledged, a source declared in kis.yaml, and the
 * database's password found nowhere.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { freePort } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  collect,
  emulator,
  envFor,
  jsonLines,
  type KisResult,
  kis,
  spawnKis,
  waitForJournal,
} from '../helpers/cli.js';
import { newPair } from '../helpers/pairs.js';
import {
  CANARY,
  createTickets,
  type Dialect,
  filesText,
  insertTickets,
  startDatabase,
  type TestDatabase,
  tickets,
} from '../helpers/sql.js';

/** The mapping of every run here, ids under `namespace` (the emulator keeps one document per id). */
const mapping = (namespace: string) => [
  '--table',
  'tickets',
  '--id',
  'id',
  '--title',
  'subject',
  '--text',
  'body',
  '--metadata',
  'status',
  '--updated-at',
  'updated_at',
  '--link',
  'https://crm.example.com/t/{id}',
  '--namespace',
  namespace,
];

for (const dialect of ['postgres', 'mysql'] as Dialect[]) {
  describe(`kis ingest and kis sync of ${dialect === 'postgres' ? 'PostgreSQL' : 'MariaDB'}`, () => {
    let db: TestDatabase;
    let emu: Emulator;
    let env: Record<string, string>;
    let work: string;
    /** Everything every command printed, for the canary. */
    const printed: string[] = [];

    beforeAll(async () => {
      assertBuilt();
      [db, emu] = await Promise.all([startDatabase(dialect), emulator()]);
      env = envFor(emu);
      work = await mkdtemp(join(tmpdir(), `kis-sql-${dialect}-`));
    }, 120_000);
    afterAll(async () => {
      await emu?.close();
      await db?.close();
      if (work) await rm(work, { recursive: true, force: true });
    });

    const run = async (args: string[], extraEnv: Record<string, string> = {}) => {
      const result = await kis(args, { env: { ...env, ...extraEnv }, cwd: work });
      printed.push(result.stdout, result.stderr);
      return result;
    };
    const sent = () => emu.stats().ingestion.requests;
    const summaryOf = (r: KisResult) =>
      jsonLines(r.stdout).find((l) => 'summary' in l)?.summary as Record<string, number>;

    it('lists the rows with --dry-run, sends them all, then only the rows updated since', async () => {
      const MAPPING = mapping('crm/');
      await db.sql(createTickets(dialect, tickets(30)));
      const pair = String(await newPair(emu, `crm-${dialect}`));
      const before = sent();
      const dry = await run(['ingest', db.url, ...MAPPING, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain('crm/7\tcrm%2F7');
      expect(dry.stdout).toMatch(/Dry run: 30 document\(s\) valid, 0 failed/);
      expect(sent()).toBe(before);

      const first = await run(['--json', 'ingest', db.url, ...MAPPING, '--cc-pair', pair]);
      expect(first.code, first.stderr).toBe(0);
      expect(summaryOf(first)).toMatchObject({ created: 30, failed: 0 });
      expect(first.stderr).toMatch(/checked (postgres|mysql):\/\/kis@127\.0\.0\.1:\d+\/kis: /);
      expect(emu.state.document('crm%2F7')).toMatchObject({
        semantic_identifier: 'Ticket 7',
        sections: [{ text: 'The body of ticket 7.', link: 'https://crm.example.com/t/7' }],
        metadata: { status: 'closed' },
      });

      await db.sql(
        "UPDATE tickets SET body = 'Edited.', updated_at = '2024-06-01 00:00:00' WHERE id IN (3, 12, 25);",
      );
      const beforeSecond = sent();
      const second = await run(['--json', 'ingest', db.url, ...MAPPING, '--cc-pair', pair]);
      expect(second.code, second.stderr).toBe(0);
      // the three rows updated; the row at the last cursor is read again, proven by the journal
      expect(sent() - beforeSecond).toBe(3);
      expect(summaryOf(second)).toMatchObject({ updated: 3, skipped: 1, failed: 0 });
      expect(emu.state.document('crm%2F12')?.sections).toEqual([
        expect.objectContaining({ text: 'Edited.' }),
      ]);

      const third = await run(['ingest', db.url, ...MAPPING, '--cc-pair', pair]);
      expect(third.code).toBe(0);
      expect(sent() - beforeSecond).toBe(3);
    });

    it('syncs with --prune: what changed is sent, what is gone deleted, the rest untouched', async () => {
      const MAPPING = mapping('synced/');
      await db.sql(createTickets(dialect, tickets(20)));
      const pair = String(await newPair(emu, `crm-sync-${dialect}`));
      const first = await run(['sync', db.url, ...MAPPING, '--cc-pair', pair, '--prune']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(
        `Plan for cc pair ${pair}: 20 to create, 0 to update, 0 unchanged, 0 to delete`,
      );
      await db.sql(
        `DELETE FROM tickets WHERE id IN (4, 9); UPDATE tickets SET subject = 'Renamed', updated_at = '2024-07-01 00:00:00' WHERE id = 15; ${insertTickets([{ id: 21, subject: 'New', body: 'New body.', updated: '2024-07-01 00:00:00' }])}`,
      );
      const before = sent();
      const second = await run([
        '--json',
        'sync',
        db.url,
        ...MAPPING,
        '--cc-pair',
        pair,
        '--prune',
      ]);
      expect(second.code, second.stderr).toBe(0);
      expect(sent() - before).toBe(2);
      expect(summaryOf(second)).toMatchObject({ created: 1, updated: 1, deleted: 2, failed: 0 });
      expect(emu.state.document('synced%2F4')).toBeUndefined();
      expect(emu.state.document('synced%2F15')?.semantic_identifier).toBe('Renamed');
      expect(emu.state.document('synced%2F21')?.semantic_identifier).toBe('New');
    });

    it('fails a row with a null text and a duplicate id alone, each named; the rest are stored', async () => {
      const rows = tickets(10);
      (rows[6] as { body: string | null }).body = null;
      await db.sql(createTickets(dialect, rows));
      const pair = String(await newPair(emu, `crm-bad-rows-${dialect}`));
      const query =
        "SELECT id, subject, body, updated_at FROM tickets UNION ALL SELECT 5, 'Again', 'A second row 5', updated_at FROM tickets WHERE id = 1";
      const r = await run([
        'ingest',
        db.url,
        '--query',
        query,
        '--id',
        'id',
        '--title',
        'subject',
        '--text',
        'body',
        '--namespace',
        'rows/',
        '--cc-pair',
        pair,
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('rows/7: row rows/7: its text column "body" is null');
      expect(r.stdout).toMatch(/rows\/5: duplicate id rows\/5: an earlier row of this run has it/);
      expect(r.stdout).toMatch(/ 9 created/);
      expect(emu.state.document('rows%2F5')?.semantic_identifier).toBe('Ticket 5');
    });

    it('checks the mapping against the query before anything is sent', async () => {
      await db.sql(createTickets(dialect, tickets(5)));
      const before = sent();
      const missing = await run([
        '-q',
        'ingest',
        db.url,
        '--query',
        'SELECT subject, body FROM tickets',
        '--id',
        'id',
        '--text',
        'bodi',
      ]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        'error: the query has no column "id" (--id); no column "bodi" (--text), did you mean "body"?; its columns: subject, body\n',
      );
      const noTable = await run([
        '-q',
        'ingest',
        db.url,
        '--table',
        'nope',
        '--id',
        'id',
        '--text',
        'body',
      ]);
      expect(noTable.code).toBe(2);
      expect(noTable.stderr).toMatch(
        /^error: the query failed on (postgres|mysql):\/\/kis@127\.0\.0\.1:\d+\/kis: /,
      );
      const noText = await run(['-q', 'ingest', db.url, '--table', 'tickets', '--id', 'id']);
      expect(noText.code).toBe(2);
      expect(noText.stderr).toMatch(/^error: --text: required with a database/);
      expect(sent()).toBe(before);
    });

    it('says what is wrong with a connection string on one line, without its password', async () => {
      const MAPPING = mapping('crm/');
      const wrong = await run([
        '-q',
        'ingest',
        db.urlWith({ password: `${CANARY}-wrong` }),
        ...MAPPING,
      ]);
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toMatch(
        /^error: cannot connect to (postgres|mysql):\/\/kis@127\.0\.0\.1:\d+\/kis: .*\n$/,
      );
      const port = await freePort();
      const scheme = dialect === 'postgres' ? 'postgresql' : 'mariadb';
      const down = await run([
        '-q',
        'ingest',
        `${scheme}://kis:${CANARY}@127.0.0.1:${port}/kis`,
        ...MAPPING,
      ]);
      expect(down.code).toBe(3);
      expect(down.stderr).toBe(
        `error: cannot connect to ${scheme}://kis@127.0.0.1:${port}/kis: connection refused (is the server running, on that host and port?)\n`,
      );
      const noDatabase = await run([
        '-q',
        'ingest',
        `${scheme}://kis:${CANARY}@127.0.0.1:${port}`,
        ...MAPPING,
      ]);
      expect(noDatabase.code).toBe(2);
      expect(noDatabase.stderr).toMatch(/^error: PATH: connection .* names no database/);
      const withFiles = await run(['-q', 'ingest', db.url, 'docs', ...MAPPING]);
      expect(withFiles.code).toBe(2);
      expect(withFiles.stderr).toMatch(
        /^error: PATH: a database or a repository is read on its own/,
      );
    });

    it('warns when the update-time column went backwards, and reads every row again', async () => {
      const MAPPING = mapping('back/');
      await db.sql(createTickets(dialect, tickets(12)));
      const pair = String(await newPair(emu, `crm-back-${dialect}`));
      expect((await run(['ingest', db.url, ...MAPPING, '--cc-pair', pair])).code).toBe(0);
      await db.sql("UPDATE tickets SET updated_at = '2020-01-01 00:00:00';");
      const before = sent();
      const back = await run(['ingest', db.url, ...MAPPING, '--cc-pair', pair]);
      expect(back.code, back.stderr).toBe(0);
      expect(back.stderr).toMatch(/warning: .*the update-time column "updated_at" went backwards/);
      // doc_updated_at changed with the column: every row is sent again, as an update
      expect(sent() - before).toBe(12);
    });

    it('leaves the password in no output, journal or file under .kis/', () => {
      expect(printed.join('\n')).not.toContain(CANARY);
      expect(filesText(work)).not.toContain(CANARY);
    });
  });
}

describe('kis ingest of PostgreSQL killed with SIGKILL, and kis.yaml', () => {
  let db: TestDatabase;
  let emu: Emulator;
  let env: Record<string, string>;
  let work: string;
  const printed: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    // 30 ms of service time per request keeps the run long enough to kill
    [db, emu] = await Promise.all([startDatabase('postgres'), emulator({ latencyMs: 30 })]);
    env = envFor(emu);
    work = await mkdtemp(join(tmpdir(), 'kis-sql-kill-'));
  }, 120_000);
  afterAll(async () => {
    await emu?.close();
    await db?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('resumes without re-sending what the server acknowledged', async () => {
    const MAPPING = mapping('kill/');
    await db.sql(createTickets('postgres', tickets(300)));
    const pair = String(await newPair(emu, 'crm-kill'));
    const journal = join(work, 'kill.jsonl');
    const args = ['ingest', db.url, ...MAPPING, '--cc-pair', pair, '--journal', journal];
    const child = spawnKis([...args, '--concurrency', '2'], { env, cwd: work });
    const done = collect(child);
    await waitForJournal(journal, 40, child);
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    printed.push(killed.stdout, killed.stderr);
    const acknowledged = emu.stats().ingestion.acknowledged;
    expect(acknowledged).toBeLessThan(300);

    const again = await kis(['--json', ...args], { env, cwd: work });
    printed.push(again.stdout, again.stderr);
    expect(again.code, again.stderr).toBe(0);
    expect(emu.state.documents({ limit: -1 })).toHaveLength(300);
    // at most the documents in flight when it was killed (acknowledged, not yet journaled)
    expect(emu.stats().ingestion.resent_after_ack).toBeLessThanOrEqual(2);
    const summary = jsonLines(again.stdout).at(-1)?.summary as Record<
      'created' | 'updated' | 'skipped',
      number
    >;
    expect(summary.skipped).toBeGreaterThanOrEqual(acknowledged - 2);
    expect(summary.created + summary.updated + summary.skipped).toBe(300);
  });

  it('syncs a source kis.yaml declares into the pair kis apply made, the password kept out of the file', async () => {
    await db.sql(createTickets('postgres', tickets(8)));
    const file = join(work, 'kis.yaml');
    await writeFile(
      file,
      `connectors:
  - name: CRM tickets
    source: ingestion_api
    config: {}
    documents:
      sql:
        connection: \${CRM_DATABASE_URL}
        table: tickets
        id: id
        title: subject
        text: body
        updated_at: updated_at
        id_prefix: tickets/
`,
    );
    const withUrl = { ...env, CRM_DATABASE_URL: db.url };
    const before = await kis(['sync', '--from', 'kis.yaml', 'CRM tickets'], {
      env: withUrl,
      cwd: work,
    });
    expect(before.code).toBe(2);
    expect(before.stderr).toMatch(/has no pair on .* yet: run kis apply -f kis.yaml first/);
    const applied = await kis(['apply', '-f', 'kis.yaml'], { env: withUrl, cwd: work });
    expect(applied.code, applied.stderr).toBe(0);
    const again = await kis(['apply', '-f', 'kis.yaml', '--dry-run'], { env: withUrl, cwd: work });
    expect(again.stdout).toContain('Nothing to change.');
    const synced = await kis(['--json', 'sync', '--from', 'kis.yaml', 'CRM tickets', '--prune'], {
      env: withUrl,
      cwd: work,
    });
    printed.push(applied.stdout, applied.stderr, synced.stdout, synced.stderr);
    expect(synced.code, synced.stderr).toBe(0);
    expect(jsonLines(synced.stdout).at(-1)?.summary).toMatchObject({ created: 8, failed: 0 });
    expect(emu.state.document('tickets%2F3')?.semantic_identifier).toBe('Ticket 3');

    const unset = await kis(['sync', '--from', 'kis.yaml', 'CRM tickets'], { env, cwd: work });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('environment variable CRM_DATABASE_URL is not set');
    await writeFile(
      file,
      `connectors:\n  - name: CRM tickets\n    source: ingestion_api\n    config: {}\n    documents:\n      sql: { connection: "${db.url}", table: tickets, id: id, text: body }\n`,
    );
    const written = await kis(['sync', '--from', 'kis.yaml', 'CRM tickets'], { env, cwd: work });
    expect(written.code).toBe(2);
    expect(written.stderr).toMatch(/documents\.sql\.connection: holds a password/);
    printed.push(unset.stderr, written.stdout, written.stderr);
    await rm(file);
  });

  it('leaves the password in no output, journal or file under .kis/', () => {
    expect(printed.join('\n')).not.toContain(CANARY);
    expect(filesText(work)).not.toContain(CANARY);
  });
});
