import type { DoctorCheck, DoctorReport } from '@kis/client';
import { Command } from 'commander';
import type { CommandEnv } from '../action.js';
import { intArg } from '../arg-parsers.js';
import type { Context } from '../context.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { EXAMPLES, wrap } from '../help-text.js';
import type { Output } from '../output.js';

export interface DoctorCommandOptions {
  ccPair?: number;
}

export function doctorCommand({ act }: CommandEnv): Command {
  return new Command('doctor')
    .description(
      'check the server, the base URL and the API key: that it answers, the /api prefix, the key and its role, which routes and release the server has',
    )
    .option(
      '--cc-pair <id>',
      'also check that this cc pair exists and count its documents',
      intArg(0),
    )
    .addHelpText(
      'after',
      EXAMPLES(['kis doctor', 'kis doctor --cc-pair 2', 'kis --json doctor']) +
        `
${wrap(
  'Prints each check with ✓ or ✗, and how to fix a failure; the requests change nothing on the server. The base URL is taken as given, so a missing /api prefix is diagnosed, not refused. Exit code 0 when every check passes, 1 when one fails, 3 when the server cannot be reached.',
)}
`,
    )
    .action(act((ctx, options: DoctorCommandOptions) => runDoctor(ctx, options)));
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
export async function runDoctor(
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
