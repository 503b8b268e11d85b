/**
 * `kis verify [PATH…]`: a thin shell over `@kis/node`'s `verify` (the client's `verifyPair`).
 * The command picks what the pair is checked against (source.ts), the pair's journal, the `--as`
 * key (as-key.ts), follows the run with the progress bar, and prints what it says (report.ts);
 * the checks, the sample, the repair and the journal's handling are the library's.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createKisClient, VERIFY_CHECKS, type VerifyCheck } from '@kis/client';
import { type NodeVerifyRun, type NodeVerifySummary, verify } from '@kis/node';
import { DEFAULT_CC_PAIR_ID, ingestionPairId } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { type InterruptSource, onInterrupts } from '../../interrupts.js';
import { checkPair } from '../../pair-check.js';
import { journalFor } from '../../pair-journal.js';
import { createProgress } from '../../progress.js';
import { addReadOptions, type ReadFlags } from '../../run-options.js';
import { openRunJournal } from '../../run-setup.js';
import { asKeyClient } from './as-key.js';
import { printReport, resultLine, summaryObject, writeReport } from './report.js';
import { serverRefusal } from './server-refusal.js';
import { verifiedSource } from './source.js';

export interface VerifyCommandOptions extends ReadFlags {
  ccPair?: number;
  as?: string;
  checks?: string;
  sample?: number;
  seed?: number;
  repair?: boolean;
  /** `--journal FILE`, or false for `--no-journal`. */
  journal?: string | false;
  fromJournal?: boolean;
  report?: string;
  concurrency: number;
  maxIds: number;
}

