/**
 * `kis connector status PAIR [--watch]`: the pair's detail, its latest index attempts and its
 * unresolved errors; `--watch` reads them again every `--interval` and says what changed until
 * no attempt is running (or waiting).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  APIError,
  type CcPairFullInfo,
  type IndexAttempt,
  type IndexingError,
  type KisClient,
} from '@kis/client';
import { isAttemptRunning, isAttemptSuccessful } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { durationArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { type InterruptSource, onInterrupts } from '../../interrupts.js';
import { repairLine } from '../../model-switch-lines.js';
import type { Output } from '../../output.js';
import { pairCall } from '../../pair-errors.js';
import { pairLabel, resolvePairIds } from '../../pair-ref.js';
import { pairHelp } from './pair-help.js';

export interface ConnectorStatusOptions {
  watch?: boolean;
  /** Milliseconds between two reads with --watch. */
  interval: number;
}

export function statusCommand({ act, interrupts, command }: CommandEnv): Command {
  return command('status')
    .description("a pair's detail, its latest index attempts and its unresolved errors")
    .argument('<pair>', 'pair id or connector name')
    .option('--watch', 'read it again until no index attempt is running or waiting')
    .option('--interval <duration>', 'with --watch: time between two reads', durationArg, 2000)
    .addHelpText(
      'after',
      pairHelp(
        [
          'kis connector status 5',
          'kis connector status "Project A" --watch',
          'kis --json connector status 5',
        ],
        'With --watch a line is printed each time the status, the newest attempt or its documents change, and the exit code says how the newest attempt ended (0 success, 1 failed or canceled; 130 on Ctrl-C). A model switch in progress is said on stderr, with what it means for pushed documents (the legacy flow leaves them out of the new index unless pushed again) and what kis verify --repair does about it.',
      ),
    )
    .action(
      act((ctx, pair: string, options: ConnectorStatusOptions) =>
        runConnectorStatus(ctx, pair, options, interrupts),
      ),
    );
}

/** How many of the newest attempts and unresolved errors the status shows. */
const ATTEMPTS_SHOWN = 5;
const ERRORS_SHOWN = 10;

/** What `status` prints: the pair, its newest attempts, its newest unresolved errors. */
export interface PairSnapshot {
  pair: CcPairFullInfo;
  attempts: IndexAttempt[];
  errors: IndexingError[];
}

