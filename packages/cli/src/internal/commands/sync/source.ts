/**
 * `kis sync` of a database or repository (a PATH `postgres://…`, `git+file://…#REF`, or a
 * connector of `--from kis.yaml` that declares one): `@kis/node`'s SQL or git source, checked
 * before anything is sent, given to the same sync and passes as files; its cursor or commit
 * recorded once a run stored all it read. Local and queued runs share the set-up here.
 */
import type { KisClient } from '@kis/client';
import type { DeclaredSource, SyncSummary } from '@kis/node';
import type { Context } from '../../context.js';
import { checkSource as checkDocumentSource } from '../../enums.js';
import { type ExitCodeValue, UsageError } from '../../errors.js';
import {
  checkSource,
  closeSource,
  finishSource,
  type Naming,
  type OpenOptions,
  openSource,
  sourceCall,
} from '../../incremental-source.js';
import type { InterruptSource } from '../../interrupts.js';
import { checkPair } from '../../pair-check.js';
import { runLimits } from '../../run-options.js';
import { connect, type Journal } from '../../run-setup.js';
import { locateSource, type SourceSpec } from '../../source-location.js';
import { type Declared, declaredPair, openDeclared, readDeclared } from './declared.js';
import { openSyncJournal } from './journal.js';
import {
  parseMaxDelete,
  planOptions,
  type SyncCommandOptions,
  type SyncFlags,
  withPair,
} from './options.js';
import type { Pass } from './pass.js';
import { runPasses } from './passes.js';

/** What a sync reads when it is not files: a database or repository, from the flags or a file. */
export type SyncTarget =
  | { kind: 'flags'; spec: SourceSpec }
  | { kind: 'file'; path: string; name: string };

/** Flags that `--from` takes from the file instead. */
const FILE_SAYS = [
  'query',
  'table',
  'id',
  'title',
  'text',
  'heading',
  'metadata',
  'updatedAt',
  'link',
  'namespace',
  'baseDir',
  'source',
  'ccPair',
] as const;

const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The database or repository a sync reads (undefined for files and folders): `--from FILE` and
 * its one NAME, or a PATH that names one.
 */
export function syncTarget(paths: readonly string[], flags: SyncFlags): SyncTarget | undefined {
  const source =
    flags.source === undefined ? undefined : checkDocumentSource('--source', flags.source);
  let target: SyncTarget | undefined;
  if (flags.from !== undefined) {
    const stray = FILE_SAYS.find((name) => flags[name] !== undefined);
    if (stray) {
      throw new UsageError(
        `${flagOf(stray)}: not with --from (the connector's entry in ${flags.from} says it)`,
      );
    }
    if (flags.include.length > 0 || flags.exclude.length > 0) {
      throw new UsageError(
        `${flags.include.length > 0 ? '--include' : '--exclude'}: not with --from (the connector's entry in ${flags.from} says it)`,
      );
    }
    if (paths.length !== 1) {
      throw new UsageError(
        `--from ${flags.from}: give one NAME, the connector whose documents to sync (got ${paths.length})`,
      );
    }
    target = { kind: 'file', path: flags.from, name: paths[0] as string };
  } else {
    const spec = locateSource(paths, { ...flags, source });
    target = spec === undefined ? undefined : { kind: 'flags', spec };
  }
  if (target !== undefined && flags.watch) {
    throw new UsageError(
      '--watch: not with a database or repository (run kis sync again, e.g. from cron: it reads what changed)',
    );
  }
  return target;
}

/** A sync of a source, set up: the pair, the journal, the source checked. */
export interface SourceSetup {
  options: SyncCommandOptions;
  client: KisClient;
  baseUrl: string;
  journal: { journal: Journal; path: string } | undefined;
  opened: DeclaredSource;
  naming: Naming;
}

/**
 * The pair (`--cc-pair`, or the one `kis apply` made for the connector of `--from`), checked; the
 * pair's journal; the source opened on it and checked before anything is sent.
 */
export async function setUpSourceSync(
  ctx: Context,
  target: SyncTarget,
  flags: SyncFlags,
  hooks: Pick<OpenOptions, 'onIgnored' | 'onWarning'>,
): Promise<SourceSetup> {
  const { out, io } = ctx;
  const { client, baseUrl } = await connect(ctx, false);
  const base = baseUrl as string;
  let declared: Declared | undefined;
  let ccPair = flags.ccPair;
  if (target.kind === 'file') {
    declared = await readDeclared(ctx, target.path, target.name);
    ccPair = await declaredPair(client, base, declared);
  }
  const options = withPair(flags, ccPair);
  await checkPair(client, options.ccPair, baseUrl, 'sync');
  const journal = await openSyncJournal(io.cwd, options, baseUrl);
  const naming: Naming = target.kind === 'file' ? 'file' : 'flags';
  const common = { state: journal?.journal, full: options.full === true, ...hooks };
  let opened: SourceSetup['opened'] | undefined;
  try {
    opened =
      target.kind === 'file'
        ? openDeclared(ctx, declared as Declared, common)
        : openSource(target.spec, {
            ...common,
            namespace: options.namespace,
            source:
              options.source === undefined
                ? undefined
                : checkDocumentSource('--source', options.source),
            include: options.include,
            exclude: options.exclude,
          });
    out.info(`checked ${await checkSource(opened, naming)}`);
  } catch (error) {
    if (opened) closeSource(opened);
    journal?.journal.close();
    throw error;
  }
  if (opened.source.ownsEverything && options.prune) {
    out.info(
      `no id prefix: the sync owns every document of cc pair ${options.ccPair}, and --prune deletes those the source no longer gives (${naming === 'flags' ? '--namespace PREFIX' : 'id_prefix'} owns only its own)`,
    );
  }
  return { options, client, baseUrl: base, journal, opened, naming };
}

/** What a source learns of a sync's run, to decide whether its cursor or commit moves on. */
export function syncOutcome(summary: SyncSummary) {
  return {
    failed: summary.failed,
    aborted: summary.aborted,
    stopped: summary.stopped,
    cancelled: summary.stopped === 'cancelled',
  };
}

/** `kis sync` of a database or repository, sent from here: one pass, as for files. */
export async function runSourceSync(
  ctx: Context,
  target: SyncTarget,
  flags: SyncFlags,
  interrupts: InterruptSource,
): Promise<ExitCodeValue> {
  const limits = runLimits(flags);
  const maxDelete = parseMaxDelete(flags.maxDelete);
  const { out } = ctx;
  const setup = await setUpSourceSync(ctx, target, flags, {
    onIgnored: (ref, reason) => out.result({ ref, status: 'ignored', reason }),
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  });
  const { options, opened, naming, journal } = setup;
  const pass: Pass = {
    ctx,
    options,
    client: setup.client,
    baseUrl: setup.baseUrl,
    items: () => opened.source,
    syncOptions: {
      ...limits,
      ...planOptions(options, opened.source.owns, maxDelete, journal?.journal),
    },
    current: undefined,
    abort: new AbortController(),
    finished: async (summary) => {
      await finishSource(opened, syncOutcome(summary), naming);
    },
  };
  try {
    return await sourceCall(naming, () => runPasses(pass, [], interrupts, journal?.journal));
  } finally {
    closeSource(opened);
  }
}
