import { setMaxListeners } from 'node:events';
import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import {
  checkIngestionRequest,
  type IngestItem,
  type IngestionDocument,
  type IngestJournal,
  type IngestResult,
  InternalServerError,
  type KisClient,
  KisError,
  normalizeDocumentId,
} from '@kis/client';
import { openJournal } from '@kis/client/node';
import type { Context } from '../context.js';
import { checkSource } from '../enums.js';
import { ExitCode, type ExitCodeValue, oneLine, UsageError } from '../errors.js';
import { extractFile, kindOf } from '../extract.js';
import { describeFailure } from '../failure.js';
import { openJsonlFile, readJsonl } from '../jsonl.js';
import { formatDuration, formatRate } from '../output.js';
import { mapConcurrent } from '../pool.js';
import { createProgress } from '../progress.js';
import { describeJsonType, fsReason, isPlainObject } from '../structured.js';
import { ImageUploads } from '../uploads.js';
import { type FoundFile, fileKey, walkFiles } from '../walk.js';

export interface IngestOptions {
  ccPair?: number;
  source?: string;
  concurrency: number;
  journal?: string;
  dryRun?: boolean;
  include: string[];
  exclude: string[];
  baseDir?: string;
}

/** The signals that interrupt a run; injectable so tests can drive them in-process. */
export interface InterruptSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/** One unit of input, before extraction. */
type Unit =
  | { kind: 'file'; file: FoundFile }
  | { kind: 'line'; ref: string; value: unknown }
  | { kind: 'error'; ref: string; reason: string };

/** One unit after extraction: a document to send, or a reason it is not sent. */
type Prepared =
  | { kind: 'doc'; item: IngestItem & { ref: string } }
  | { kind: 'failed'; ref: string; reason: string }
  | { kind: 'ignored'; ref: string; reason: string };

type Outcome = 'created' | 'updated' | 'skipped' | 'failed' | 'ignored' | 'aborted' | 'valid';

const JSONL_EXTENSIONS = new Set(['.jsonl', '.ndjson']);

/** Checks the PATH arguments before anything runs: they must exist (`-` at most once). */
async function classifyPaths(
  paths: readonly string[],
  cwd: string,
): Promise<{ walk: string[]; jsonl: string[]; stdin: boolean }> {
  const walk: string[] = [];
  const jsonl: string[] = [];
  let stdin = false;
  for (const path of paths) {
    if (path === '-') {
      if (stdin) throw new UsageError('ingest: "-" (JSONL on stdin) can be given only once');
      stdin = true;
      continue;
    }
    let info: Awaited<ReturnType<typeof stat>>;
    const absolute = resolve(cwd, path);
    try {
      info = await stat(absolute);
    } catch (error) {
      throw new UsageError(
        `ingest: PATH "${path}": ${fsReason(error)} (expected a file, a directory, a .jsonl file or - for stdin)`,
      );
    }
    if (info.isFile() && JSONL_EXTENSIONS.has(extname(path).toLowerCase())) jsonl.push(absolute);
    else walk.push(absolute);
  }
  return { walk, jsonl, stdin };
}

