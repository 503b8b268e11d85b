/**
 * What the commands that act on several pairs share (`run`, `pause`, `resume`, `delete`): every
 * PAIR is read first (an unknown one stops the command with nothing done), then each is acted
 * on in turn; a pair whose action fails is reported and the others go on (exit 1), a failure of
 * the key or the server stops the command.
 */
import type { CcPairFullInfo, KisClient } from '@kis/client';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { type PairCall, pairCallError } from '../../pair-errors.js';
import { loadPairs, pairLabel } from '../../pair-ref.js';

/** How one pair's action ended: done (with what happened), or refused (with why). */
export type PairOutcome = { ok: true; message: string } | { ok: false; error: string };

/** One pair's action: its call (for the error wording) and what it does. */
export interface PairAction {
  /** The action's name in `--json` lines: `run`, `pause`, … */
  name: string;
  /** The operation it calls (the spec's `operationId`). */
  operationId: string;
  /** What it is doing to `pair`, in words: "pausing pair 5". */
  doing(pair: CcPairFullInfo): string;
  act(client: KisClient, pair: CcPairFullInfo): Promise<PairOutcome>;
}

/** What {@link eachPair} did: the exit code, the pairs read, and those acted on. */
export interface EachPairResult {
  code: ExitCodeValue;
  pairs: CcPairFullInfo[];
  done: CcPairFullInfo[];
}

/** The action's outcome for `pair`; an error of the key or the server is thrown. */
async function outcomeOf(
  client: KisClient,
  pair: CcPairFullInfo,
  action: PairAction,
  baseUrl: string,
): Promise<PairOutcome> {
  try {
    return await action.act(client, pair);
  } catch (error) {
    const call: PairCall = {
      operationId: action.operationId,
      doing: action.doing(pair),
      ccPairId: pair.id,
      baseUrl,
    };
    const known = pairCallError(error, call);
    if (known && known.exitCode !== ExitCode.Usage) throw known;
    if (known) return { ok: false, error: known.message };
    const failure = describeFailure(error, baseUrl);
    if (failure.fatal) throw error;
    return { ok: false, error: failure.message };
  }
}

/**
 * Reads every PAIR, asks `before` (a confirmation) and acts on each, printing a line per pair;
 * the caller prints the summary ({@link printSummary}) when it is done too.
 */
export async function eachPair(
  ctx: Context,
  refs: readonly string[],
  action: PairAction,
  before?: (pairs: CcPairFullInfo[]) => Promise<boolean>,
): Promise<EachPairResult> {
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  const pairs = await loadPairs(client, refs, baseUrl, action.operationId);
  if (before && !(await before(pairs))) return { code: ExitCode.Usage, pairs, done: [] };
  const { out } = ctx;
  const done: CcPairFullInfo[] = [];
  for (const pair of pairs) {
    const outcome = await outcomeOf(client, pair, action, baseUrl);
    const line = { cc_pair_id: pair.id, action: action.name };
    if (outcome.ok) {
      done.push(pair);
      out.result(
        { ...line, ok: true, message: outcome.message },
        `${pairLabel(pair)}: ${outcome.message}`,
      );
    } else {
      out.result({ ...line, ok: false, error: outcome.error });
      if (!out.mode.json) out.error(`${pairLabel(pair)}: ${outcome.error}`);
    }
  }
  const failed = pairs.length - done.length;
  return { code: failed > 0 ? ExitCode.ItemsFailed : ExitCode.Ok, pairs, done };
}

/** The `--json` summary line: pairs done and failed, with `extra` counts. */
export function printSummary(
  ctx: Context,
  result: EachPairResult,
  extra: Record<string, number> = {},
): ExitCodeValue {
  const ok = result.done.length;
  ctx.out.result({ summary: { ok, failed: result.pairs.length - ok, ...extra } });
  return result.code;
}

/** {@link eachPair}, then its summary: the exit code. */
export async function actOnPairs(
  ctx: Context,
  refs: readonly string[],
  action: PairAction,
): Promise<ExitCodeValue> {
  return printSummary(ctx, await eachPair(ctx, refs, action));
}