const HELP_AFTER =
  EXAMPLES([
    'kis verify --cc-pair 2',
    'kis verify ./docs --cc-pair 2',
    'kis verify ./docs --cc-pair 2 --repair',
    'kis verify --cc-pair 2 --from-journal --sample 500 --seed 7',
    'TEAM_KEY=… kis verify --cc-pair 2 --as TEAM_KEY',
    'kis --json verify export.jsonl --cc-pair 2 --report verify-pair-2.json',
  ]) +
  `
${wrap(
  `Checks each document of the pair: present (the pair's listing has it), indexed (it has chunks:
document-size-info), findable (admin search ranks it in the first 10 for a distinctive phrase of
its text, or its title and a phrase of its first chunk when there is no text at hand), and with
--as ENV visible (the key in environment variable ENV sees exactly the documents the pairs
holding them grant it: public pairs, the credential's creator of private ones, their groups).
Without PATH it checks the pair's listing; with PATHs, the documents kis ingest would send from
them (same flags, same ids), and counts what the pair lists beyond them; --from-journal, the
documents the pair's journal acknowledged. A document a key's pairs do not grant it is not
checked with that key (a 404 means "not visible" as much as "not indexed"), and said.
--repair re-sends from the PATHs what is missing, unindexed, hidden, unfindable or seen wrongly,
through the pair's journal though it holds them, and without doc_updated_at so the server
re-indexes them; during a legacy model switch (whose new index gets no pushed document) it
re-pushes every document of the PATHs once and records it in the journal. Exit 0 when every
document passed (with --repair: when everything that failed was re-sent and stored), 1 when
some failed a check (or a legacy model switch needs a re-push), 2 on usage errors, 3 when the
server or a key refused (nothing could be checked), 130 when interrupted.`,
)}
`;

function checksOf(text: string | undefined, as: string | undefined): VerifyCheck[] | undefined {
  if (text === undefined) return undefined;
  const checks = text
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  for (const check of checks) {
    if (!(VERIFY_CHECKS as readonly string[]).includes(check)) {
      throw new UsageError(`--checks: unknown check "${check}" (${VERIFY_CHECKS.join(', ')})`);
    }
  }
  if (checks.length === 0)
    throw new UsageError(`--checks: name at least one of ${VERIFY_CHECKS.join(', ')}`);
  if (checks.includes('visible') && as === undefined) {
    throw new UsageError('--checks visible: needs --as ENV, the key whose sight is checked');
  }
  return checks as VerifyCheck[];
}

export function verifyCommand({ act, interrupts, command }: CommandEnv): Command {
  return addReadOptions(command('verify'))
    .description(
      "check that a pair's documents are present, indexed, findable and seen by the right keys; --repair re-sends what is not",
    )
    .argument(
      '[paths...]',
      "what the pair should hold, as for `kis ingest`: files, directories, .jsonl files, - for stdin (default: the pair's own listing)",
    )
    .option(
      '--cc-pair <id>',
      `the pair to verify (default: the server's default pair, ${DEFAULT_CC_PAIR_ID})`,
      intArg(0),
    )
    .option(
      '--as <env>',
      'also check what the key in environment variable ENV sees (the name of the variable, never the key)',
    )
    .option(
      '--checks <list>',
      `checks to make, comma-separated (${VERIFY_CHECKS.join(', ')}; default all, visible with --as)`,
    )
    .option('--sample <n>', 'check a random sample of N documents', intArg(1))
    .option(
      '--seed <n>',
      "the sample's seed (default random, printed to repeat the run)",
      intArg(0),
    )
    .option(
      '--repair',
      're-send from the PATHs what fails (and the whole source during a legacy model switch)',
    )
    .option(
      '--journal <file>',
      "the journal a repair records in, and where a re-push for a model switch is recorded (default: the pair's, shared with kis ingest and kis sync)",
    )
    .option('--no-journal', 'use no journal')
    .option('--from-journal', 'check the documents the journal acknowledged (no PATH)')
    .option('--report <file>', 'also write the summary as JSON to FILE')
    .option('-c, --concurrency <n>', 'documents checked at once', intArg(1, 256), 16)
    .option('--max-ids <n>', 'failing ids kept per reason (all are counted)', intArg(1), 1000)
    .addHelpText('after', HELP_AFTER)
    .action(
      act((ctx, paths: string[], options: VerifyCommandOptions) =>
        runVerify(ctx, paths, options, interrupts),
      ),
    );
}

/** `kis verify`: what to check, the journal, the keys, then the run; the exit code. */
export async function runVerify(
  ctx: Context,
  paths: string[],
  options: VerifyCommandOptions,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const { out, io } = ctx;
  if (options.repair && paths.length === 0) {
    throw new UsageError(
      "--repair: give the PATHs to re-send from (the pair's listing and a journal hold no content)",
    );
  }
  if (options.seed !== undefined && options.sample === undefined) {
    throw new UsageError('--seed: only with --sample N');
  }
  const checks = checksOf(options.checks, options.as);
  const ccPairId = ingestionPairId(options.ccPair);
  if (options.ccPair === undefined) {
    out.info(`no --cc-pair: verifying pair ${ccPairId}, the server's default ingestion pair`);
  }
  const connection = await ctx.connection();
  const { baseUrl } = connection;
  // many calls at once: undici's pool, not the one-at-a-time sender of the other commands
  const client = createKisClient({ ...ctx.clientOptions(connection), callsOn: 'undici' });
  const as = options.as === undefined ? undefined : await asKeyClient(ctx, options.as);
  await checkPair(client, ccPairId, baseUrl, options.repair ? 'verify --repair' : 'verify');
  const choice = journalFor({ journal: options.journal, ccPair: ccPairId, baseUrl });
  const what = await verifiedSource(ctx, paths, options, ccPairId, choice);
  // the journal is opened to repair, or read when it exists (a re-push recorded for a switch)
  const journal =
    options.repair || (choice !== undefined && existsSync(resolve(io.cwd, choice.file)))
      ? await openRunJournal(choice, io.cwd)
      : undefined;
  const progress = createProgress(io, {
    label: 'verifying',
    enabled: !out.mode.quiet,
    paint: out.err,
  });
  const abort = new AbortController();
  let run: NodeVerifyRun;
  try {
    run = await verify(client, what.source, {
      ccPairId,
      concurrency: options.concurrency,
      maxIdsPerReason: options.maxIds,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.total !== undefined) progress.setTotal(p.total);
        progress.update({
          processed: p.done,
          failed: p.failed,
          skipped: 0,
          ratePerSec: p.ratePerSec,
        });
      },
      ...(what.total === undefined ? {} : { total: what.total }),
      ...(checks === undefined ? {} : { checks }),
      ...(as === undefined ? {} : { as }),
      ...(options.sample === undefined ? {} : { sample: options.sample }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(journal === undefined ? {} : { journal: journal.journal }),
      ...(options.repair ? { repair: true } : {}),
    });
  } catch (error) {
    progress.stop();
    journal?.journal.close();
    throw serverRefusal(error, baseUrl) ?? error;
  }
  const interruption = onInterrupts(interrupts, {
    first: () => {
      progress.log(
        'interrupted: finishing the checks in flight (press Ctrl-C again to abort them)',
      );
      run.stop();
    },
    again: () => abort.abort(),
  });
  let summary: NodeVerifySummary;
  try {
    for await (const result of run) if (!result.ok) out.result(resultLine(result));
    summary = await run.summary;
  } catch (error) {
    throw serverRefusal(error, baseUrl) ?? error;
  } finally {
    interruption.off();
    progress.stop();
    journal?.journal.close();
  }
  const asked = new Set<string>(checks ?? VERIFY_CHECKS.filter((c) => c !== 'visible' || as));
  const object = summaryObject(summary, what.label);
  out.result({ summary: object });
  printReport(out, summary, { verified: what.label, asked });
  if (options.report !== undefined) await writeReport(options.report, io.cwd, object);
  if (interruption.count() > 0) return ExitCode.Interrupted;
  return exitCode(summary);
}

/**
 * 0 when every document passed, or (with a repair) when everything that failed was re-sent and
 * stored; else 1.
 */
function exitCode(summary: NodeVerifySummary): ExitCodeValue {
  if (summary.ok) return ExitCode.Ok;
  const { repair } = summary;
  if (repair === undefined) return ExitCode.ItemsFailed;
  const unmendable =
    (summary.failures.unreadable?.count ?? 0) + (summary.failures['failed-call']?.count ?? 0);
  const mended =
    repair.ingest.failed === 0 &&
    repair.ingest.stopped === undefined &&
    repair.notResendable === 0 &&
    unmendable === 0 &&
    (summary.modelSwitch?.needsRepush !== true || repair.recordedFor !== undefined);
  return mended ? ExitCode.Ok : ExitCode.ItemsFailed;
}
