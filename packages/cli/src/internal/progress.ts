import { createRequire } from 'node:module';
import type { IngestProgress } from '@kis/client';
import type CliProgress from 'cli-progress';
import { formatDuration, formatRate, type Io, type Paint } from './output.js';

export interface ProgressCounts {
  /** Items finished (sent and answered, failed, skipped, or ignored). */
  processed: number;
  failed: number;
  skipped: number;
  /** Documents stored per second (default: items processed less skipped, per second so far). */
  ratePerSec?: number | undefined;
  /** The concurrency limit now (shown when given). */
  concurrency?: number | undefined;
  /** Documents waiting to retry (shown when some are). */
  waiting?: number | undefined;
  /** When the run paused for an outage (ms since epoch), while it is paused. */
  pausedSince?: number | undefined;
  /** Why it paused (the last error), while it is paused. */
  pauseReason?: string | undefined;
}

/** The progress line's counts from a run's progress (kis ingest and kis sync alike). */
export function progressCounts(p: IngestProgress): ProgressCounts {
  return {
    processed: p.done,
    failed: p.failed,
    skipped: p.skipped,
    ratePerSec: p.ratePerSec,
    concurrency: p.concurrency,
    waiting: p.waiting,
    pausedSince: p.pausedSince,
    pauseReason: p.pauseReason,
  };
}

/** "14:02:11", local time. */
function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

/**
 * An error message as a short reason: without the request (`POST http://…`), which is the same
 * for every document, on one line, at most `max` characters.
 */
export function shortReason(text: string, max = 80): string {
  const line = text
    .replace(/\s+/g, ' ')
    .replace(/^Connection failed: [A-Z]+ \S+?: /, '')
    .replace(/ on [A-Z]+ \S+?(?=: |\.? |\.?$)/, '')
    .replace(/^[A-Z]+ \S+ (timed out)/, '$1')
    .replace(/\.$/, '')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "paused: server not answering since 14:02:11 (503 Service Unavailable …) — probing". */
export function pauseText(since: number, reason: string | undefined): string {
  return `paused: server not answering since ${clock(since)}${reason ? ` (${shortReason(reason)})` : ''} — probing`;
}

export interface ProgressReporter {
  /** The number of items to process, once known (walking is lazy, so it may come late). */
  setTotal(total: number): void;
  update(counts: ProgressCounts): void;
  /** Prints a line without breaking the bar (failures as they happen). */
  log(line: string): void;
  stop(): void;
}

/** Progress on stderr: a redrawn bar on a TTY, plain lines every `intervalMs` otherwise. */
export function createProgress(
  io: Io,
  options: { label: string; enabled: boolean; paint: Paint; intervalMs?: number },
): ProgressReporter {
  const started = Date.now();
  let total: number | undefined;
  let counts: ProgressCounts = { processed: 0, failed: 0, skipped: 0 };

  const describe = (): string => {
    const elapsed = Date.now() - started;
    const rate =
      counts.ratePerSec ??
      (elapsed > 0 ? ((counts.processed - counts.skipped) * 1000) / elapsed : 0);
    const remaining = total === undefined ? undefined : Math.max(0, total - counts.processed);
    const eta =
      remaining === undefined || rate <= 0
        ? '?'
        : remaining === 0
          ? '0 s'
          : formatDuration((remaining / rate) * 1000);
    const parts = [`${counts.processed}/${total ?? '?'}`];
    if (counts.pausedSince !== undefined) {
      parts.push(pauseText(counts.pausedSince, counts.pauseReason));
    } else {
      parts.push(formatRate(rate), `ETA ${eta}`);
      if (counts.concurrency !== undefined) parts.push(`concurrency ${counts.concurrency}`);
    }
    parts.push(`failed ${counts.failed}`);
    if (counts.skipped > 0) parts.push(`skipped ${counts.skipped}`);
    if (counts.waiting) parts.push(`retrying ${counts.waiting}`);
    return parts.join(' | ');
  };

  if (!options.enabled) {
    return {
      setTotal: (n) => {
        total = n;
      },
      update: (c) => {
        counts = c;
      },
      log: (line) => io.stderr.write(`${line}\n`),
      stop: () => undefined,
    };
  }

  if (io.stderr.isTTY !== true) {
    const timer = setInterval(
      () => io.stderr.write(`${options.label}: ${describe()}\n`),
      options.intervalMs ?? 2000,
    );
    timer.unref();
    return {
      setTotal: (n) => {
        total = n;
      },
      update: (c) => {
        counts = c;
      },
      log: (line) => io.stderr.write(`${line}\n`),
      stop: () => clearInterval(timer),
    };
  }

  const { paint } = options;
  // the bar's library is loaded on a terminal only: runs in scripts and pipes never draw one
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const multibar = new cliProgress.MultiBar({
    stream: io.stderr,
    hideCursor: true,
    // Ctrl-C is handled by the command (it finishes the requests in flight), not by the bar.
    gracefulExit: false,
    clearOnComplete: false,
    stopOnComplete: false,
    fps: 10,
    format: () => {
      const width = 24;
      const ratio = total ? Math.min(1, counts.processed / total) : 0;
      const filled = Math.round(ratio * width);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      const failed = counts.failed > 0 ? paint.red(`failed ${counts.failed}`) : '';
      return `${options.label} ${paint.dim(bar)} ${describe().replace(/failed \d+/, failed || 'failed 0')}`;
    },
  });
  const bar = multibar.create(1, 0);
  return {
    setTotal: (n) => {
      total = n;
      bar.setTotal(Math.max(1, n));
    },
    update: (c) => {
      counts = c;
      bar.update(Math.min(c.processed, total ?? c.processed));
    },
    log: (line) => multibar.log(`${line}\n`),
    stop: () => {
      bar.update(Math.min(counts.processed, total ?? counts.processed));
      multibar.update(); // flushes lines logged since the last redraw
      multibar.stop();
    },
  };
}
