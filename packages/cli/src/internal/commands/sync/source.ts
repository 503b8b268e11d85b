/**
 * `kis sync` of a database or repository (a PATH `postgres://…`, `git+file://…#REF`):
 * `@kis/node`'s SQL or git source, checked before anything is sent, given to the same sync and
 * passes as files; its cursor or commit recorded once a run stored all it read.
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
import { openSyncJournal } from './journal.js';
import { parseMaxDelete, planOptions, type SyncCommandOptions } from './options.js';
import type { Pass } from './pass.js';
import { runPasses } from './passes.js';

/** What a sync reads when it is not files: a database or repository. */
export interface SyncTarget {
  kind: 'flags';
  spec: SourceSpec;
}

/** The database or repository a sync reads, a PATH that names one (undefined for files). */
export function syncTarget(
  paths: readonly string[],
  flags: SyncCommandOptions,
): SyncTarget | undefined {
  const source =
    flags.source === undefined ? undefined : checkDocumentSource('--source', flags.source);
  const spec = locateSource(paths, { ...flags, source });
  if (spec === undefined) return undefined;
  if (flags.watch) {
    throw new UsageError(
      '--watch: not with a database or repository (run kis sync again, e.g. from cron: it reads what changed)',
    );
  }
  return { kind: 'flags', spec };
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
 * The pair `--cc-pair` names, checked; the pair's journal; the source opened on it and checked
 * before anything is sent.
 */
export async function setUpSourceSync(
  ctx: Context,
  target: SyncTarget,
  options: SyncCommandOptions,
  hooks: Pick<OpenOptions, 'onIgnored' | 'onWarning'>,
): Promise<SourceSetup> {
  const { out, io } = ctx;
  const { client, baseUrl } = await connect(ctx, false);
  const base = baseUrl as string;
  await checkPair(client, options.ccPair, baseUrl, 'sync');
  const journal = await openSyncJournal(io.cwd, options, baseUrl);
  const naming: Naming = 'flags';
  const common = { state: journal?.journal, full: options.full === true, ...hooks };
  let opened: SourceSetup['opened'] | undefined;
  try {
    opened = openSource(target.spec, {
      ...common,
      namespace: options.namespace,
      source:
        options.source === undefined ? undefined : checkDocumentSource('--source', options.source),
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
      `no id prefix: the sync owns every document of cc pair ${options.ccPair}, and --prune deletes those the source no longer gives (--namespace PREFIX owns only its own)`,
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
  flags: SyncCommandOptions,
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
