/**
 * `kis sync PATH… --cc-pair ID`: a shell over the client's `kis.sync`. The paths become items as
 * for `kis ingest` (their ids known before reading); the command says which ids the source owns,
 * prints the plan, and reports the run (pass.ts), again on every change with `--watch`
 * (watch.ts). Planning, the journal, retries, outages and deletions are the client's.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { intArg } from '../../arg-parsers.js';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { type ExitCodeValue, UsageError } from '../../errors.js';
import { describeFailure } from '../../failure.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { inputSources, readInputs, resolveBaseDir } from '../../inputs.js';
import type { InterruptSource } from '../../interrupts.js';
import { checkPair } from '../../pair-check.js';
import { addQueueOptions } from '../../queue-mode/options.js';
import { addRunOptions, runLimits } from '../../run-options.js';
import { connect } from '../../run-setup.js';
import { addSourceOptions, SOURCE_HELP } from '../../source-options.js';
import { openSyncJournal } from './journal.js';
import { parseMaxDelete, planOptions, type SyncFlags, withPair } from './options.js';
import { ownership } from './ownership.js';
import type { Pass } from './pass.js';
import { runPasses } from './passes.js';
import { runSourceSync, syncTarget } from './source.js';

const HELP_AFTER =
  EXAMPLES([
    'kis sync ./docs --cc-pair 2 --dry-run',
    'kis sync ./docs --cc-pair 2 --prune --watch',
    'kis sync ./docs --cc-pair 2 --prune',
    'kis sync ./docs --cc-pair 2 --prune --max-delete 10%',
    'kis sync export.jsonl --cc-pair 2 --namespace crm/ --prune',
    'kis sync "$CRM_URL" --cc-pair 3 --table tickets --id id --text body --updated-at updated_at --namespace crm/ --prune',
    'kis sync git+file:///srv/handbook#main --cc-pair 4 --prune',
    'kis sync --from kis.yaml "CRM tickets" --prune',
  ]) +
  `
${wrap(
  `The plan comes from the pair's document listing, the journal's content hashes and which ids
the sync owns: a document is sent when it is new or changed (or when the journal cannot prove it
unchanged), skipped when unchanged, and deleted with --prune when the paths no longer have it.
Only owned ids are ever deleted: the ids under each directory given (docs/... for a directory
named docs, wherever the command runs, as for kis ingest; paths relative to --base-dir with it),
or under --namespace. A prune over --max-delete is refused (exit 2) unless --force. The journal
is the pair's, shared with kis ingest --cc-pair: a sync after an ingest of the same files sends
nothing. Exit 0 when the pair equals the paths, 1 when documents failed (listed), 3 when the
server stopped the run. A database or repository owns the ids under its prefix (a repository's
<name>/, or --namespace); a database without --namespace owns every document of the pair. With
--from FILE NAME, the connector NAME of FILE declares what to sync (documents: { sql } or
{ git }, kis apply leaves them alone) into the pair kis apply made for it.`,
)}

${SOURCE_HELP}
`;

/** `kis sync`: the shared run options, then its own. */
export function syncCommand({ act, interrupts, command }: CommandEnv): Command {
  return addQueueOptions(addSourceOptions(addRunOptions(command('sync'))))
    .description(
      'make a cc pair equal to folders, a JSONL export, a database query or a git repository: create, update, skip the unchanged, and (--prune) delete what is gone',
    )
    .argument(
      '<paths...>',
      'as for `kis ingest`: files, directories, .jsonl files, - for stdin, a database or a repository; with --from, the name of a connector of the file',
    )
    .option(
      '--cc-pair <id>',
      'the cc pair to keep equal to the paths (required, but with --from)',
      intArg(0),
    )
    .option('--prune', 'delete the documents this sync owns that are gone from the paths')
    .option(
      '--max-delete <n|p%>',
      'the most owned documents a prune may delete, a count or a share (default 50%)',
    )
    .option('--force', 'prune past --max-delete')
    .option(
      '--namespace <prefix>',
      'put PREFIX before every document id and own exactly the ids under it (default: each directory owns the ids under its path)',
    )
    .option(
      '--journal <file>',
      "content hashes of acknowledged documents (default: the pair's, .kis/sync/<base URL>-pair-<id>.jsonl, shared with kis ingest)",
    )
    .option('--dry-run', 'print the plan and send nothing')
    .option(
      '--from <file>',
      'sync the documents the connector NAME (the one PATH) declares in FILE (kis.yaml: documents: { sql } or { git }) into the pair kis apply made for it',
    )
    .option(
      '--watch',
      'after the first sync, sync again each time the paths change (Ctrl-C to stop)',
    )
    .addHelpText('after', HELP_AFTER)
    .action(
      act((ctx, paths: string[], options: SyncFlags) => runSync(ctx, paths, options, interrupts)),
    );
}

/** `kis sync PATH… --cc-pair ID`: the sources, the journal, then the passes; the exit code. */
export async function runSync(
  ctx: Context,
  paths: string[],
  flags: SyncFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  // a database or repository PATH (or a connector of --from) is told apart before any path is
  // looked up
  const target = syncTarget(paths, flags);
  if (flags.queue !== undefined) {
    // queue mode's producer is loaded for --queue only
    if (target !== undefined) {
      const { runQueuedSourceSync } = await import('./queued-source.js');
      return runQueuedSourceSync(ctx, target, flags, interrupts);
    }
    const { runQueuedSync } = await import('./queued.js');
    return runQueuedSync(ctx, paths, flags, interrupts);
  }
  if (target !== undefined) return runSourceSync(ctx, target, flags, interrupts);
  const options = withPair(flags);
  const { out, io } = ctx;
  const limits = runLimits(options);
  const maxDelete = parseMaxDelete(options.maxDelete);
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const baseDir = await resolveBaseDir(io.cwd, options.baseDir);
  const inputs = await readInputs(paths, io);
  if (options.watch && (inputs.stdin || options.dryRun)) {
    throw new UsageError('sync --watch: not with - (stdin) or --dry-run');
  }
  const sources = inputSources(inputs, io.stdin, {
    baseDir,
    include: options.include,
    exclude: options.exclude,
    source,
    idPrefix: options.namespace,
    // the base URL is known by the time an upload fails
    describeUploadFailure: (error) => describeFailure(error, baseUrl).message,
    onIgnored: (ref, reason) => out.result({ ref, status: 'ignored', reason }),
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  });
  const owns = ownership(inputs, sources.folder, options);
  const { client, baseUrl } = await connect(ctx, false);
  await checkPair(client, options.ccPair, baseUrl, 'sync');
  const journal = await openSyncJournal(io.cwd, options, baseUrl);
  const pass: Pass = {
    ctx,
    options,
    client,
    baseUrl,
    items: sources.items,
    syncOptions: { ...limits, ...planOptions(options, owns, maxDelete, journal?.journal) },
    current: undefined,
    abort: new AbortController(),
  };
  return runPasses(pass, [...inputs.walk, ...inputs.jsonl], interrupts, journal?.journal);
}
