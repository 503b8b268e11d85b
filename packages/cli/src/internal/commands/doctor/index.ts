import type { AccessGroup, DoctorAccess, DoctorCheck, DoctorReport } from '@kis/client';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { repairLine } from '../../model-switch-lines.js';
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
  'Prints each check with ✓ or ✗ (! for a warning), and how to fix a failure; the requests change nothing on the server. The base URL is taken as given, so a missing /api prefix is diagnosed, not refused. Who the key is comes from GET /me: its role on release 4.6.1, its account type, groups and permissions on the main line (a server that follows the seed has no /me). For each group of commands the doctor says whether the server lets this key use it, and the fix (for example: add the key to a group that grants manage:connectors). It also lists what can take pushed documents away: each pair whose prune would delete documents its connector does not list (a file connector with no files: every pushed document), a failure once the server prunes it on its own, and a model switch in progress, with what it means for pushed documents and what kis verify --repair does about it. Exit code 0 when every check passes, 1 when one fails, 3 when the server cannot be reached.',
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

/** `✓ name: detail` (`!` for a warning), and the fix under a failed check or a warning. */
function checkLines(
  check: DoctorCheck,
  out: Output,
  report: Pick<DoctorReport, 'access' | 'modelSwitch'>,
): string[] {
  const mark = !check.ok
    ? out.out.red('✗')
    : check.warning
      ? out.out.yellow('!')
      : out.out.green('✓');
  const lines = [`${mark} ${checkName(check, report.access ?? [])}: ${check.detail}`];
  if ((!check.ok || check.warning) && check.fix) lines.push(`  fix: ${check.fix}`);
  if (check.name === 'model switch' && report.modelSwitch) {
    lines.push(`  ${repairLine(report.modelSwitch)}`);
  }
  return lines;
}

function summaryLine({ summary, checks }: DoctorReport): string {
  const warned = summary.warnings > 0 ? `, ${summary.warnings} with a warning` : '';
  if (summary.ok) return `All ${checks.length} checks passed${warned}.`;
  return `${summary.failed} of ${checks.length} check(s) failed${warned}.`;
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
  for (const check of report.checks) out.result(check, checkLines(check, out, report));
  out.result({ summary: report.summary }, summaryLine(report));
  if (!report.summary.reachable) return ExitCode.Fatal;
  return report.summary.ok ? ExitCode.Ok : ExitCode.ItemsFailed;
}
