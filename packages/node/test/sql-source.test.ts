/**
 * The SQL source against a private PostgreSQL 15 and MariaDB 10.11 (no driver mocks): rows as
 * documents, the mapping checked against the query's columns, bad input failing alone or as one
 * clear line, incremental syncs that send exactly what changed and delete what is gone, key
 * ranges, and a password that appears nowhere.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKisClient, type KisClient, type Logger } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { freePort } from '@kis/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type SqlSourceOptions, sqlSource, sync } from '../src/index.js';
import {
  CANARY,
  createTickets,
  type Dialect,
  insertTickets,
  startDatabase,
  type TestDatabase,
  tickets,
} from './sql/tables.js';

const MAPPING = {
  table: 'tickets',
  id: 'id',
  title: 'subject',
  text: ['body', 'notes'],
  metadata: ['status'],
  updatedAt: 'updated_at',
  link: 'https://crm.example.com/ticket/{id}',
  idPrefix: 'crm/',
} as const;

for (const dialect of ['postgres', 'mysql'] as Dialect[]) {
  describe(`sqlSource on ${dialect === 'postgres' ? 'PostgreSQL' : 'MariaDB'}`, () => {
    let db: TestDatabase;
    let emulator: Emulator;
    let kis: KisClient;
    let ccPairId: number;
    let work: string;
    const logs: string[] = [];
    const warnings: string[] = [];
    const keep = (message: string, fields?: Record<string, unknown>) => {
      logs.push(`${message} ${JSON.stringify(fields ?? {})}`);
    };
    const logger: Logger = { error: keep, warn: keep, info: keep, debug: keep };

    const source = (options: Partial<SqlSourceOptions> = {}) =>
      sqlSource({
        connection: db.url,
        ...MAPPING,
        onWarning: (_ref, m) => warnings.push(m),
        ...options,
      } as SqlSourceOptions);

    beforeAll(async () => {
      [db, emulator] = await Promise.all([
        startDatabase(dialect),
        startEmulator({ port: 0, dbPath: ':memory:' }),
      ]);
      work = mkdtempSync(join(tmpdir(), `kis-sql-${dialect}-`));
    }, 120_000);
    afterAll(async () => {
      await Promise.all([db?.close(), emulator?.close()]);
      rmSync(work, { recursive: true, force: true });
      // the password went nowhere: logs, warnings
      expect(logs.join('\n')).not.toContain(CANARY);
      expect(warnings.join('\n')).not.toContain(CANARY);
    });
    beforeEach(async () => {
      emulator.state.reset();
      warnings.length = 0;
      kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'debug',
        logger,
      });
      const setup = await kis.setupConnector({
        connector: {
          name: 'CRM',
          source: 'ingestion_api',
          input_type: 'load_state',
          access_type: 'public',
          connector_specific_config: {},
        },
      });
      ccPairId = setup.ccPairId as number;
    });

    it('sends each row as a document: id, title, sections, metadata, time, link', async () => {
      await db.sql(createTickets(dialect, tickets(3)));
      const summary = await kis.ingestMany(source(), { ccPairId }).done();
      expect(summary).toMatchObject({ created: 3, failed: 0 });
      const stored = emulator.state.document('crm%2F2');
      expect(stored).toMatchObject({
        semantic_identifier: 'Ticket 2',
        title: 'Ticket 2',
        source: 'ingestion_api',
        link: 'https://crm.example.com/ticket/2',
        metadata: { status: 'open' },
        sections: [
          { text: 'The body of ticket 2.', link: 'https://crm.example.com/ticket/2' },
          { text: 'Notes on 2.', link: 'https://crm.example.com/ticket/2' },
        ],
      });
      expect(stored?.doc_updated_at).toMatch(/^2024-01-01T00:02:00(\.000)?(Z|\+00:00)$/);
      // a null among several text columns leaves its section out
      expect(emulator.state.document('crm%2F1')?.sections).toHaveLength(1);
    });

    it('reads a query with a heading column, any column in the link', async () => {
      await db.sql(createTickets(dialect, tickets(2)));
      const run = kis.ingestMany(
        source({
          table: undefined,
          query:
            "SELECT id, subject, body, status, updated_at, 'Support' AS team FROM tickets WHERE id = 2;",
          text: 'body',
          heading: 'team',
          link: 'https://crm.example.com/{status}/{id}?q={subject}',
          metadata: ['status', 'team'],
        }),
        { ccPairId },
      );
      expect(await run.done()).toMatchObject({ created: 1 });
      expect(emulator.state.document('crm%2F2')).toMatchObject({
        metadata: { status: 'open', team: 'Support' },
        sections: [
          {
            text: 'Support\n\nThe body of ticket 2.',
            link: 'https://crm.example.com/open/2?q=Ticket%202',
          },
        ],
      });
    });

    it('connects by each scheme of its database', async () => {
      await db.sql(createTickets(dialect, tickets(1)));
      const schemes =
        dialect === 'postgres' ? ['postgres:', 'postgresql:'] : ['mysql:', 'mariadb:'];
      for (const scheme of schemes) {
        const url = db.url.replace(/^[a-z]+:/, scheme);
        expect(await source({ connection: url }).check()).toContain('updated_at');
      }
    });

    it('checks the mapping against the query before anything is sent', async () => {
      await db.sql(createTickets(dialect, tickets(2)));
      const before = emulator.stats().ingestion.requests;
      const noId = sqlSource({
        connection: db.url,
        query: 'SELECT subject, body FROM tickets',
        id: 'id',
        text: 'body',
      });
      await expect(noId.check()).rejects.toThrow(
        'the query has no column "id" (id); its columns: subject, body',
      );
      const typo = source({ text: ['bdy'] });
      await expect(kis.ingestMany(typo, { ccPairId }).done()).rejects.toThrow(
        /the query has no column "bdy" \(text\), did you mean "body"\?; its columns: id, subject, body, notes, status, updated_at/,
      );
      expect(emulator.stats().ingestion.requests).toBe(before);
    });

    it('says what is wrong with the database in one line, without the password', async () => {
      await db.sql(createTickets(dialect, tickets(1)));
      const wrong = source({ connection: db.urlWith({ password: `${CANARY}-wrong` }) });
      const denied = await wrong.check().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(denied?.message).toMatch(
        /^cannot connect to (postgres|mysql):\/\/kis@127\.0\.0\.1:\d+\/kis: /,
      );
      expect(denied?.message).toMatch(
        dialect === 'postgres' ? /password authentication failed/ : /Access denied/,
      );
      const port = await freePort();
      const down = source({ connection: `${dialect}://kis:${CANARY}@127.0.0.1:${port}/kis` });
      const refused = await down.check().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(refused?.message).toBe(
        `cannot connect to ${dialect}://kis@127.0.0.1:${port}/kis: connection refused (is the server running, on that host and port?)`,
      );
      const syntax = source({ table: undefined, query: 'SELECT id, subject, body FORM tickets' });
      const failed = await syntax.check().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(failed?.message).toMatch(/^the query failed on .*: .*(syntax|FORM)/);
      for (const e of [denied, refused, failed]) {
        expect(e?.message).not.toContain(CANARY);
        expect(String(e?.stack)).not.toContain(CANARY);
        expect(e?.message.split('\n')).toHaveLength(1);
      }
      expect(() => sqlSource({ ...MAPPING, connection: `redis://x:${CANARY}@h/0` })).toThrow(
        /^connection scheme redis:\/\/ is not one an SQL source reads/,
      );
    });

    it('fails a row with a null text or a duplicate id alone, naming it', async () => {
      const rows = tickets(4);
      (rows[1] as { body: string | null }).body = null;
      await db.sql(
        `${createTickets(dialect, rows)} ${dialect === 'postgres' ? 'ALTER TABLE tickets DROP CONSTRAINT tickets_pkey;' : 'ALTER TABLE tickets DROP PRIMARY KEY;'} ${insertTickets([{ ...(rows[2] as (typeof rows)[number]), subject: 'Copy' }])}`,
      );
      const failures: string[] = [];
      const run = kis.ingestMany(source({ text: 'body' }), {
        ccPairId,
        onResult: (r) => {
          if (r.status === 'failed') failures.push(`${r.ref}: ${r.error?.message}`);
        },
      });
      expect(await run.done()).toMatchObject({ created: 3, failed: 2 });
      expect(failures.sort()).toEqual([
        'crm/2: row crm/2: its text column "body" is null',
        'crm/3: duplicate id crm/3: an earlier row of this run has it (the id column "id" must be unique); this row is not sent',
      ]);
    });

    it('syncs incrementally: exactly the changed rows sent, deleted rows deleted', async () => {
      await db.sql(createTickets(dialect, tickets(20)));
      const path = join(work, `incremental-${dialect}.jsonl`);
      const journal = openJournal(path);
      const first = source({ state: journal });
      const s1 = await sync(kis, first, { ccPairId, owns: first.owns, journal, prune: true });
      expect(s1.plan.create).toHaveLength(20);
      const done1 = await s1.run().done();
      expect(done1).toMatchObject({ created: 20, failed: 0 });
      expect(first.window?.mode).toBe('full');
      expect(await first.finish(done1)).toBe(true);

      // two updates, one insert, one delete
      await db.sql(
        `UPDATE tickets SET body = 'Changed.', updated_at = '2024-03-01 00:00:00' WHERE id IN (3, 7);
         ${insertTickets(tickets(1, 21).map((t) => ({ ...t, updated: '2024-03-01 00:00:01' })))}
         DELETE FROM tickets WHERE id = 5;`,
      );
      const requestsBefore = emulator.stats().ingestion.requests;
      const second = source({ state: journal });
      const s2 = await sync(kis, second, { ccPairId, owns: second.owns, journal, prune: true });
      expect(second.window?.mode).toBe('incremental');
      expect(s2.plan.create.map((e) => e.documentId)).toEqual(['crm%2F21']);
      expect(s2.plan.update.map((e) => e.documentId).sort()).toEqual(['crm%2F3', 'crm%2F7']);
      expect(s2.plan.delete.map((e) => e.documentId)).toEqual(['crm%2F5']);
      const done2 = await s2.run().done();
      expect(done2).toMatchObject({ created: 1, updated: 2, deleted: 1, failed: 0 });
      expect(emulator.stats().ingestion.requests - requestsBefore).toBe(3);
      expect(await second.finish(done2)).toBe(true);

      // nothing changed: the rows at the cursor are read, proven unchanged, not sent
      const third = source({ state: journal });
      const s3 = await sync(kis, third, { ccPairId, owns: third.owns, journal, prune: true });
      expect(s3.plan.create.length + s3.plan.update.length + s3.plan.delete.length).toBe(0);
      await s3.run().done();
      expect(emulator.stats().ingestion.requests - requestsBefore).toBe(3);
      journal.close();
      const text = readFileSync(path, 'utf8');
      expect(text).toContain('"state":"sql:');
      expect(text).not.toContain(CANARY);
    });

    it('reads every row again, said aloud, when the update time went backwards', async () => {
      await db.sql(createTickets(dialect, tickets(5)));
      const journal = openJournal(join(work, `backwards-${dialect}.jsonl`));
      const first = source({ state: journal });
      expect(await kis.ingestMany(first, { ccPairId, journal }).done()).toMatchObject({
        created: 5,
      });
      expect(await first.finish({ failed: 0, aborted: 0 })).toBe(true);
      await db.sql("UPDATE tickets SET updated_at = '2023-06-01 00:00:00';");
      journal.refresh();
      const again = source({ state: journal });
      const summary = await kis.ingestMany(again, { ccPairId, journal }).done();
      expect(again.window?.mode).toBe('full');
      expect(warnings.join('\n')).toMatch(
        /the update-time column "updated_at" went backwards \(its largest value 2023-06-01.* is below the last run's cursor 2024-01-01.*\): reading every row again/,
      );
      // every row read, none sent: the update time is part of each row's fingerprint, so
      // they go again once, as updates
      expect(summary.failed).toBe(0);
      journal.close();
    });

    it('keeps its cursor when the run did not store everything', async () => {
      await db.sql(createTickets(dialect, tickets(3)));
      const journal = openJournal(join(work, `kept-${dialect}.jsonl`));
      const first = source({ state: journal });
      await kis.ingestMany(first, { ccPairId, journal }).done();
      expect(await first.finish({ failed: 1, aborted: 0 })).toBe(false);
      expect(await first.finish({ failed: 0, aborted: 2 })).toBe(false);
      journal.refresh();
      const again = source({ state: journal });
      await kis.ingestMany(again, { ccPairId, journal }).done();
      expect(again.window?.mode).toBe('full');
      journal.close();
    });

    it('cuts the key set into ranges that read back the same rows', async () => {
      await db.sql(createTickets(dialect, tickets(25)));
      const planner = source();
      const ranges = [];
      for await (const r of planner.ranges(10)) ranges.push(r);
      expect(ranges).toEqual([
        { after: null, upTo: 10, count: 10 },
        { after: 10, upTo: 20, count: 10 },
        { after: 20, upTo: 25, count: 5 },
      ]);
      const worker = source();
      const ids: string[] = [];
      for (const range of ranges)
        for await (const item of worker.rangeItems(range)) ids.push(item.id as string);
      expect(ids).toEqual(tickets(25).map((t) => `crm/${t.id}`));
    });

    it('resumes a stopped run without sending again what was acknowledged', async () => {
      await db.sql(createTickets(dialect, tickets(200)));
      const path = join(work, `resume-${dialect}.jsonl`);
      const journal = openJournal(path);
      const first = source({ state: journal, idPrefix: `resume-${dialect}/` });
      const resentBefore = emulator.stats().ingestion.resent_after_ack;
      let seen = 0;
      const run = kis.ingestMany(first, { ccPairId, journal, concurrency: 4 });
      for await (const _ of run) if (++seen === 50) run.stop();
      const stopped = await run.done();
      expect(stopped.created).toBeLessThan(200);
      expect(await first.finish(stopped)).toBe(false);
      journal.refresh(); // what this process recorded since the journal was opened
      const again = source({ state: journal, idPrefix: `resume-${dialect}/` });
      const resumed = await kis.ingestMany(again, { ccPairId, journal }).done();
      expect(resumed.skipped).toBe(stopped.created);
      expect(resumed.created + resumed.skipped).toBe(200);
      expect(emulator.stats().ingestion.resent_after_ack).toBe(resentBefore);
      journal.close();
    });
  });
}
