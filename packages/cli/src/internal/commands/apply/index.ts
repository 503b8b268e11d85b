/**
 * `kis apply -f FILE`: a shell over `kis.plan` and `kis.apply` (client README, "Declarative
 * set-up"). Prints the plan and who gains or loses access to which pair, asks before deleting (or
 * takes `--yes`), carries it out and prints the ids. What each credential was sent is recorded as
 * fingerprints in `--secrets-file`, the groups and sets kis created beside it.
 */

import { resolve } from 'node:path';
import { DesiredStateError, type KisClient } from '@kis/client';
import {
  type AppliedChange,
  type ApplyPlan,
  apply,
  type FieldChange,
  FileCreatedRecords,
  FileSecretRecords,
  type PlannedChange,
  plan as planState,
} from '@kis/node';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { confirmDeletion } from '../../confirm.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { type KisFile, readKisFile } from '../../kis-file.js';
import type { Output } from '../../output.js';
import { stateFile } from '../../state-files.js';
import { TakenNames } from '../../taken-names.js';
import { accessLines } from './access-lines.js';

export interface ApplyCommandOptions {
  file: string;
  dryRun?: boolean;
  prune?: boolean;
  yes?: boolean;
  secretsFile?: string;
  /** `--delete-pushed-documents`: apply updates that have the server prune documents away. */
  deletePushedDocuments?: boolean;
}

/** The flag that lets an apply turn on prunes that delete documents. */
const DELETE_PUSHED_FLAG = '--delete-pushed-documents';

export function applyCommand({ act, command }: CommandEnv): Command {
  return command('apply')
    .description(
      'make the server hold the connectors, credentials, pairs, user groups and document sets of a kis.yaml file: prints a plan and who gains or loses access, then changes only what differs',
    )
    .requiredOption('-f, --file <file>', 'the kis.yaml (or .json) file')
    .option('--dry-run', 'print the plan and change nothing')
    .option(
      '--prune',
      'also delete what the server has and the file does not (asks first); groups and sets only when kis created them',
    )
    .option('-y, --yes', 'do not ask before deleting (for --prune without a terminal)')
    .option(
      DELETE_PUSHED_FLAG,
      'apply connector updates that leave automatic prunes on for pairs holding documents their connector does not list (the server would delete them)',
    )
    .option(
      '--secrets-file <file>',
      'fingerprints of the credential values sent (default .kis/apply/<base URL>.json)',
    )
    .addHelpText(
      'after',
      EXAMPLES([
        'kis apply -f kis.yaml --dry-run',
        'JIRA_TOKEN=… kis apply -f kis.yaml',
        'kis apply -f kis.yaml --prune --yes',
      ]) +
        `
A kis.yaml, one entry of each kind:

  credentials:
    - name: Jira bot
      source: jira
      credential_json: { jira_user_email: bot@example.com, jira_api_token: \${JIRA_TOKEN} }
  user_groups:
    - name: Support
      users: [agent@example.com]        # account ids, or e-mails a listed group shows
  connectors:
    - name: Tickets
      source: jira
      credential: Jira bot
      config: { jira_base_url: https://jira.example.com, project_key: SUP }
      access_type: private              # public (default), private or sync; fixed once created
      groups: [Support]                 # who sees a private pair's documents, by name
  document_sets:
    - name: Support answers
      pairs: [Tickets]                  # a connector's name (or pair_name), or a pair id
      groups: [Support]                 # public: true unless it names groups or users

${wrap(
  "Connectors and credentials are matched on the server by name and source, a connector's pair by its connector and credential, user groups and document sets by name. A group's pairs are the connectors that name it. Before anything is sent, the plan says who gains or loses access to which pair (everyone for public pairs, the credential's owner, the pair's groups) and which members a group gains. Secrets are written as references to environment variables or files (see README) and never printed; they are compared with what kis sent before (fingerprints in --secrets-file), never with the server's masked answers. --prune deletes only the groups and sets kis apply created (recorded by name beside --secrets-file, in <file>.created.json). Groups and sets sync their changes to the documents: an edit waits for a running sync. A failure part-way leaves a state the next apply finishes. A connector update always sends prune_freq (the file's, else the server's; null as 0, which servers keep as never, where they store a null as one week and start pruning). An update that leaves prunes on for a pair holding documents its connector does not list (every pushed document of a file connector) is refused (exit 2), naming the pairs and how many documents would go, unless --delete-pushed-documents is given. The file's JSON Schema is @kis/spec/kis-file.schema.json. Exit code 0 when the server matches the file, 1 when a change failed, 2 for a problem in the file (every one is listed, nothing is sent), 3 when the server cannot be reached or refuses the key or the feature (user groups without the enterprise edition or below its Business plan).",
)}
`,
    )
    .action(act((ctx, options: ApplyCommandOptions) => runApply(ctx, options)));
}

