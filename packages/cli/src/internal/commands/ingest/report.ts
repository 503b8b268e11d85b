/** What `kis ingest` says: one line per result, the progress counts, and the summary. */
import type { IngestProgress, IngestResult, IngestSummary } from '@kis/client';
import { oneLine } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { failureListLines } from '../../failure-list.js';
import { formatDuration, formatRate, type Output } from '../../output.js';
import { type ProgressCounts, progressCounts } from '../../progress.js';
import { IngestTally } from './tally.js';

export interface ReportOptions {
  dryRun: boolean;
  /** Named in failure messages (undefined in a dry run without a server). */
  baseUrl: string | undefined;
  /** What an item is, by its ref (a file kind, `jsonl`): a dry run counts documents by it. */
  kindOf: (ref: string) => string;
}

/** How the run ended, beyond the client's summary. */
export interface RunEnd {
  /** Ctrl-C (or SIGTERM) was pressed. */
  interrupted: boolean;
  /** The journal kept (`--journal`, or the pair's), resolved. */
  journalPath: string | undefined;
  /** `--cc-pair`. */
  ccPair: number | undefined;
}

/**
 * Collects and prints the results of one run. The counts are the client's (its progress and
 * summary); the report keeps only what the client never sees (ignored files) and what the text
 * summary lists (failures, the pairs documents went to).
 */
export class IngestReport {
  /** Files left out (unsupported types found in directories); they never reach the client. */
  ignored = 0;
  private readonly ignoredList: { ref: string; reason: string }[] = [];
  private readonly failures: { ref: string; reason: string }[] = [];
  private readonly pairs = new Set<number | null>();
  private readonly tally: IngestTally;

  constructor(
    private readonly out: Output,
    private readonly options: ReportOptions,
  ) {
    this.tally = new IngestTally(options.kindOf);
  }

  /**
   * A file left out: counted by reason, listed with `--verbose` (not kept otherwise: memory
   * stays flat).
   */
  ignore(ref: string, reason: string): void {
    this.ignored++;
    this.tally.ignored(reason);
    if (this.out.mode.verbose) this.ignoredList.push({ ref, reason });
    this.out.result({ ref, status: 'ignored', reason });
  }

  /** One result of the client: a JSON line (`--json`); a dry run's valid ids in text too. */
  result(result: IngestResult): void {
    const ref = result.ref ?? `item ${result.index + 1}`;
    const line: Record<string, unknown> = { ref, status: result.status };
    if (result.documentId) line.document_id = result.documentId;
    if (result.status === 'failed') {
      const reason = describeFailure(result.error, this.options.baseUrl).message;
      line.error = reason;
      this.failures.push({ ref, reason });
    }
    if (result.status === 'created' || result.status === 'updated') {
      this.pairs.add(result.ccPairId);
    }
    if (this.options.dryRun) this.tally.result(result);
    const human =
      result.status === 'valid' && result.documentId ? `${ref}\t${result.documentId}` : undefined;
    this.out.result(line, human);
  }

  /** The progress line's counts: the client's, plus the ignored files. */
  progress(p: IngestProgress): ProgressCounts {
    const counts = progressCounts(p);
    counts.processed += this.ignored;
    if (!this.options.dryRun) return counts;
    return { processed: counts.processed, failed: counts.failed, skipped: counts.skipped };
  }