export async function ingestCommand(
  ctx: Context,
  paths: string[],
  options: IngestOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const started = Date.now();
  const { out, io } = ctx;
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir = resolve(io.cwd, options.baseDir ?? '.');
  if (options.baseDir !== undefined) {
    try {
      if (!(await stat(baseDir)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new UsageError(`--base-dir: "${options.baseDir}" is not a directory`);
    }
  }
  const inputs = await classifyPaths(paths, io.cwd);
  if (inputs.stdin && io.stdin.isTTY === true) {
    throw new UsageError(
      'ingest: "-" reads JSONL from stdin, but stdin is a terminal; pipe a file in',
    );
  }
  const dryRun = options.dryRun === true;

  let client: KisClient | undefined;
  let baseUrl: string | undefined;
  if (!dryRun) {
    baseUrl = (await ctx.connection()).baseUrl;
    client = await ctx.client();
  }

  let journal: (IngestJournal & { close(): void }) | undefined;
  let journalPath: string | undefined;
  if (options.journal !== undefined && !dryRun) {
    journalPath = resolve(io.cwd, options.journal);
    try {
      await mkdir(dirname(journalPath), { recursive: true });
      journal = openJournal(journalPath, { fsync: false });
    } catch (error) {
      throw new UsageError(`--journal: cannot use "${options.journal}": ${fsReason(error)}`);
    }
  }
  const uploads = new ImageUploads(client, journalPath);
  const runPair = options.ccPair;
  /** The pairs acknowledged documents went to (JSONL lines may choose their own). */
  const pairsUsed = new Set<number | null>();

  // ---- interruption: first Ctrl-C stops feeding (in-flight requests finish and are recorded),
  // a second one aborts the requests in flight.
  const run = { stopping: 'no' as 'no' | 'interrupt' | 'fatal' };
  let fatal: { message: string; exitCode: ExitCodeValue } | undefined;
  const abort = new AbortController();
  // One listener per request in flight (uploads, ingestMany): more than the default 10.
  setMaxListeners(0, abort.signal);
  let interrupts_ = 0;
  const progress = createProgress(io, {
    label: dryRun ? 'checking' : 'ingesting',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  const onSignal = () => {
    interrupts_++;
    if (run.stopping === 'no') run.stopping = 'interrupt';
    if (interrupts_ === 1) {
      progress.log(
        'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
      );
    } else {
      abort.abort();
    }
  };
  interrupts.on('SIGINT', onSignal);
  interrupts.on('SIGTERM', onSignal);

  // ---- counting (for the progress total), concurrently with the run
  if (!inputs.stdin) {
    void countUnits(inputs, baseDir, options).then(
      (total) => progress.setTotal(total),
      () => undefined,
    );
  }

  // ---- reporting
  const counts: Record<Outcome, number> = {
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    ignored: 0,
    aborted: 0,
    valid: 0,
  };
  const failures: { ref: string; reason: string }[] = [];
  const ignored: { ref: string; reason: string }[] = [];
  let consecutiveServerErrors = 0;
  const report = (
    ref: string,
    outcome: Outcome,
    detail: { documentId?: string | null; reason?: string },
  ) => {
    counts[outcome]++;
    if (outcome === 'failed') failures.push({ ref, reason: detail.reason ?? 'failed' });
    // Ignored files are listed only with --verbose; not kept otherwise (memory stays flat).
    if (outcome === 'ignored' && out.mode.verbose)
      ignored.push({ ref, reason: detail.reason ?? '' });
    const line: Record<string, unknown> = { ref, status: outcome };
    if (detail.documentId) line.document_id = detail.documentId;
    if (detail.reason !== undefined)
      line[outcome === 'failed' ? 'error' : 'reason'] = detail.reason;
    out.result(line);
    progress.update({
      processed:
        counts.created +
        counts.updated +
        counts.skipped +
        counts.failed +
        counts.ignored +
        counts.valid +
        counts.aborted,
      failed: counts.failed,
      skipped: counts.skipped,
    });
  };

  // ---- the pipeline: units → (extract, upload images; concurrently) → documents → ingestMany
  const prepare = async (unit: Unit): Promise<Prepared> => {
    try {
      return await prepareUnit(unit, { source, dryRun, uploads, signal: abort.signal });
    } catch (error) {
      const ref = unit.kind === 'file' ? unit.file.key : unit.ref;
      if (KisError.isInstance(error)) {
        // An image upload failed.
        const failure = describeFailure(error, baseUrl);
        if (failure.fatal) stopFatal(failure);
        return { kind: 'failed', ref, reason: `image upload failed: ${failure.message}` };
      }
      return { kind: 'failed', ref, reason: oneLine(error) };
    }
  };
  const stopFatal = (failure: { message: string; exitCode: ExitCodeValue }) => {
    if (fatal === undefined) fatal = { message: failure.message, exitCode: failure.exitCode };
    run.stopping = 'fatal';
    abort.abort();
  };

  const prepared = mapConcurrent(
    units(inputs, io.stdin, baseDir, options),
    prepare,
    Math.max(2, options.concurrency),
  );

  async function* documents(): AsyncGenerator<IngestItem> {
    for await (const p of prepared) {
      if (run.stopping !== 'no') return;
      if (p.kind === 'doc') yield p.item;
      else report(p.ref, p.kind, { reason: p.reason });
    }
  }

  try {
    if (dryRun) {
      for await (const p of prepared) {
        if (run.stopping !== 'no') break;
        if (p.kind !== 'doc') {
          report(p.ref, p.kind, { reason: p.reason });
          continue;
        }
        const { item } = p;
        const pair = item.ccPairId ?? runPair;
        const body =
          pair === undefined || pair === null
            ? { document: item.document }
            : { document: item.document, cc_pair_id: pair };
        const issues = await checkIngestionRequest(body);
        const first = issues[0];
        if (first) {
          const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
          report(item.ref, 'failed', {
            reason: `invalid document: ${first.path || '(root)'}: ${first.message}${more}`,
          });
        } else {
          const id = item.document.id;
          report(item.ref, 'valid', {
            documentId: typeof id === 'string' && id ? normalizeDocumentId(id) : null,
          });
        }
      }
    } else if (client) {
      const ingestRun = client.ingestMany(documents(), {
        concurrency: options.concurrency,
        signal: abort.signal,
        ...(runPair === undefined ? {} : { ccPairId: runPair }),
        ...(journal ? { journal } : {}),
      });
      for await (const result of ingestRun) {
        handleResult(result);
      }
    }
  } finally {
    interrupts.off('SIGINT', onSignal);
    interrupts.off('SIGTERM', onSignal);
    progress.stop();
    journal?.close();
  }

  function handleResult(result: IngestResult): void {
    const ref = result.ref ?? `item ${result.index + 1}`;
    if (result.status === 'failed') {
      const failure = describeFailure(result.error, baseUrl);
      if (failure.fatal) stopFatal(failure);
      if (InternalServerError.isInstance(result.error)) {
        consecutiveServerErrors++;
        if (consecutiveServerErrors >= 10) {
          stopFatal({
            message: `stopped after ${consecutiveServerErrors} consecutive server errors; last: ${failure.message}`,
            exitCode: ExitCode.Fatal,
          });
        }
      } else {
        consecutiveServerErrors = 0;
      }
      report(ref, 'failed', { documentId: result.documentId, reason: failure.message });
      return;
    }
    consecutiveServerErrors = 0;
    if (result.status === 'aborted') {
      report(ref, 'aborted', { documentId: result.documentId });
      return;
    }
    if (result.status === 'created' || result.status === 'updated') {
      pairsUsed.add(result.ccPairId ?? null);
    }
    report(ref, result.status, { documentId: result.documentId });
  }

  // ---- summary
  const elapsedMs = Date.now() - started;
  const acknowledged = counts.created + counts.updated;
  const rate = elapsedMs > 0 ? (acknowledged * 1000) / elapsedMs : 0;
  const interrupted = run.stopping === 'interrupt';
  const summary: Record<string, unknown> = dryRun
    ? { valid: counts.valid, failed: counts.failed, ignored: counts.ignored }
    : {
        created: counts.created,
        updated: counts.updated,
        failed: counts.failed,
        skipped: counts.skipped,
        ignored: counts.ignored,
        aborted: counts.aborted,
      };
  Object.assign(summary, {
    elapsed_ms: elapsedMs,
    rate_per_sec: Math.round(rate * 100) / 100,
    dry_run: dryRun,
    interrupted,
    ...(fatal ? { stopped: fatal.message } : {}),
    ...(journalPath ? { journal: journalPath } : {}),
  });
  out.result({ summary });
  if (!out.mode.json) {
    printHumanSummary();
  }
  if (fatal) {
    out.error(fatal.message);
    return fatal.exitCode;
  }
  if (interrupted) {
    out.warn(
      journalPath
        ? `interrupted; run the same command again (with --journal ${options.journal}) to resume`
        : 'interrupted; run again with --journal FILE to make runs resumable (documents already sent are updated, not duplicated)',
    );
    return ExitCode.Interrupted;
  }
  return counts.failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok;

  function printHumanSummary(): void {
    const p = out.out;
    const pad = (n: number) => String(n).padStart(7);
    const lines: string[] = [];
    if (dryRun) {
      lines.push(
        `Dry run: ${counts.valid} document(s) valid, ${counts.failed} failed, ${counts.ignored} ignored, in ${formatDuration(elapsedMs)}; nothing was sent.`,
      );
    } else {
      const pair = pairsLabel(pairsUsed.size > 0 ? pairsUsed : new Set([runPair ?? null]));
      lines.push(
        `${interrupted ? 'Interrupted' : 'Done'}: ${acknowledged} document(s) ingested into ${pair} in ${formatDuration(elapsedMs)} (${formatRate(rate)})`,
      );
      lines.push(`${pad(counts.created)} created`);
      lines.push(`${pad(counts.updated)} updated`);
      lines.push(`${pad(counts.skipped)} skipped (already acknowledged, from the journal)`);
      lines.push(`${counts.failed > 0 ? p.red(pad(counts.failed)) : pad(counts.failed)} failed`);
      if (counts.aborted > 0)
        lines.push(`${pad(counts.aborted)} aborted (in flight at the second Ctrl-C)`);
    }
    if (counts.ignored > 0) {
      lines.push(`${pad(counts.ignored)} ignored (unsupported file types found in directories)`);
      if (out.mode.verbose) for (const i of ignored) lines.push(`          ${i.ref}: ${i.reason}`);
    }
    if (failures.length > 0) {
      lines.push('Failures:');
      for (const f of failures) lines.push(`  ${f.ref}: ${f.reason}`);
    }
    for (const line of lines) out.human(line);
  }
}

/** The input units: files (walked lazily), then JSONL lines of files and of stdin. */
async function* units(
  inputs: { walk: string[]; jsonl: string[]; stdin: boolean },
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  baseDir: string,
  options: IngestOptions,
): AsyncGenerator<Unit> {
  if (inputs.walk.length > 0) {
    for await (const event of walkFiles(inputs.walk, {
      baseDir,
      filter: { include: options.include, exclude: options.exclude },
    })) {
      if (event.type === 'file') yield { kind: 'file', file: event.file };
      else yield { kind: 'error', ref: event.ref, reason: event.reason };
    }
  }
  for (const path of inputs.jsonl) {
    const name = fileKey(baseDir, path);
    yield* jsonlUnits(openJsonlFile(path), name);
  }
  if (inputs.stdin) yield* jsonlUnits(stdin as never, 'stdin');
}

async function* jsonlUnits(
  stream: import('node:stream').Readable,
  name: string,
): AsyncGenerator<Unit> {
  try {
    for await (const line of readJsonl(stream)) {
      const ref = `${name}:${line.line}`;
      if ('error' in line) yield { kind: 'error', ref, reason: line.error };
      else yield { kind: 'line', ref, value: line.value };
    }
  } catch (error) {
    yield { kind: 'error', ref: name, reason: `cannot read: ${fsReason(error)}` };
  }
}

/** Counts what {@link units} will produce, for the progress total (no extraction). */
async function countUnits(
  inputs: { walk: string[]; jsonl: string[] },
  baseDir: string,
  options: IngestOptions,
): Promise<number> {
  let total = 0;
  if (inputs.walk.length > 0) {
    for await (const _ of walkFiles(inputs.walk, {
      baseDir,
      filter: { include: options.include, exclude: options.exclude },
    })) {
      total++;
    }
  }
  for (const path of inputs.jsonl) {
    for await (const line of readJsonl(openJsonlFile(path))) {
      void line;
      total++;
    }
  }
  return total;
}

interface PrepareContext {
  source: string | undefined;
  dryRun: boolean;
  uploads: ImageUploads;
  signal: AbortSignal;
}

/** Turns one unit into a document (extracting text, uploading an image) or a reason not to. */
async function prepareUnit(unit: Unit, ctx: PrepareContext): Promise<Prepared> {
  if (unit.kind === 'error') return { kind: 'failed', ref: unit.ref, reason: unit.reason };
  if (unit.kind === 'line') return prepareLine(unit.ref, unit.value, ctx);
  const { file } = unit;
  const info = kindOf(file.path);
  if (!info) {
    const ext = extname(file.path) || '(no extension)';
    const reason = `unsupported file type ${ext}`;
    return file.explicit
      ? {
          kind: 'failed',
          ref: file.key,
          reason: `${reason}; expected .txt .md .html .pdf .docx .csv .json .png .jpg (or .jsonl of documents)`,
        }
      : { kind: 'ignored', ref: file.key, reason };
  }
  const extracted = await extractFile(file.path);
  const metadata: Record<string, string> = {
    file_type: extracted.fileType,
    relative_path: file.key,
  };
  const name = basename(file.path);
  const base = {
    id: file.key,
    source: ctx.source ?? 'file',
    metadata,
    ...(extracted.modified ? { doc_updated_at: extracted.modified.toISOString() } : {}),
  };
  let document: IngestionDocument;
  if (extracted.kind === 'image') {
    const fileId = ctx.dryRun ? 'dry-run' : await ctx.uploads.fileId(extracted, ctx.signal);
    document = {
      ...base,
      semantic_identifier: name,
      sections: [{ image_file_id: fileId, text: name }],
    } as IngestionDocument;
  } else {
    document = {
      ...base,
      semantic_identifier: extracted.title ?? name,
      ...(extracted.title ? { title: extracted.title } : {}),
      sections: [{ text: extracted.text }],
    } as IngestionDocument;
  }
  return { kind: 'doc', item: { document, ref: file.key } };
}

function prepareLine(ref: string, value: unknown, ctx: PrepareContext): Prepared {
  if (!isPlainObject(value)) {
    return {
      kind: 'failed',
      ref,
      reason: `expected a JSON object (a document, or an ingestion request {"document", "cc_pair_id"}), got ${describeJsonType(value)}`,
    };
  }
  let document: Record<string, unknown>;
  let ccPairId: number | null | undefined;
  if ('document' in value && !('semantic_identifier' in value)) {
    if (!isPlainObject(value.document)) {
      return {
        kind: 'failed',
        ref,
        reason: `"document" must be an object, got ${describeJsonType(value.document)}`,
      };
    }
    document = value.document;
    const pair = value.cc_pair_id;
    if (pair !== undefined && pair !== null && !(Number.isInteger(pair) && (pair as number) >= 0)) {
      return {
        kind: 'failed',
        ref,
        reason: `"cc_pair_id" must be a non-negative integer or null, got ${JSON.stringify(pair)}`,
      };
    }
    ccPairId = pair as number | null | undefined;
  } else {
    document = value;
  }
  if (ctx.source !== undefined && (document.source === undefined || document.source === null)) {
    document = { ...document, source: ctx.source };
  }
  const item: IngestItem & { ref: string } = { document: document as IngestionDocument, ref };
  if (ccPairId !== undefined) item.ccPairId = ccPairId;
  return { kind: 'doc', item };
}

/** "cc pair 2", "the default cc pair", or "cc pairs 2, 5 and the default cc pair". */
export function pairsLabel(pairs: ReadonlySet<number | null>): string {
  const ids = [...pairs].filter((p): p is number => p !== null).sort((a, b) => a - b);
  const parts = ids.map(String);
  if (pairs.has(null)) parts.push('the default cc pair');
  if (parts.length === 1) return ids.length === 1 ? `cc pair ${ids[0]}` : 'the default cc pair';
  const last = parts.pop();
  return `cc pairs ${parts.join(', ')} and ${last}`;
}
