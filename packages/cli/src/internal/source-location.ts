/**
 * A PATH of `kis ingest` or `kis sync` that names a database (`postgres://…`, `mysql://…`) or a
 * repository (`git+file:///srv/docs#main`) instead of files: recognised before any path is
 * looked up, so a connection string is never echoed as a missing file, and checked against the
 * flags that go with it.
 */
import { describeSqlConnection, isGitLocation, parseGitLocation, type SqlMapping } from '@kis/node';
import { UsageError } from './errors.js';
import type { RunFlags } from './run-options.js';
import type { SourceFlags } from './source-options.js';

/** A database or a repository named on the command line. */
export type SourceSpec =
  | { kind: 'sql'; connection: string; shown: string; mapping: SqlMapping }
  | { kind: 'git'; repository: string; ref: string | undefined; link: string | undefined };

/** The schemes of the databases an SQL source reads. */
const SQL_LOCATION = /^(?:postgres|postgresql|mysql|mariadb):\/\//i;

/** True for a PATH that names a database. */
export const isSqlLocation = (path: string) => SQL_LOCATION.test(path);

/** The mapping flags, by option name: only with a database PATH. */
const SQL_ONLY = [
  'query',
  'table',
  'id',
  'title',
  'text',
  'heading',
  'metadata',
  'updatedAt',
  'connection',
] as const;

/** `--updated-at` of an option name. */
const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** What a command line reads besides the PATHs, for the checks here. */
export type LocationFlags = SourceFlags &
  Pick<RunFlags, 'include' | 'exclude' | 'baseDir' | 'source'> & { namespace?: string };

/**
 * The database or repository among `paths`, checked with the flags; undefined when the PATHs
 * are files, folders and JSONL (then the flags of a database or repository are refused).
 */
export function locateSource(
  paths: readonly string[],
  flags: LocationFlags,
): SourceSpec | undefined {
  const located = paths.filter((p) => isSqlLocation(p) || isGitLocation(p));
  if (located.length === 0) {
    const stray = SQL_ONLY.find((name) => flags[name] !== undefined);
    if (stray) {
      throw new UsageError(
        `${flagOf(stray)}: only with a database as PATH (postgres://USER:PASSWORD@HOST:PORT/DB or mysql://…)`,
      );
    }
    for (const name of ['link', 'full'] as const) {
      if (flags[name] !== undefined) {
        throw new UsageError(
          `${flagOf(name)}: only with a database (postgres://…, mysql://…) or a repository (git+file:///PATH#REF) as PATH`,
        );
      }
    }
    return undefined;
  }
  if (paths.length > 1) {
    throw new UsageError(
      `PATH: a database or a repository is read on its own: give it as the only PATH (got ${paths.length})`,
    );
  }
  if (flags.baseDir !== undefined) {
    throw new UsageError(
      '--base-dir: only with files and folders (a database or repository gives ids of its own; --namespace puts a prefix before them)',
    );
  }
  const [path] = located as [string];
  return isSqlLocation(path) ? sqlSpec(path, flags) : gitSpec(path, flags);
}

/** A database PATH and its mapping flags. */
function sqlSpec(connection: string, flags: LocationFlags): SourceSpec {
  let shown: string;
  try {
    shown = describeSqlConnection(connection);
  } catch (error) {
    // the library's message never holds the password
    throw new UsageError(`PATH: ${(error as Error).message}`);
  }
  if (flags.include.length > 0 || flags.exclude.length > 0) {
    const flag = flags.include.length > 0 ? '--include' : '--exclude';
    throw new UsageError(`${flag}: only with folders and repositories, not a database`);
  }
  if ((flags.query === undefined) === (flags.table === undefined)) {
    throw new UsageError(
      `--query or --table: give one of them, the rows of ${shown} that are documents`,
    );
  }
  if (flags.id === undefined) {
    throw new UsageError(`--id: required with a database: the column of each row's document id`);
  }
  if (flags.text === undefined) {
    throw new UsageError(
      '--text: required with a database: the column of the text (or several: a,b)',
    );
  }
  const mapping: SqlMapping = {
    query: flags.query,
    table: flags.table,
    id: flags.id,
    title: flags.title,
    text: flags.text.length === 1 ? (flags.text[0] as string) : flags.text,
    heading: flags.heading,
    metadata: flags.metadata,
    updatedAt: flags.updatedAt,
    link: flags.link,
    idPrefix: flags.namespace,
    source: flags.source,
  };
  return { kind: 'sql', connection, shown, mapping };
}

/** A `git+…#REF` PATH; the mapping flags are refused. */
function gitSpec(location: string, flags: LocationFlags): SourceSpec {
  const stray = SQL_ONLY.find((name) => flags[name] !== undefined);
  if (stray) throw new UsageError(`${flagOf(stray)}: only with a database, not a repository`);
  try {
    const { repository, ref } = parseGitLocation(location);
    return { kind: 'git', repository, ref, link: flags.link };
  } catch (error) {
    throw new UsageError(`PATH: ${(error as Error).message}`);
  }
}