/** The default record of what credentials were sent: `.kis/apply/<base URL>.json`. */
export const defaultSecretsFile = (baseUrl: string) => stateFile('apply', baseUrl, '.json');

/** The record of the groups and sets kis created, beside the secrets': `<file>.created.json`. */
export const createdFileOf = (secretsFile: string) =>
  `${secretsFile.replace(/\.json$/i, '')}.created.json`;

const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));

function fieldLine(f: FieldChange): string {
  if (f.secret !== undefined) {
    const what = {
      added: 'set',
      changed: 'changed',
      unverified: 'sent again (not recorded here before)',
    };
    return `    ~ ${f.field}: ${what[f.secret]} (secret)`;
  }
  if (f.before === undefined) return `    + ${f.field}: ${show(f.after)}`;
  if (f.after === undefined) return `    - ${f.field}: ${show(f.before)}`;
  return `    ~ ${f.field}: ${show(f.before)} → ${show(f.after)}`;
}

function title(c: PlannedChange): string {
  const id = c.id === null ? '' : ` #${c.id}`;
  if (c.kind === 'pair') {
    const credential =
      c.credential === null ? 'the default credential' : `credential "${c.credential}"`;
    return `pair "${c.name}"${id} (connector "${c.connector}", ${credential})`;
  }
  if (c.kind === 'user_group') return `user group "${c.name}"${id}`;
  if (c.kind === 'document_set') return `document set "${c.name}"${id}`;
  return `${c.kind} "${c.name}" (${c.source})${id}`;
}

/** Why a change is what it is; for what only the server has, how to delete it. */
function noteOf(c: PlannedChange): string {
  if (c.action !== 'keep') return c.note ? ` (${c.note})` : '';
  // a group's or set's note says itself whether --prune deletes it
  const scoped = c.kind === 'user_group' || c.kind === 'document_set';
  const deletable = !scoped && !c.note?.includes('used by');
  return ` (${c.note ?? 'not in the file'}${deletable ? '; --prune deletes it' : ''})`;
}

export function planLines(plan: ApplyPlan, paint: Output['out'], verbose: boolean): string[] {
  const lines: string[] = [];
  for (const c of plan.changes) {
    if (c.action === 'unchanged' && !verbose) continue;
    const colour = {
      create: paint.green,
      update: paint.yellow,
      delete: paint.red,
      keep: paint.dim,
      unchanged: paint.dim,
    }[c.action];
    lines.push(`${colour(c.action.padEnd(9))} ${title(c)}${noteOf(c)}`);
    for (const f of c.changes) if (c.action === 'update' || verbose) lines.push(fieldLine(f));
  }
  const n = plan.counts;
  lines.push(
    `Plan: ${n.create} to create, ${n.update} to update, ${n.delete} to delete, ${n.unchanged} unchanged, ${n.keep} on the server only.`,
  );
  return lines;
}

/** A warning per pair a planned update leaves to prunes that delete documents. */
function pruneRiskLines(plan: ApplyPlan): string[] {
  return plan.pruneRisks.map(
    (r) =>
      `connector "${r.connector}" (${r.source}): the update leaves automatic prunes on (prune_freq ${r.pruneFreq}), and a prune of pair ${r.ccPairId} deletes ${r.removes} of its ${r.documents} document(s), those its connector does not list`,
  );
}

function confirmDeletes(ctx: Context, plan: ApplyPlan, yes: boolean): Promise<boolean> {
  if (plan.counts.delete === 0) return Promise.resolve(true);
  return confirmDeletion(ctx, {
    yes,
    flag: '--prune',
    what: `the plan deletes ${plan.counts.delete} item(s) from the server`,
    question: `Delete ${plan.counts.delete} item(s) from the server?`,
  });
}

function stepLine(step: AppliedChange): string {
  const verb = { create: 'created', update: 'updated', delete: 'deleted', unchanged: '', keep: '' }[
    step.change.action
  ];
  // the client has set a created change's id by now, so the title carries it
  return `${verb} ${title(step.change)}`;
}

/** The ids of each connector of the file, once applied: what scripts read next. */
function idLines(ctx: Context, plan: ApplyPlan): void {
  const pairs = plan.changes.filter(
    (c) => c.kind === 'pair' && c.action !== 'keep' && c.action !== 'delete',
  );
  for (const p of pairs) {
    if (p.kind !== 'pair') continue;
    const connector = plan.changes.find(
      (c) => c.kind === 'connector' && c.name === p.connector && c.source === p.source,
    );
    const ids = {
      connector: p.connector,
      source: p.source,
      connector_id: connector?.id ?? null,
      credential_id: p.credentialId,
      cc_pair_id: p.id,
    };
    ctx.out.result(
      { applied: ids },
      `${p.connector} (${p.source}): connector ${ids.connector_id}, credential ${ids.credential_id}, cc_pair_id ${ids.cc_pair_id}`,
    );
  }
}

