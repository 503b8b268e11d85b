/**
 * `verify` of a folder, a JSONL file and a journal against the emulator (both profiles), and its
 * repair: what each sabotage broke is re-sent from the source, through the pair's journal though
 * the journal holds it, without `doc_updated_at` so the server re-indexes it; a legacy model
 * switch re-pushes the whole source once and records it; a second verification passes.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKisClient, type KisClient } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FileJournal,
  folderSource,
  journalItems,
  jsonlSource,
  openJournal,
  SWITCH_REPUSH_STATE,
  verify,
} from '../src/index.js';

const FILES = 12;

for (const profile of ['seed', 'deployed'] as const) {
  describe(`verify (${profile} profile)`, () => {
    let emulator: Emulator;
    let kis: KisClient;
    let work: string;
    let docs: string;
    let journal: FileJournal;
    let ccPairId: number;
    const posted: string[] = [];

    beforeAll(async () => {
      emulator = await startEmulator({
        port: 0,
        dbPath: ':memory:',
        profile,
        tasks: { portMs: 60_000 },
      });
      work = mkdtempSync(join(tmpdir(), 'kis-verify-'));
      docs = join(work, 'docs');
      mkdirSync(docs);
      for (let i = 0; i < FILES; i++) {
        const file = join(docs, `note-${i}.md`);
        writeFileSync(
          file,
          `# Note ${i}\n\nThe q${i}z gadget of week ${i} met the orchard team.\n`,
        );
        // a fixed time: every push of an unchanged file sends the same doc_updated_at
        utimesSync(file, 1_700_000_000, 1_700_000_000);
      }
    });
    afterAll(async () => {
      await emulator?.close();
      rmSync(work, { recursive: true, force: true });
    });
    beforeEach(async () => {
      emulator.state.reset();
      posted.length = 0;
      kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const request = new Request(input, init);
          if (request.method === 'POST' && request.url.endsWith('/svc-api/ingestion')) {
            const body = (await request.clone().json()) as {
              document: { id: string; doc_updated_at?: string };
            };
            posted.push(`${body.document.id}${body.document.doc_updated_at ? ' @' : ''}`);
          }
          return fetch(request);
        },
      });
      const setup = await kis.setupConnector({
        connector: {
          name: 'Docs',
          source: 'file',
          input_type: 'load_state',
          access_type: 'public',
          connector_specific_config: { file_locations: [] },
        },
      });
      ccPairId = setup.ccPairId as number;
      rmSync(join(work, 'journal.jsonl'), { force: true });
      journal = openJournal(join(work, 'journal.jsonl'));
      const sent = await kis.ingestMany(folderSource([docs]), { ccPairId, journal }).done();
      expect(sent.created).toBe(FILES);
      await emulator.indexer.idle();
      posted.length = 0;
    });

    const failuresOf = async (run: Awaited<ReturnType<typeof verify>>) => {
      const summary = await run.done();
      return {
        summary,
        byReason: Object.fromEntries(
          Object.entries(summary.failures).map(([r, f]) => [r, [...(f?.ids ?? [])].sort()]),
        ),
      };
    };

    it('repairs what was broken from the folder, through the journal that holds it', async () => {
      await kis.ingestion.delete('docs%2Fnote-1.md');
      await kis.documents.setHidden('docs%2Fnote-2.md', true);
      emulator.sabotage.dropChunks('docs%2Fnote-3.md');
      const found = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal }),
      );
      expect(found.byReason).toEqual({
        missing: ['docs%2Fnote-1.md'],
        hidden: ['docs%2Fnote-2.md'],
        unindexed: ['docs%2Fnote-3.md'],
      });
      expect(found.summary.repair).toBeUndefined();
      expect(posted).toEqual([]);

      const repaired = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal, repair: true }),
      );
      expect(repaired.summary.repair).toMatchObject({
        scope: 'failures',
        notResendable: 0,
        ingest: { total: 3, failed: 0 },
      });
      // re-sent though the journal holds them, stamped anew with the time of the send
      expect(posted.sort()).toEqual(['docs/note-1.md @', 'docs/note-2.md @', 'docs/note-3.md @']);
      await emulator.indexer.idle();
      const again = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal }),
      );
      expect(again.summary.ok).toBe(true);
      // the journal took the re-sends: an ingest of the folder (a new process reads the journal
      // anew: refresh) sends nothing
      journal.refresh();
      posted.length = 0;
      const rerun = await kis.ingestMany(folderSource([docs]), { ccPairId, journal }).done();
      expect(rerun.skipped).toBe(FILES);
      expect(posted).toEqual([]);
    });

    it('during a legacy model switch, re-pushes the whole source once and records it', async () => {
      emulator.modelSwitch.start({ use_port_flow: false });
      const flagged = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal }),
      );
      expect(flagged.summary.ok).toBe(false);
      expect(flagged.summary.modelSwitch).toMatchObject({ needsRepush: true });
      const repaired = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal, repair: true }),
      );
      expect(repaired.summary.repair).toMatchObject({
        scope: 'model-switch',
        ingest: { total: FILES, failed: 0 },
        recordedFor: repaired.summary.modelSwitch?.indexName,
      });
      expect(posted).toHaveLength(FILES);
      expect(repaired.summary.ok).toBe(true);
      expect(repaired.summary.modelSwitch).toMatchObject({ needsRepush: false });
      expect(journal.stateOf(SWITCH_REPUSH_STATE)).toMatchObject({
        indexName: repaired.summary.modelSwitch?.indexName,
      });
      const after = await failuresOf(
        await verify(kis, folderSource([docs]), { ccPairId, journal }),
      );
      expect(after.summary.ok).toBe(true);
      expect(after.summary.modelSwitch?.repushedAt).toEqual(expect.any(String));
      emulator.modelSwitch.finish();
      const swapped = await failuresOf(await verify(kis, undefined, { ccPairId, journal }));
      expect(swapped.summary.ok).toBe(true);
      expect(swapped.summary.checked).toBe(FILES);
    });

    it('verifies what a journal acknowledged, and a JSONL file', async () => {
      await kis.ingestion.delete('docs%2Fnote-4.md');
      const fromJournal = await failuresOf(
        await verify(kis, journalItems(journal.path, { ccPairId }), { ccPairId }),
      );
      expect(fromJournal.byReason).toEqual({ missing: ['docs%2Fnote-4.md'] });
      expect(fromJournal.summary.checks.findable.passed).toBe(FILES - 1);
      expect(
        await failuresOf(
          await verify(kis, journalItems(journal.path, { ccPairId: 99 }), { ccPairId }),
        ),
      ).toMatchObject({ summary: { checked: 0 } });

      const jsonl = join(work, 'export.jsonl');
      writeFileSync(
        jsonl,
        ['a', 'b']
          .map((x) =>
            JSON.stringify({
              id: `row-${x}`,
              semantic_identifier: `Row ${x}`,
              sections: [{ text: `Row ${x}: the z${x}9 gizmo` }],
              metadata: {},
            }),
          )
          .join('\n'),
      );
      const rows = await failuresOf(
        await verify(kis, jsonlSource(jsonl), { ccPairId, journal, repair: true }),
      );
      expect(rows.byReason).toEqual({ missing: ['row-a', 'row-b'] });
      expect(rows.summary.repair?.ingest.created).toBe(2);
      await emulator.indexer.idle();
      expect(
        (await failuresOf(await verify(kis, jsonlSource(jsonl), { ccPairId }))).summary.ok,
      ).toBe(true);
    });

    it('a repair needs a source; a journal’s items cannot be re-sent and say so', async () => {
      await expect(verify(kis, undefined, { ccPairId, repair: true })).rejects.toThrow(/source/);
      emulator.sabotage.dropChunks('docs%2Fnote-5.md');
      const run = await verify(kis, journalItems(journal.path), { ccPairId, repair: true });
      const { summary } = await failuresOf(run);
      expect(summary.repair).toMatchObject({ notResendable: 1, ingest: { total: 0 } });
    });
  });
}
