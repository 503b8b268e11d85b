/**
 * `sync` against the emulator in both profiles: the plan from the pair's listing, the
 * journal and ownership; the requests sent are exactly what changed; prunes keep to owned ids
 * and refuse to wipe a pair; a lost journal re-sends without duplicates and still prunes.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKisClient,
  type IngestionDocumentInput,
  type IngestJournal,
  type JournalEntry,
  type KisClient,
} from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type SyncItem, sync } from '../src/index.js';

class MemoryJournal implements IngestJournal {
  readonly acked = new Map<string, string>();
  readonly fingerprints = new Map<string, string | undefined>();
  has(id: string, hash: string) {
    return this.acked.get(id) === hash;
  }
  record(entry: JournalEntry) {
    this.acked.set(entry.id, entry.hash);
    this.fingerprints.set(entry.id, entry.fingerprint);
  }
  fingerprintOf(id: string) {
    return this.fingerprints.get(id);
  }
}

const doc = (id: string, text: string): IngestionDocumentInput => ({
  id,
  semantic_identifier: id,
  sections: [{ text }],
  metadata: {},
  source: 'file',
});

for (const profile of ['seed', 'deployed'] as const) {
  describe(`sync (${profile} profile)`, () => {
    let emulator: Emulator;
    let kis: KisClient;
    let ccPairId: number;
    const sent: string[] = [];

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, dbPath: ':memory:', profile });
    });
    afterAll(async () => {
      await emulator?.close();
    });
    beforeEach(async () => {
      emulator.state.reset();
      kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
        fetch: (input: RequestInfo | URL, init?: RequestInit) => {
          const request = new Request(input, init);
          sent.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/api/, '')}`);
          return fetch(request);
        },
      });
      const setup = await kis.setupConnector({
        connector: {
          name: 'Folder',
          source: 'file',
          input_type: 'load_state',
          access_type: 'public',
          connector_specific_config: { file_locations: [] },
        },
      });
      ccPairId = setup.ccPairId as number;
      // a document of another source sharing the pair: never this sync's to delete
      await kis.ingestion.ingest({ document: doc('other/x', 'x'), cc_pair_id: ccPairId });
      sent.length = 0;
    });

    const ids = async () =>
      (await kis.ingestion.listConnectorDocuments(ccPairId)).map((d) => d.document_id).sort();
    const writes = () => sent.filter((s) => !s.startsWith('GET'));

    async function syncRun(source: SyncItem[], journal: IngestJournal, extra = {}) {
      const session = await sync(kis, source, { ccPairId, owns: ['docs/'], journal, ...extra });
      const results = [];
      if (!session.plan.refused) for await (const r of session.run()) results.push(r);
      return { plan: session.plan, results };
    }

    it('creates, then sends only what changed, and prunes only owned ids', async () => {
      const journal = new MemoryJournal();
      const v1 = [doc('docs/a', 'A'), doc('docs/b', 'B'), doc('docs/c', 'C')];
      const first = await syncRun(v1, journal, { prune: true });
      expect(first.plan.create.map((e) => e.documentId)).toEqual([
        'docs%2Fa',
        'docs%2Fb',
        'docs%2Fc',
      ]);
      expect(first.plan.owned).toBe(0);
      expect(writes()).toHaveLength(3);
      expect(await ids()).toEqual(['docs%2Fa', 'docs%2Fb', 'docs%2Fc', 'other%2Fx']);

      sent.length = 0;
      const again = await syncRun(v1, journal, { prune: true });
      expect(again.plan.unchanged).toHaveLength(3);
      expect(again.results).toEqual([]);
      expect(writes()).toEqual([]);

      sent.length = 0;
      const v2 = [doc('docs/a', 'A'), doc('docs/b', 'B2'), doc('docs/d', 'D')];
      const second = await syncRun(v2, journal, { prune: true });
      expect(second.plan.update.map((e) => e.documentId)).toEqual(['docs%2Fb']);
      expect(second.plan.create.map((e) => e.documentId)).toEqual(['docs%2Fd']);
      expect(second.plan.delete.map((e) => e.documentId)).toEqual(['docs%2Fc']);
      expect(writes().sort()).toEqual([
        'DELETE /svc-api/ingestion/docs%252Fc',
        'POST /svc-api/ingestion',
        'POST /svc-api/ingestion',
      ]);
      expect(second.results.map((r) => `${r.action}:${r.documentId}:${r.status}`)).toEqual([
        'update:docs%2Fb:updated',
        'create:docs%2Fd:created',
        'delete:docs%2Fc:deleted',
      ]);
      expect(await ids()).toEqual(['docs%2Fa', 'docs%2Fb', 'docs%2Fd', 'other%2Fx']);
      expect(emulator.state.document('docs%2Fb')?.sections).toEqual([
        expect.objectContaining({ text: 'B2' }),
      ]);
    });

    it('a file journal proves a second sync in the same process unchanged (refreshed)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kis-sync-journal-'));
      try {
        const journal = openJournal(join(dir, 'journal.jsonl'));
        const v1 = [doc('docs/a', 'A'), doc('docs/b', 'B')];
        await syncRun(v1, journal);
        // what this run recorded went to the file, not to memory: the next plan reads it back
        expect(journal.size).toBe(0);
        sent.length = 0;
        const again = await syncRun(v1, journal);
        expect(again.plan.unchanged).toHaveLength(2);
        expect(writes()).toEqual([]);
        journal.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('without prune, reports what it would delete and deletes nothing', async () => {
      const journal = new MemoryJournal();
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B')], journal);
      const { plan } = await syncRun([doc('docs/a', 'A')], journal);
      expect(plan.delete.map((e) => e.documentId)).toEqual(['docs%2Fb']);
      expect(await ids()).toEqual(['docs%2Fa', 'docs%2Fb', 'other%2Fx']);
    });

    it('refuses to wipe a pair from an empty source unless forced', async () => {
      const journal = new MemoryJournal();
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B'), doc('docs/c', 'C')], journal);
      sent.length = 0;
      const refused = await syncRun([], journal, { prune: true });
      expect(refused.plan.refused).toMatch(/would delete 3 of the 3 documents .* limit of 1/);
      expect(writes()).toEqual([]);
      await expect(
        sync(kis, [], { ccPairId, owns: ['docs/'], prune: true }).then((s) => s.run()),
      ).rejects.toThrow(/sync refused/);
      const forced = await syncRun([], journal, { prune: true, force: true });
      expect(forced.results.map((r) => r.status)).toEqual(['deleted', 'deleted', 'deleted']);
      expect(await ids()).toEqual(['other%2Fx']);
      // a count limit
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B')], journal);
      const counted = await syncRun([], journal, { prune: true, maxDelete: 2 });
      expect(counted.plan.refused).toBeUndefined();
      expect(await ids()).toEqual(['other%2Fx']);
    });

    it('a lost journal re-sends what it cannot prove unchanged, without duplicates, and prunes', async () => {
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B')], new MemoryJournal());
      sent.length = 0;
      const rebuilt = await syncRun([doc('docs/a', 'A')], new MemoryJournal(), { prune: true });
      expect(rebuilt.plan.update.map((e) => e.documentId)).toEqual(['docs%2Fa']);
      expect(rebuilt.plan.delete.map((e) => e.documentId)).toEqual(['docs%2Fb']);
      expect(await ids()).toEqual(['docs%2Fa', 'other%2Fx']);
    });

    it('a matching fingerprint proves an item unchanged without building it', async () => {
      const journal = new MemoryJournal();
      let loads = 0;
      const item = (fingerprint: string, text: string) => ({
        id: 'docs/a',
        fingerprint,
        load: () => {
          loads++;
          return doc('docs/a', text);
        },
      });
      await syncRun([item('1:100', 'A')], journal);
      expect(loads).toBe(1);
      const same = await syncRun([item('1:100', 'A')], journal);
      expect(same.plan.unchanged).toHaveLength(1);
      expect(loads).toBe(1);
      // another fingerprint: built and hashed; same content is still unchanged
      const touched = await syncRun([item('1:200', 'A')], journal);
      expect(touched.plan.unchanged).toHaveLength(1);
      expect(loads).toBe(2);
      const edited = await syncRun([item('2:300', 'A2')], journal);
      expect(edited.plan.update).toHaveLength(1);
      expect(writes()).toEqual(['POST /svc-api/ingestion', 'POST /svc-api/ingestion']);
    });

    it('an asynchronous journal proves the same, asked planConcurrency at a time', async () => {
      const memory = new MemoryJournal();
      let inFlight = 0;
      let most = 0;
      const later = <T>(value: T) => {
        inFlight++;
        most = Math.max(most, inFlight);
        return new Promise<T>((resolve) =>
          setTimeout(() => {
            inFlight--;
            resolve(value);
          }, 1),
        );
      };
      const journal: IngestJournal = {
        has: (id, hash) => later(memory.has(id, hash)),
        record: (entry) => memory.record(entry),
        fingerprintOf: (id) => later(memory.fingerprintOf(id)),
      };
      const items = (text: string) =>
        Array.from({ length: 40 }, (_, i) => ({
          id: `docs/${i}`,
          fingerprint: `fp-${i}`,
          load: () => doc(`docs/${i}`, `${text} ${i}`),
        }));
      await syncRun(items('A'), journal);
      sent.length = 0;
      most = 0;
      const same = await syncRun(items('A'), journal, { planConcurrency: 3 });
      expect(same.plan.unchanged).toHaveLength(40);
      expect(writes()).toEqual([]);
      expect(most).toBeLessThanOrEqual(3);
    });

    it('a failed listing is thrown, and a source read meanwhile is left', async () => {
      let pulled = 0;
      function* many() {
        for (let i = 0; i < 1_000_000; i++) {
          pulled++;
          yield doc(`docs/${i}`, 'x');
        }
      }
      await expect(sync(kis, many(), { ccPairId: 987_654, owns: ['docs/'] })).rejects.toThrow(
        /987654/,
      );
      expect(pulled).toBeLessThan(1_000_000);
    });

    it('run({ send: false }) carries out the deletions alone', async () => {
      const journal = new MemoryJournal();
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B')], journal);
      sent.length = 0;
      const session = await sync(kis, [doc('docs/a', 'A2'), doc('docs/c', 'C')], {
        ccPairId,
        owns: ['docs/'],
        journal,
        prune: true,
      });
      expect(session.plan.update.map((e) => e.documentId)).toEqual(['docs%2Fa']);
      const results = [];
      for await (const r of session.run({ send: false })) results.push(r);
      expect(results.map((r) => `${r.action}:${r.documentId}:${r.status}`)).toEqual([
        'delete:docs%2Fb:deleted',
      ]);
      expect(writes()).toEqual(['DELETE /svc-api/ingestion/docs%252Fb']);
      expect(emulator.state.document('docs%2Fa')?.sections).toEqual([
        expect.objectContaining({ text: 'A' }),
      ]);
    });

    it('a document already gone when deleted counts as deleted (404)', async () => {
      const journal = new MemoryJournal();
      await syncRun([doc('docs/a', 'A'), doc('docs/b', 'B')], journal);
      const session = await sync(kis, [doc('docs/a', 'A')], {
        ccPairId,
        owns: (id) => id.startsWith('docs%2F'),
        journal,
        prune: true,
      });
      await kis.ingestion.delete('docs%2Fb');
      const summary = await session.run().done();
      expect(summary).toMatchObject({ deleted: 1, failed: 0, unchanged: 1 });
    });
  });
}
