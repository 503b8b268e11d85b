/**
 * Ingest a folder: every text file (.txt, .md… : the `text` and `markdown` kinds of the rule
 * book's `FILE_KINDS`, `@kis/rules`) under a directory becomes one document, pushed with
 * `ingestMany` (bounded concurrency, retries, one bad file never stops the rest) and recorded in
 * a journal so an interrupted run resumes without re-sending what the server acknowledged.
 *
 *   node dist/main.js <folder>
 *
 * Configuration, by environment:
 *   KIS_BASE_URL    base URL of the service, including /api
 *   KIS_API_KEY     an API key that can manage connectors (admin; curator or admin on deployed
 *                   servers, which ask it for ingestion too)
 *   KIS_CC_PAIR_ID  the connector/credential pair to attach documents to; when unset, a pair to
 *                   push into is set up first (an `ingestion_api` connector: no connector run
 *                   indexes it and no prune empties it)
 *   KIS_JOURNAL     journal file; when set, a re-run skips documents the server already
 *                   acknowledged with the same content (without it, a re-run updates them)
 *   KIS_CONCURRENCY requests in flight (default 8)
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { createKisClient, type IngestionDocument } from '@kis/client';
import { openJournal } from '@kis/node';
import { fileKindOf } from '@kis/rules';

const folder = process.argv[2];
const { KIS_BASE_URL: baseUrl, KIS_API_KEY: apiKey } = process.env;
if (!folder || !baseUrl || !apiKey) {
  console.error('usage: KIS_BASE_URL=… KIS_API_KEY=… node dist/main.js <folder>');
  process.exit(2);
}

const dir: string = folder;
const kis = createKisClient({ baseUrl, apiKey });

// 1. The pair the documents belong to: given, or a new pair to push into. Not a `file`
//    connector: it lists only its files, so a prune of its pair would delete every document
//    pushed here; an `ingestion_api` one is never indexed nor emptied by the server.
const SOURCE = 'file';
let ccPairId = process.env.KIS_CC_PAIR_ID ? Number(process.env.KIS_CC_PAIR_ID) : null;
if (ccPairId === null) {
  const setup = await kis.setupIngestionPair({ name: `Folder ${basename(dir)}` });
  ccPairId = setup.ccPairId;
  console.log(`set up connector ${setup.connectorId} with credential ${setup.credentialId}`);
}
console.log(`ingesting ${relative(process.cwd(), dir) || '.'} into cc_pair ${ccPairId}`);

// 2. The documents, produced lazily: ingestMany pulls the next one only when a slot frees, so
//    memory stays flat however large the folder is.
async function* documents(): AsyncGenerator<{ document: IngestionDocument; ref: string }> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const kind = fileKindOf(entry.name);
    if (!entry.isFile() || (kind?.kind !== 'text' && kind?.kind !== 'markdown')) continue;
    const path = join(entry.parentPath, entry.name);
    const rel = relative(dir, path).split(sep).join('/');
    const text = await readFile(path, 'utf8');
    // when the file last changed: the server skips a re-push of unchanged content (its hash gate)
    const updated = (await stat(path)).mtime.toISOString();
    const heading = text.match(/^#\s+(.+)$/m)?.[1] ?? text.split('\n', 1)[0]?.trim();
    yield {
      ref: rel,
      document: {
        id: `folder:${rel}`, // stable: a re-run updates the same document instead of duplicating it
        semantic_identifier: heading || rel,
        sections: [{ text }],
        source: SOURCE,
        metadata: { path: rel, type: kind.fileType },
        doc_updated_at: updated,
      },
    };
  }
}

// 3. Send them. The journal, if any, skips what was already acknowledged with the same content.
const journal = process.env.KIS_JOURNAL ? openJournal(process.env.KIS_JOURNAL) : undefined;
const run = kis.ingestMany(documents(), {
  ccPairId,
  journal,
  concurrency: Number(process.env.KIS_CONCURRENCY ?? 8),
});
for await (const result of run) {
  const detail = result.error
    ? `: ${result.error.message}`
    : result.status === 'created' || result.status === 'updated'
      ? ` (already_existed: ${result.status === 'updated'})`
      : '';
  console.log(`${result.status.padEnd(8)} ${result.ref} → ${result.documentId ?? '-'}${detail}`);
}
const s = await run.done();
journal?.close();
console.log(
  `${s.created} created, ${s.updated} updated, ${s.skipped} skipped (journal), ${s.failed} failed in ${(s.elapsedMs / 1000).toFixed(2)} s`,
);
process.exit(s.failed > 0 ? 1 : 0);
