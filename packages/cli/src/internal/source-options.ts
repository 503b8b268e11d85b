/**
 * The flags `kis ingest` and `kis sync` take for a database or a repository given as PATH: the
 * mapping of rows to documents (`--query`/`--table`, `--id`, `--text`, …), links, a full read,
 * and in queue mode the name workers hold the database by.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { wrap } from './help-text.js';

/** The values of the flags {@link addSourceOptions} adds. */
export interface SourceFlags {
  query?: string;
  table?: string;
  id?: string;
  title?: string;
  /** `--text a,b --text c`: every column, in order. */
  text?: string[];
  heading?: string;
  metadata?: string[];
  updatedAt?: string;
  link?: string;
  full?: boolean;
  /** `--connection NAME`: what workers call the database (`kis worker --connection NAME=VAR`). */
  connection?: string;
}

/** A repeatable list of columns: `--text a,b --text c` is `a, b, c`. */
function columnsArg(value: string, previous: string[] | undefined): string[] {
  const columns = value.split(',').map((c) => c.trim());
  if (columns.some((c) => c === '')) {
    throw new InvalidArgumentError('expected column names separated by commas, e.g. body,notes.');
  }
  return [...(previous ?? []), ...columns];
}

/** The flags of the mapping, after the run options (as `--help` lists them). */
export function addSourceOptions(command: Command): Command {
  return command
    .option('--query <sql>', 'with a database PATH: the SELECT whose rows are documents')
    .option('--table <name>', 'with a database PATH: a table whose rows are documents')
    .option('--id <column>', "with a database PATH: the column of each row's document id")
    .option('--title <column>', 'with a database PATH: the column of the title (default: the id)')
    .addOption(
      new Option(
        '--text <columns>',
        'with a database PATH: the column of the text, or several (a,b: one section each)',
      ).argParser(columnsArg),
    )
    .option('--heading <column>', "with a database PATH: a column heading the text's first line")
    .addOption(
      new Option(
        '--metadata <columns>',
        'with a database PATH: columns sent as metadata (a,b)',
      ).argParser(columnsArg),
    )
    .option(
      '--updated-at <column>',
      "with a database PATH: the column of each row's last update (doc_updated_at; incremental runs)",
    )
    .option(
      '--link <template>',
      "with a database PATH or a repository: each section's link, {column} replaced (SQL), or {ref}, {commit}, {path} (git)",
    )
    .option(
      '--full',
      "with a database PATH or a repository: read every row or file, whatever the journal's cursor or last commit",
    )
    .option(
      '--connection <name>',
      'with a database PATH and --queue: the name workers hold it by (kis worker --connection NAME=ENV_VAR; default: the database name)',
    );
}

/** What `--help` of `kis ingest` and `kis sync` says about databases and repositories. */
export const SOURCE_HELP = `Databases and repositories:
${wrap(
  `A PATH postgres://USER:PASSWORD@HOST:PORT/DB (or postgresql://, mysql://, mariadb://) reads the
rows of --query or --table as documents: --id, --text (a,b for several sections), and optionally
--title, --heading, --metadata a,b, --updated-at (incremental runs read only the rows updated
since the last run stored; the cursor is kept in the pair's journal) and --link with {column}.
A PATH git+file:///PATH#REF (or git+https://…, git+ssh://…; REF a branch, tag or commit) reads
the files of that commit as a folder's, ids <repository name>/<path>, --link with {ref},
{commit} and {path}; the next run reads only what changed since the commit the last run stored.
Either is given alone. The mapping or the ref is checked before anything is sent; --full reads
everything again. The password is never printed nor written to the journal or the queue.`,
)}`;
