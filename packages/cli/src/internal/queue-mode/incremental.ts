/**
 * A database or repository in queue mode (`kis ingest --queue`, `kis sync --queue`): the
 * `@kis/queue` source of its SQL or git source (jobs name key ranges and the name workers hold
 * the database by, or a commit's files under `--root`), and its cursor or commit recorded once
 * the run it enqueued is finished with nothing lost.
 */
import type { DeclaredSource } from '@kis/node';
import type { QueueSource } from '@kis/queue';
import { UsageError } from '../errors.js';
import { finishSource, type Naming } from '../incremental-source.js';
import type { Output } from '../output.js';
import type { QueueFlags } from './options.js';
import { resolveRoot } from './sources.js';
import type { FollowEnd } from './wait.js';

/** The names workers give their connections (`kis worker --connection NAME=ENV_VAR`). */
const CONNECTION_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The database's name in a connection string shown without password (`…/crm` → `crm`). */
function databaseName(shown: string): string {
  return decodeURIComponent(new URL(shown).pathname.replace(/^\//, ''));
}

/**
 * The queue source of a database (by the name workers hold it by: `--connection`, else the
 * database's name) or of a repository under `--root`; what workers need is said on stderr.
 */
export async function queueSourceOf(
  out: Output,
  opened: DeclaredSource,
  flags: Pick<QueueFlags, 'root'> & { connection?: string | undefined },
  cwd: string,
): Promise<QueueSource> {
  if (opened.kind === 'git') {
    if (flags.connection !== undefined) {
      throw new UsageError('--connection: only with a database, not a repository');
    }
    return { kind: 'git', source: opened.source, root: await resolveRoot(cwd, flags.root) };
  }
  if (flags.root !== undefined) {
    throw new UsageError(
      '--root: not with a database: workers read it through the connection they hold (kis worker --connection NAME=ENV_VAR)',
    );
  }
  const name = flags.connection ?? databaseName(opened.source.connection);
  if (!CONNECTION_NAME.test(name)) {
    throw new UsageError(
      `--connection: "${name}" cannot name a connection: give the name workers hold ${opened.source.connection} by (letters, digits, _ . -)`,
    );
  }
  out.info(
    `workers read ${opened.source.connection} as "${name}": start them with kis worker --connection ${name}=ENV_VAR (ENV_VAR holding its connection string)`,
  );
  return { kind: 'sql', source: opened.source, connection: name };
}

/**
 * After `--wait`: the source's cursor or commit recorded when the run finished with every document
 * stored but the rows the source refused itself (never after a stop or Ctrl-C: the run goes on).
 */
export async function finishQueued(
  opened: DeclaredSource,
  end: FollowEnd,
  naming: Naming,
): Promise<boolean> {
  if (end.how !== 'finished' || end.run === undefined) return false;
  const { failed, pending } = end.run.documents;
  return finishSource(opened, { failed, aborted: pending }, naming);
}

/** Without `--wait` the cursor stays: said once, so a user knows why the next run reads it again. */
export function noteCursorStays(out: Output, opened: DeclaredSource): void {
  const what = opened.kind === 'sql' ? 'cursor' : 'last commit';
  out.info(
    `the ${what} of ${opened.kind === 'sql' ? opened.source.connection : opened.source.repository} moves on only with --wait: the next run enqueues what this one did again (upserts by id)`,
  );
}