/**
 * A warning for each connector or pair the plan creates under a name a pair already has (of
 * another source: one of the same is adopted), which commands taking the name would then fit twice.
 */
async function nameWarnings(client: KisClient, baseUrl: string, plan: ApplyPlan) {
  const created = plan.changes.filter((c) => c.action === 'create' && c.kind !== 'credential');
  if (created.length === 0) return [];
  const taken = await TakenNames.read(client, baseUrl, 'createConnector');
  return [...new Set(created.map((c) => c.name))].flatMap((name) => {
    const holders = taken.holders(name);
    return holders === undefined
      ? []
      : [
          `"${name}" is created with a name ${holders} already has: commands that take the name will fit both (rename it in the file to avoid that)`,
        ];
  });
}

function reportIssues(
  ctx: Context,
  error: DesiredStateError,
  where: KisFile['where'],
): ExitCodeValue {
  for (const issue of error.issues) {
    ctx.out.error(
      `${where(issue)}: ${issue.entry}: ${issue.path ? `${issue.path}: ` : ''}${issue.message}`,
    );
  }
  ctx.out.error(`${error.issues.length} problem(s) in the file; nothing was sent`);
  return ExitCode.Usage;
}

export async function runApply(ctx: Context, options: ApplyCommandOptions): Promise<ExitCodeValue> {
  const { out } = ctx;
  const file = await readKisFile(options.file, ctx.io);
  if (file.problems) return reportIssues(ctx, file.problems, file.where);
  for (const secret of file.secrets) ctx.secrets.add(secret);
  const client = await ctx.client();
  const { baseUrl } = await ctx.connection();
  const secretsPath = resolve(ctx.io.cwd, options.secretsFile ?? defaultSecretsFile(baseUrl));
  const secrets = new FileSecretRecords(secretsPath);
  const created = new FileCreatedRecords(createdFileOf(secretsPath));
  let plan: ApplyPlan;
  try {
    plan = await planState(client, file.state, {
      prune: options.prune === true,
      secrets,
      created,
    });
  } catch (error) {
    if (DesiredStateError.isInstance(error)) return reportIssues(ctx, error, file.where);
    throw error;
  }
  for (const c of plan.changes) out.result({ plan: c });
  for (const line of planLines(plan, out.out, out.mode.verbose)) out.human(line);
  out.result({ access: plan.access });
  if (!plan.empty) {
    const deleted = plan.changes.flatMap((c) =>
      c.kind === 'pair' && c.action === 'delete' && c.id !== null ? [c.id] : [],
    );
    for (const line of accessLines(plan.access, new Set(deleted), out.out)) out.human(line);
  }
  for (const w of [...plan.warnings, ...(await nameWarnings(client, baseUrl, plan))]) out.warn(w);
  for (const w of pruneRiskLines(plan)) out.warn(w);
  if (options.dryRun || plan.empty) {
    out.result({ summary: { ...plan.counts, applied: false } });
    if (plan.empty) out.human('Nothing to change.');
    // ids of what exists; a dry run that would create something has no ids to show yet
    if (plan.empty) idLines(ctx, plan);
    return ExitCode.Ok;
  }
  if (plan.pruneRisks.length > 0 && options.deletePushedDocuments !== true) {
    out.error(
      `the plan turns on automatic prunes that would delete documents (above); nothing was changed: pass ${DELETE_PUSHED_FLAG} to apply it anyway, or set prune_freq: null for those connectors`,
    );
    out.result({ summary: { ...plan.counts, applied: false, pruneRisks: plan.pruneRisks } });
    return ExitCode.Usage;
  }
  if (!(await confirmDeletes(ctx, plan, options.yes === true))) {
    out.error('nothing was changed');
    return ExitCode.Usage;
  }
  const result = await apply(client, plan, {
    secrets,
    deletePushedDocuments: options.deletePushedDocuments === true,
    created,
    onChange: (step) => {
      if (step.ok) out.info(stepLine(step));
    },
    onSyncWait: (what) => out.info(`${what}…`),
  });
  if (!result.ok) {
    const failed = result.applied.at(-1);
    const failure = describeFailure(failed?.error, baseUrl);
    out.error(`${failed ? title(failed.change) : 'apply'}: ${failure.message}`);
    out.error(
      `${result.applied.length - 1} change(s) made, ${result.skipped.length + 1} not; run kis apply again to finish`,
    );
    out.result({ summary: { ...plan.counts, applied: false, failed: failed?.change ?? null } });
    return failure.exitCode === ExitCode.Fatal ? ExitCode.Fatal : ExitCode.ItemsFailed;
  }
  idLines(ctx, plan);
  out.result({ summary: { ...plan.counts, applied: true } });
  return ExitCode.Ok;
}