async function first<T>(items: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  if (count <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

/** Reads the pair, its newest attempts and its newest unresolved errors. */
async function readSnapshot(client: KisClient, id: number, baseUrl: string): Promise<PairSnapshot> {
  const about = { ccPairId: id, baseUrl };
  const pair = await pairCall(
    { ...about, operationId: 'getCcPair', doing: `reading pair ${id}` },
    () => client.pairs.get(id),
  );
  const attempts = await pairCall(
    {
      ...about,
      operationId: 'listIndexAttempts',
      doing: `listing the index attempts of pair ${id}`,
    },
    () => first(client.pairs.attempts(id, { pageSize: ATTEMPTS_SHOWN }), ATTEMPTS_SHOWN),
  );
  const errors = await pairCall(
    { ...about, operationId: 'listIndexingErrors', doing: `listing the errors of pair ${id}` },
    () => first(client.pairs.errors(id, { pageSize: ERRORS_SHOWN }), ERRORS_SHOWN),
  );
  return { pair, attempts, errors };
}

/** True while the pair's newest attempt runs or waits to run. */
export function attemptRunning(s: PairSnapshot): boolean {
  return s.pair.indexing || isAttemptRunning(s.attempts[0]?.status ?? null);
}

function attemptLine(a: IndexAttempt): string {
  const started = a.time_started ? `started ${a.time_started}` : 'not started yet';
  const docs = `${a.total_docs_indexed} document(s) (${a.new_docs_indexed} new, ${a.docs_removed_from_index} removed)`;
  const from = a.from_beginning ? ', from the beginning' : '';
  const error = a.error_msg ? `; error: ${a.error_msg}` : '';
  const errors = a.error_count > 0 ? `; ${a.error_count} error(s)` : '';
  return `  #${a.id}  ${a.status ?? 'unknown'}  ${started}${from}: ${docs}${errors}${error}`;
}

function errorLine(e: IndexingError): string {
  const what = e.document_id ?? e.entity_id ?? 'the source';
  return `  ${e.time_created}  attempt #${e.index_attempt_id}  ${what}: ${e.failure_message}`;
}

/** The status of the pair's deletion, when one was started. */
function deletionLine(pair: CcPairFullInfo): string | undefined {
  if (pair.deletion_failure_message) return `failed: ${pair.deletion_failure_message}`;
  const attempt = pair.latest_deletion_attempt;
  if (!attempt) return pair.status === 'DELETING' ? 'started' : undefined;
  return attempt.status === 'PENDING'
    ? 'PENDING (waiting for running work to stop)'
    : attempt.status === 'STARTED'
      ? 'STARTED (removing its documents)'
      : attempt.status;
}

/** The human view of a snapshot. */
export function snapshotLines(s: PairSnapshot): string[] {
  const { pair } = s;
  const connector = `connector ${pair.connector.id} "${pair.connector.name}" (${pair.connector.source})`;
  const lines = [
    `${pairLabel(pair)}: ${connector}, credential ${pair.credential.id}`,
    `  status:        ${pair.status}${pair.indexing ? ', indexing now' : ''}`,
    `  documents:     ${pair.num_docs_indexed}`,
    `  last indexed:  ${pair.last_indexed ?? 'never'}`,
    `  last pruned:   ${pair.last_pruned ?? 'never'}`,
    `  in error:      ${pair.in_repeated_error_state ? 'yes: its last attempts all failed' : 'no'}`,
  ];
  const deletion = deletionLine(pair);
  if (deletion) lines.push(`  deletion:      ${deletion}`);
  const total = pair.number_of_index_attempts;
  lines.push(
    s.attempts.length === 0
      ? 'index attempts: none yet'
      : `index attempts (newest first, ${s.attempts.length} of ${total}):`,
  );
  for (const a of s.attempts) lines.push(attemptLine(a));
  const more = s.errors.length >= ERRORS_SHOWN ? `, the newest ${ERRORS_SHOWN}` : '';
  lines.push(s.errors.length === 0 ? 'unresolved errors: none' : `unresolved errors${more}:`);
  for (const e of s.errors) lines.push(errorLine(e));
  return lines;
}

/** What --watch compares between two reads. */
function changeKey(s: PairSnapshot): string {
  const a = s.attempts[0];
  return [s.pair.status, a?.id, a?.status, a?.total_docs_indexed, s.errors.length].join('|');
}

/** A line saying what the pair is doing now. */
function changeLine(s: PairSnapshot): string {
  const a = s.attempts[0];
  const attempt = a
    ? `attempt #${a.id} ${a.status ?? 'unknown'}, ${a.total_docs_indexed} document(s)`
    : 'no attempt yet';
  const errors = s.errors.length > 0 ? `, ${s.errors.length} unresolved error(s)` : '';
  return `${new Date().toISOString()}  ${s.pair.status}  ${attempt}${errors}`;
}

function print(out: Output, s: PairSnapshot): void {
  out.result(s, snapshotLines(s));
}

/**
 * Reads again every `interval` until no attempt runs, printing a line (a JSON snapshot with
 * --json) each time something changed; Ctrl-C stops it (exit 130).
 */
async function watch(
  ctx: Context,
  read: () => Promise<PairSnapshot>,
  start: PairSnapshot,
  options: ConnectorStatusOptions,
  interrupts: InterruptSource,
): Promise<{ last: PairSnapshot; interrupted: boolean }> {
  const stop = new AbortController();
  const interruption = onInterrupts(interrupts, {
    first: () => stop.abort(),
    again: () => stop.abort(),
  });
  let last = start;
  try {
    while (attemptRunning(last) && !stop.signal.aborted) {
      try {
        await sleep(options.interval, undefined, { signal: stop.signal });
      } catch {
        break; // interrupted while waiting
      }
      const next = await read();
      if (changeKey(next) !== changeKey(last)) ctx.out.result(next, changeLine(next));
      last = next;
    }
  } finally {
    interruption.off();
  }
  return { last, interrupted: interruption.count() > 0 };
}

/**
 * Says a model switch is in progress and what it means for pushed documents (the client's notice)
 * and for `kis verify --repair`; a server without search settings says nothing.
 */
async function warnOfModelSwitch(ctx: Context, client: KisClient): Promise<void> {
  let notice: Awaited<ReturnType<KisClient['searchSettings']['switchInProgress']>>;
  try {
    notice = await client.searchSettings.switchInProgress();
  } catch (error) {
    if (APIError.isInstance(error)) return; // not served here, or not to this key: no warning
    throw error;
  }
  if (notice === null) return;
  ctx.out.result({
    model_switch: {
      model_name: notice.settings.model_name,
      flow: notice.flow,
      switchover: notice.switchover,
      pushed_documents: notice.pushedDocuments,
      message: notice.message,
    },
  });
  ctx.out.warn(notice.message);
  ctx.out.info(`  ${repairLine(notice)}`);
}

/**
 * `kis connector status PAIR [--watch]`. Exit 0; with --watch, 0 when the newest attempt ended
 * well (or there is none), 1 when it failed or was canceled, 130 when interrupted.
 */
export async function runConnectorStatus(
  ctx: Context,
  ref: string,
  options: ConnectorStatusOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  const [id] = await resolvePairIds(client, [ref], baseUrl);
  if (id === undefined) return ExitCode.Usage;
  const read = () => readSnapshot(client, id, baseUrl);
  const start = await read();
  print(ctx.out, start);
  await warnOfModelSwitch(ctx, client);
  if (!options.watch) return ExitCode.Ok;
  const { last, interrupted } = await watch(ctx, read, start, options, interrupts);
  if (interrupted) return ExitCode.Interrupted;
  // the change lines said how it went; a person gets the whole status once more at the end
  if (last !== start) {
    ctx.out.human('');
    for (const line of snapshotLines(last)) ctx.out.human(line);
  }
  const newest = last.attempts[0];
  return newest === undefined || isAttemptSuccessful(newest.status)
    ? ExitCode.Ok
    : ExitCode.ItemsFailed;
}