  /** The `{"summary": …}` line (`--json`) or the text summary. */
  summary(s: IngestSummary, end: RunEnd): void {
    const stopped = s.stopped && {
      reason: s.stopped.reason,
      message: stopMessage(s, this.options.baseUrl),
    };
    const counts = this.options.dryRun
      ? { valid: s.valid, failed: s.failed, ignored: this.ignored }
      : {
          created: s.created,
          updated: s.updated,
          failed: s.failed,
          skipped: s.skipped,
          ignored: this.ignored,
          aborted: s.aborted,
        };
    this.out.result({
      summary: {
        ...counts,
        elapsed_ms: s.elapsedMs,
        rate_per_sec: Math.round(s.ratePerSec * 100) / 100,
        concurrency: s.concurrency,
        retried: s.retried,
        hedged: s.hedged,
        paused_ms: s.pausedMs,
        dry_run: this.options.dryRun,
        interrupted: end.interrupted,
        ...(stopped ? { stopped } : {}),
        ...(end.journalPath ? { journal: end.journalPath } : {}),
        ...(this.options.dryRun ? { by_kind: Object.fromEntries(this.tally.byKind()) } : {}),
        ignored_by_reason: Object.fromEntries(this.tally.ignoredByReason()),
      },
    });
    if (!this.out.mode.json) {
      for (const line of this.textSummary(s, end)) this.out.human(line);
    }
  }

  private textSummary(s: IngestSummary, end: RunEnd): string[] {
    const paint = this.out.out;
    const pad = (n: number) => String(n).padStart(7);
    const lines: string[] = [];
    if (this.options.dryRun) {
      lines.push(
        `Dry run: ${s.valid} document(s) valid, ${s.failed} failed, ${this.ignored} ignored, in ${formatDuration(s.elapsedMs)}; nothing was sent.`,
      );
      const kinds = this.tally.byKind();
      if (kinds.length > 0) lines.push('By kind:');
      for (const [kind, { valid, failed }] of kinds) {
        const failing = failed > 0 ? paint.red(` (${failed} would fail)`) : '';
        lines.push(`${pad(valid + failed)} ${kind}${failing}`);
      }
    } else {
      const pairs = pairsLabel(this.pairs.size > 0 ? this.pairs : new Set([end.ccPair ?? null]));
      const how = s.stopped ? 'Stopped' : end.interrupted ? 'Interrupted' : 'Done';
      lines.push(
        `${how}: ${s.created + s.updated} document(s) ingested into ${pairs} in ${formatDuration(s.elapsedMs)} (${formatRate(s.ratePerSec)})`,
        `${pad(s.created)} created`,
        `${pad(s.updated)} updated`,
        `${pad(s.skipped)} skipped (already acknowledged, from the journal)`,
        `${s.failed > 0 ? paint.red(pad(s.failed)) : pad(s.failed)} failed`,
      );
      if (s.aborted > 0) {
        lines.push(`${pad(s.aborted)} aborted (not stored: the run was interrupted or stopped)`);
      }
    }
    if (this.ignored > 0) {
      lines.push(`${pad(this.ignored)} ignored (found in directories, not sent):`);
      for (const [reason, n] of this.tally.ignoredByReason()) lines.push(`  ${pad(n)} ${reason}`);
      for (const i of this.ignoredList) lines.push(`          ${i.ref}: ${i.reason}`);
    }
    if (!this.options.dryRun) {
      lines.push(`${pad(s.retried)} retries`);
      if (s.hedged > 0) lines.push(`${pad(s.hedged)} hedged (a stalled send given a second copy)`);
      const { final, min, max } = s.concurrency;
      const paused = s.pausedMs > 0 ? `; paused ${formatDuration(s.pausedMs)} through outages` : '';
      lines.push(`Concurrency: ${final} at the end (lowest ${min}, highest ${max})${paused}`);
    }
    lines.push(...failureListLines(this.failures.map((f) => `${f.ref}: ${f.reason}`)));
    return lines;
  }
}

/**
 * Why the client stopped the run, on one line: in the command line's words when the error that
 * stopped it says it all (a rejected key, no server at the URL, an HTML page), else the client's.
 */
export function stopMessage(s: IngestSummary, baseUrl: string | undefined): string {
  const stopped = s.stopped;
  if (stopped === undefined) return '';
  if (stopped.error !== undefined) {
    const failure = describeFailure(stopped.error, baseUrl);
    if (failure.fatal) return failure.message;
  }
  return oneLine(stopped.message.replace(/^Stopped:\s*/, ''));
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
