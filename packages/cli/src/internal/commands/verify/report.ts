/**
 * What `kis verify` prints: with `--json`, a line per failing document and the summary line;
 * otherwise the report at the end (counts per check, failing ids by reason, the model switch,
 * notes, the repair). `--report FILE` writes the summary line's object to FILE.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { VERIFY_CHECKS, VERIFY_REASONS, type VerifyReason, type VerifyResult } from '@kis/client';
import { fsReason, type NodeVerifySummary } from '@kis/node';
import { UsageError } from '../../errors.js';
import { formatDuration, formatRate, type Output } from '../../output.js';

/** Failing ids shown per reason in the human report (the JSON summary has all that were kept). */
const SHOWN_IDS = 20;

/** What each reason means, in the report's words. */
const REASON_TEXT: Record<VerifyReason, string> = {
  missing: 'not in the pair',
  unindexed: 'no chunks this key can see, though its pairs grant it',
  hidden: 'hidden from ordinary search',
  unfindable: 'not in the first 10 of admin search',
  'not-visible': 'the --as key should see it and does not',
  'unexpectedly-visible': 'the --as key sees it and should not',
  unreadable: 'the source item gives no document',
  'failed-call': 'a check failed after retries',
};

/** A failing document as its JSON line says it. */
export function resultLine(result: VerifyResult): Record<string, unknown> {
  return {
    document_id: result.documentId,
    ...(result.ref === undefined ? {} : { ref: result.ref }),
    reasons: result.reasons,
    checks: result.checks,
    ...(result.chunks === undefined ? {} : { chunks: result.chunks }),
    ...(result.query === undefined ? {} : { query: result.query }),
    ...(result.rank === undefined ? {} : { rank: result.rank }),
    ...(result.detail === undefined ? {} : { detail: result.detail }),
  };
}

/** The summary as its JSON line (and `--report FILE`) holds it. */
export function summaryObject(
  summary: NodeVerifySummary,
  verified: string,
): Record<string, unknown> {
  const { repair, ...rest } = summary;
  return {
    ...rest,
    verified,
    repair:
      repair === undefined
        ? null
        : {
            scope: repair.scope,
            not_resendable: repair.notResendable,
            sent: repair.ingest.total,
            created: repair.ingest.created,
            updated: repair.ingest.updated,
            failed: repair.ingest.failed,
            stopped: repair.ingest.stopped ?? null,
            recorded_for: repair.recordedFor ?? null,
          },
  };
}

const n = (value: number) => value.toLocaleString('en-US');

function checkLines(out: Output, summary: NodeVerifySummary, asked: ReadonlySet<string>): string[] {
  return VERIFY_CHECKS.map((check) => {
    const name = check.padEnd(9);
    if (!asked.has(check)) {
      return `  ${name} not checked${check === 'visible' ? ' (--as ENV checks what another key sees)' : ''}`;
    }
    const c = summary.checks[check];
    const failed = c.failed > 0 ? out.out.red(`${n(c.failed)} failed`) : '0 failed';
    return `  ${name} ${n(c.passed)} passed, ${failed}${c.skipped > 0 ? `, ${n(c.skipped)} skipped` : ''}`;
  });
}

function failureLines(summary: NodeVerifySummary): string[] {
  const lines: string[] = [];
  for (const reason of VERIFY_REASONS) {
    const f = summary.failures[reason];
    if (f === undefined) continue;
    const more = f.count - Math.min(f.ids.length, SHOWN_IDS);
    lines.push(
      `  ${reason} (${n(f.count)}: ${REASON_TEXT[reason]}): ${f.ids.slice(0, SHOWN_IDS).join(' ')}${more > 0 ? ` … and ${n(more)} more` : ''}`,
    );
  }
  return lines.length > 0 ? ['Failing, by reason:', ...lines] : [];
}

function switchLines(summary: NodeVerifySummary): string[] {
  const s = summary.modelSwitch;
  if (s === null) return [];
  const flow = s.portFlow ? 'port flow: pushed documents are copied' : 'legacy flow';
  const state = s.needsRepush
    ? "the new index gets none of the pair's pushed documents unless they are pushed again, and no call can read it: kis verify PATH… --repair re-pushes the pair from its source"
    : s.repushedAt !== undefined
      ? `the pair was re-pushed for it at ${s.repushedAt}`
      : 'searches and these checks read the current index until the swap';
  return [`Model switch in progress to ${s.modelName} (${s.indexName}, ${flow}): ${state}.`];
}

function repairLines(summary: NodeVerifySummary): string[] {
  const r = summary.repair;
  if (r === undefined) return [];
  const what =
    r.scope === 'model-switch'
      ? `re-pushed the whole source for the model switch (${n(r.ingest.total)} document(s))`
      : `re-sent ${n(r.ingest.total)} failing document(s)`;
  const lines = [
    `Repair: ${what} without doc_updated_at, so the server re-indexes them: ${n(r.ingest.created + r.ingest.updated)} stored, ${n(r.ingest.failed)} failed.`,
  ];
  if (r.notResendable > 0) {
    lines.push(
      `  ${n(r.notResendable)} failing document(s) have no content here to re-send (give the PATHs they came from).`,
    );
  }
  if (r.recordedFor !== undefined) lines.push(`  Recorded in the journal for ${r.recordedFor}.`);
  lines.push('  Run kis verify again to see them indexed.');
  return lines;
}

/** The human report at the end. */
export function printReport(
  out: Output,
  summary: NodeVerifySummary,
  on: { verified: string; asked: ReadonlySet<string> },
): void {
  const sample =
    summary.sampleSeed === undefined
      ? ''
      : ` (a sample of ${n(summary.checked)} of ${n(summary.total)}, --seed ${summary.sampleSeed} repeats it)`;
  const lines = [
    `Verified pair ${summary.ccPairId} against ${on.verified}: ${n(summary.checked)} document(s)${sample} in ${formatDuration(summary.elapsedMs)} (${formatRate(summary.ratePerSec)})`,
    ...checkLines(out, summary, on.asked),
    ...failureLines(summary),
    ...(summary.extra ? [`Listed in the pair, not in the source: ${n(summary.extra)}`] : []),
    ...switchLines(summary),
    ...(summary.notes.length > 0 ? ['Notes:', ...summary.notes.map((note) => `  - ${note}`)] : []),
    ...repairLines(summary),
    ...(summary.stopped === undefined ? [] : [`Stopped: ${summary.stopped}.`]),
  ];
  out.batch(() => {
    for (const line of lines) out.human(line);
  });
}

/** `--report FILE`: the summary line's object, for CI artifacts and scripts. */
export async function writeReport(
  file: string,
  cwd: string,
  summary: Record<string, unknown>,
): Promise<void> {
  try {
    await writeFile(resolve(cwd, file), `${JSON.stringify(summary, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`--report: cannot write "${file}": ${fsReason(error)}`);
  }
}
