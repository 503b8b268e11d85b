/**
 * A pair's documents as `kis.yaml` declares them (`documents: { sql }` or `{ git }` of a
 * connector), opened as the SQL or git source a sync reads. References to environment variables
 * (`${NAME}`) are resolved here, when the source is opened, so the desired state and any plan
 * printed from it never hold the connection string.
 */
import { resolve } from 'node:path';
import { type GitSource, gitSource } from '../sources/git/source.js';
import type { SourceStateStore } from '../sources/source-state.js';
import { SqlSourceError } from '../sources/sql/errors.js';
import { type SqlSource, sqlSource } from '../sources/sql/source.js';
import type { DesiredConnector } from './types.js';

export interface DocumentSourceOptions {
  /** Where `${NAME}` references are read (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** The directory relative repository paths are read from (the file's; default the current one). */
  baseDir?: string | undefined;
  /** Where the source keeps its cursor or commit: the pair's journal. */
  state?: SourceStateStore | undefined;
  /** Read everything, whatever the state holds. */
  full?: boolean | undefined;
  onWarning?: ((ref: string, message: string) => void) | undefined;
  onIgnored?: ((ref: string, reason: string) => void) | undefined;
}

/** A declared source, opened: `kind` says which. */
export type DeclaredSource =
  | { kind: 'sql'; source: SqlSource }
  | { kind: 'git'; source: GitSource };

/** `${NAME}` references in a string, each replaced by its variable; one error naming a missing one. */
function resolveReferences(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    if (whole.startsWith('$$')) return whole.slice(1);
    const value = env[name];
    if (value === undefined || value === '') {
      throw new SqlSourceError(`${where}: environment variable ${name} is not set`);
    }
    return value;
  });
}

/**
 * The source of a connector's `documents`, or undefined when it declares none. Its documents take
 * the connector's `source` value.
 */
export function documentSource(
  connector: DesiredConnector,
  options: DocumentSourceOptions = {},
): DeclaredSource | undefined {
  const documents = connector.documents;
  if (documents === undefined) return undefined;
  const env = options.env ?? process.env;
  const where = `connector "${connector.name}"`;
  if (documents.sql !== undefined) {
    const d = documents.sql;
    const source = sqlSource({
      connection: resolveReferences(d.connection, env, `${where} documents.sql.connection`),
      query: d.query,
      table: d.table,
      id: d.id,
      title: d.title,
      text: d.text,
      heading: d.heading,
      metadata: d.metadata,
      updatedAt: d.updated_at,
      link: d.link,
      idPrefix: d.id_prefix,
      source: connector.source,
      state: options.state,
      full: options.full,
      onWarning: options.onWarning,
    });
    return { kind: 'sql', source };
  }
  if (documents.git !== undefined) {
    const d = documents.git;
    const repository = resolveReferences(d.repository, env, `${where} documents.git.repository`);
    const local =
      !/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) && !/^[^/\s@]+@[^/\s:]+:/.test(repository);
    const source = gitSource({
      repository: local ? resolve(options.baseDir ?? '.', repository) : repository,
      ref: d.ref,
      link: d.link,
      idPrefix: d.id_prefix,
      include: d.include,
      exclude: d.exclude,
      source: connector.source,
      state: options.state,
      full: options.full,
      onWarning: options.onWarning,
      onIgnored: options.onIgnored,
    });
    return { kind: 'git', source };
  }
  return undefined;
}
