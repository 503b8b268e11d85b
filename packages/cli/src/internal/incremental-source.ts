/**
 * A database or a repository opened as `@kis/node`'s SQL or git source for `kis ingest` and
 * `kis sync` (from the command line, or declared in `kis.yaml`): its check before anything is
 * sent, its errors as one line with an exit code, and the end of a run (the cursor or commit
 * recorded, the `git cat-file` ended).
 */
import {
  type DeclaredSource,
  GitSourceError,
  gitSource,
  kindOf,
  type RunOutcome,
  type SourceStateStore,
  SqlSourceError,
  sqlSource,
} from '@kis/node';
import { CliError, ExitCode } from './errors.js';
import type { SourceSpec } from './source-location.js';

/** What a source is opened with besides its spec: the journal, and what the run is told. */
export interface OpenOptions {
  /** Where the cursor or last commit is kept: the pair's journal (none in a dry run). */
  state: SourceStateStore | undefined;
  full: boolean;
  /** `--namespace`: before every id (a repository's ids keep their `<name>/` after it). */
  namespace: string | undefined;
  /** `--source`: the documents' DocumentSource. */
  source: string | undefined;
  include: readonly string[];
  exclude: readonly string[];
  onWarning: (ref: string, message: string) => void;
  onIgnored: (ref: string, reason: string) => void;
}

/** The source of a database or repository named on the command line. */
export function openSource(spec: SourceSpec, options: OpenOptions): DeclaredSource {
  return opening('flags', () => {
    if (spec.kind === 'sql') {
      const source = sqlSource({
        connection: spec.connection,
        ...spec.mapping,
        state: options.state,
        full: options.full,
        onWarning: options.onWarning,
      });
      return { kind: 'sql', source };
    }
    const common = { repository: spec.repository, ref: spec.ref };
    // a namespace goes before the ids a repository gives by default, <name>/…, as for folders
    const idPrefix =
      options.namespace === undefined ? undefined : options.namespace + gitSource(common).idPrefix;
    const source = gitSource({
      ...common,
      idPrefix,
      link: spec.link,
      source: options.source,
      include: options.include,
      exclude: options.exclude,
      state: options.state,
      full: options.full,
      onWarning: options.onWarning,
      onIgnored: options.onIgnored,
    });
    return { kind: 'git', source };
  });
}

/** How errors name the mapping's options: as flags, or as `kis.yaml` keys. */
export type Naming = 'flags' | 'file';

const FLAG_NAMES: Readonly<Record<string, string>> = {
  id: '--id',
  title: '--title',
  text: '--text',
  heading: '--heading',
  metadata: '--metadata',
  updatedAt: '--updated-at',
  link: '--link',
};

/**
 * A source's error as the command line says it: one line (the library's, password already out),
 * the options named as the user wrote them; exit 3 when the database or remote could not be
 * reached (or refused the login), else 2. Anything else is thrown as it is.
 */
export function sourceFailure(error: unknown, naming: Naming): unknown {
  if (!(error instanceof SqlSourceError || error instanceof GitSourceError)) return error;
  const message = error.message.replace(
    /\((id|title|text|heading|metadata|updatedAt|link)\)/g,
    (_, name: string) =>
      naming === 'flags'
        ? `(${FLAG_NAMES[name]})`
        : name === 'updatedAt'
          ? '(updated_at)'
          : `(${name})`,
  );
  const unreachable = /^cannot (?:connect to|fetch) /.test(message);
  return new CliError(message, unreachable ? ExitCode.Fatal : ExitCode.Usage);
}

/** Runs `fn`, its source errors turned into the command line's. */
export async function sourceCall<T>(naming: Naming, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw sourceFailure(error, naming);
  }
}

function opening(naming: Naming, fn: () => DeclaredSource): DeclaredSource {
  try {
    return fn();
  } catch (error) {
    throw sourceFailure(error, naming);
  }
}

/** The database (without password) or repository, as messages name it. */
export function shownSource(opened: DeclaredSource): string {
  return opened.kind === 'sql' ? opened.source.connection : opened.source.repository;
}

/**
 * Checks the source before anything is sent: the database answers and has every column the
 * mapping names, or the repository holds the ref. Resolves with a line saying what was found.
 */
export async function checkSource(opened: DeclaredSource, naming: Naming): Promise<string> {
  return sourceCall(naming, async () => {
    if (opened.kind === 'sql') {
      const columns = await opened.source.check();
      return `${opened.source.connection}: the query's columns ${columns.join(', ')}`;
    }
    const commit = await opened.source.check();
    return `${opened.source.repository}: commit ${commit.slice(0, 12)}`;
  });
}

/** What an item is, for a dry run's counts: a row, or the kind of a repository's file. */
export function kindOfItem(opened: DeclaredSource): (ref: string) => string {
  return opened.kind === 'sql' ? () => 'row' : (ref) => kindOf(ref)?.kind ?? 'other';
}

/**
 * After a run that sent the source's items: its cursor or commit recorded when the run stored
 * all it was given (the library decides, from the outcome); resolves true when it moved on.
 */
export function finishSource(
  opened: DeclaredSource,
  outcome: RunOutcome,
  naming: Naming,
): Promise<boolean> {
  return sourceCall(naming, () => opened.source.finish(outcome));
}

/** Ends a repository's `git cat-file` reader (a database's sessions end with each read). */
export function closeSource(opened: DeclaredSource): void {
  if (opened.kind === 'git') opened.source.close();
}
