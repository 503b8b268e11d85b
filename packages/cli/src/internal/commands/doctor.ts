import type { DoctorCheck, DoctorReport } from '@kis/client';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import type { Output } from '../output.js';

export interface DoctorCommandOptions {
  ccPair?: number;
}

/** `✓ name: detail`, and the fix under a failed check. */
function checkLines(check: DoctorCheck, out: Output): string[] {
  const mark = check.ok ? out.out.green('✓') : out.out.red('✗');
  const lines = [`${mark} ${check.name}: ${check.detail}`];
  if (!check.ok && check.fix) lines.push(`  fix: ${check.fix}`);
  return lines;
}

function summaryLine({ summary, checks }: DoctorReport): string {
  if (summary.ok) return `All ${checks.length} checks passed.`;
  return `${summary.failed} of ${checks.length} check(s) failed.`;
}

/**
 * `kis doctor [--cc-pair ID]`: the client's checks of the server, the base URL (taken as given,
 * so that a missing /api is diagnosed rather than refused) and the key. Exit 0 when all pass, 1
 * when one fails, 3 when the server cannot be reached.
 */
export async function doctorCommand(
  ctx: Context,
  options: DoctorCommandOptions,
): Promise<ExitCodeValue> {
  const client = await ctx.clientAsGiven();
  const report = await client.doctor(
    options.ccPair === undefined ? {} : { ccPairId: options.ccPair },
  );
  const { out } = ctx;
  for (const check of report.checks) out.result(check, checkLines(check, out));
  out.result({ summary: report.summary }, summaryLine(report));
  if (!report.summary.reachable) return ExitCode.Fatal;
  return report.summary.ok ? ExitCode.Ok : ExitCode.ItemsFailed;
}
