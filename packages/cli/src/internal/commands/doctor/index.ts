import type { AccessGroup, DoctorAccess, DoctorCheck, DoctorReport } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import type { Output } from '../../output.js';

export interface DoctorCommandOptions {
  ccPair?: number;
}

export function doctorCommand({ act, command }: CommandEnv): Command {
  return command('doctor')
    .description(
      'check the server, the base URL and the API key: that it answers, the /api prefix, the key, who it is (role, or groups and permissions) and which commands it may use, which routes and release the server has',
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
  'Prints each check with ✓ or ✗, and how to fix a failure; the requests change nothing on the server. The base URL is taken as given, so a missing /api prefix is diagnosed, not refused. Who the key is comes from GET /me: its role on release 4.6.1, its account type, groups and permissions on the main line (a server that follows the seed has no /me). For each group of commands the doctor says whether the server lets this key use it, and the fix (for example: add the key to a group that grants manage:connectors). Exit code 0 when every check passes, 1 when one fails, 3 when the server cannot be reached.',
)}
`,
    )
    .action(act((ctx, options: DoctorCommandOptions) => runDoctor(ctx, options)));
}

/** The commands behind each of the client's groups of calls the doctor judges. */
const COMMANDS_OF: Readonly<Record<AccessGroup, string>> = {
  connectors: 'kis connector',
  credentials: 'kis credential',
  ingestion: 'kis ingest, sync, upload, docs list and delete',
  documents: 'kis docs status',
};

/** A check's name, with the commands of a group of calls ("may use connectors (kis connector)"). */
function checkName(check: DoctorCheck, access: readonly DoctorAccess[]): string {
  const group = access.find((a) => check.name === `may use ${a.group}`)?.group;
  return group === undefined ? check.name : `${check.name} (${COMMANDS_OF[group]})`;
}

/** `✓ name: detail`, and the fix under a failed check. */
function checkLines(check: DoctorCheck, out: Output, access: readonly DoctorAccess[]): string[] {
  const mark = check.ok ? out.out.green('✓') : out.out.red('✗');
  const lines = [`${mark} ${checkName(check, access)}: ${check.detail}`];
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
  const access = report.access ?? [];
  for (const check of report.checks) out.result(check, checkLines(check, out, access));
  out.result({ summary: report.summary }, summaryLine(report));
  if (!report.summary.reachable) return ExitCode.Fatal;
  return report.summary.ok ? ExitCode.Ok : ExitCode.ItemsFailed;
}
