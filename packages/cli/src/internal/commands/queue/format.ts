/**
 * `kis queue …` output: `@kis/queue`'s answers in the CLI's JSON shapes (snake_case keys, as the
 * API and the other commands print them) and in text.
 */
import type { FailedDocument, QueueStatus, RunStatus } from '@kis/queue';
import { formatRate } from '../../output.js';

export function failureJson(f: FailedDocument): Record<string, unknown> {
  return {
    run_id: f.runId,
    ordinal: f.ordinal,
    ref: f.ref ?? null,
    document_id: f.documentId,
    reason: f.reason,
    http_status: f.httpStatus ?? null,
    attempts: f.attempts,
    at: f.at,
    job_id: f.jobId,
  };
}

export function runJson(run: RunStatus): Record<string, unknown> {
  const d = run.documents;
  const j = run.jobs;
  return {
    run_id: run.runId,
    created_at: run.createdAt,
    state: run.phase,
    enqueue_state: run.state,
    finished: run.finished,
    cc_pair_id: run.ccPairId ?? null,
    batch_size: run.batchSize,
    sources: run.sources,
    documents: {
      total: d.total,
      created: d.created,
      updated: d.updated,
      stored: d.stored,
      failed: d.failed,
      pending: d.pending,
      duplicates: d.duplicates,
    },
    jobs: {
      total: j.total,
      completed: j.completed,
      failed: j.failed,
      active: j.active,
      waiting: j.waiting,
    },
    throughput: {
      per_sec: run.throughput.perSec,
      recent_per_sec: run.throughput.recentPerSec,
      overall_per_sec: run.throughput.overallPerSec,
    },
    failures: run.failures.map((f) => failureJson({ runId: run.runId, ...f })),
  };
}

export function statusJson(status: QueueStatus): Record<string, unknown> {
  return {
    queue: status.queue,
    workers: status.workers,
    paused: status.paused,
    rate_limited_for_ms: status.rateLimitedForMs,
    limits: {
      max_in_flight: status.limits.maxInFlight,
      rate_per_sec: status.limits.ratePerSec,
    },
    requests_per_sec: status.requestsPerSec,
    jobs: status.jobs,
    worker_stops: status.workerStops,
    runs: status.runs.map(runJson),
  };
}

/** "at most 16 in flight, 50/s", or "none". */
export function limitsText(limits: QueueStatus['limits']): string {
  const parts = [
    ...(limits.maxInFlight === null ? [] : [`at most ${limits.maxInFlight} in flight`]),
    ...(limits.ratePerSec === null ? [] : [`${formatRate(limits.ratePerSec)}`]),
  ];
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** The text of `kis queue status`: the queue, then a line per run and its first failures. */
export function statusText(status: QueueStatus, where: string): string[] {
  const j = status.jobs;
  const lines = [
    `queue ${status.queue} at ${where}: ${status.workers} worker(s); jobs ${j.waiting + j.prioritized} waiting, ${j.active} active, ${j.delayed} delayed, ${j.completed} completed (kept), ${j.failed} failed`,
    `limits: ${limitsText(status.limits)}; requests: ${formatRate(status.requestsPerSec)} over the last 10 s${status.paused ? '; paused' : ''}${
      status.rateLimitedForMs > 1_000
        ? `; paused for overload, ${(status.rateLimitedForMs / 1000).toFixed(1)} s left`
        : ''
    }`,
  ];
  for (const stop of status.workerStops.slice(0, 3)) {
    lines.push(`worker ${stop.worker} stopped at ${stop.at}: ${stop.reason}`);
  }
  if (status.runs.length === 0) {
    lines.push('no runs');
    return lines;
  }
  const rows = status.runs.map((run) => [
    run.runId,
    run.phase,
    `${run.documents.stored}/${run.documents.total}`,
    String(run.documents.failed),
    String(run.documents.pending),
    formatRate(run.throughput.perSec),
    run.createdAt.replace(/\.\d+Z$/, 'Z'),
  ]);
  const header = ['RUN', 'STATE', 'STORED', 'FAILED', 'PENDING', 'RATE', 'CREATED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  lines.push(line(header));
  status.runs.forEach((run, i) => {
    lines.push(line(rows[i] ?? []));
    for (const f of run.failures)
      lines.push(`    ${f.ref ?? f.documentId ?? f.ordinal}: ${f.reason}`);
  });
  return lines;
}
