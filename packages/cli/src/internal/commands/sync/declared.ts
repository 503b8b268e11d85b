/**
 * `kis sync --from kis.yaml NAME`: the documents a connector of the file declares
 * (`documents: { sql }` or `{ git }`), sent into the pair `kis apply` made for it. The pair is
 * found as `kis apply` finds it (the connector by name and source, with its credential), so a
 * sync never creates one; the entry is checked as `kis apply` checks it.
 */
import { dirname, resolve } from 'node:path';
import { DesiredStateError, type KisClient } from '@kis/client';
import {
  type DeclaredSource,
  type DesiredConnector,
  type DesiredCredential,
  documentSource,
  plan,
} from '@kis/node';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { type OpenOptions, sourceFailure } from '../../incremental-source.js';
import { type KisFile, readKisFile } from '../../kis-file.js';
import { addPassword } from '../../secrets.js';

/** A connector of the file that declares documents, and what it needs. */
export interface Declared {
  file: KisFile;
  connector: DesiredConnector;
  credential: DesiredCredential | undefined;
}

/** The connectors of the file that declare documents, for messages. */
function declaring(file: KisFile): string {
  const names = (file.state.connectors ?? [])
    .filter((c) => c?.documents !== undefined)
    .map((c) => JSON.stringify(c.name));
  return names.length > 0 ? `connectors with documents: ${names.join(', ')}` : 'none has documents';
}

/** Reads the file and finds the connector NAME, which must declare documents. */
export async function readDeclared(ctx: Context, path: string, name: string): Promise<Declared> {
  const file = await readKisFile(path, ctx.io);
  for (const secret of file.secrets) ctx.secrets.add(secret);
  const connectors = (file.state.connectors ?? []).filter((c) => c?.name === name);
  const connector = connectors[0];
  if (connector === undefined || connectors.length > 1) {
    const why =
      connector === undefined ? 'no connector of that name' : 'two connectors of that name';
    throw new UsageError(`--from ${path}: NAME "${name}": ${why} (${declaring(file)})`);
  }
  if (connector.documents === undefined) {
    throw new UsageError(
      `--from ${path}: connector "${name}" declares no documents: add documents: { sql: {…} } or { git: {…} } to it (${declaring(file)})`,
    );
  }
  // the entry's own unresolved references; other entries' are kis apply's business
  const index = (file.state.connectors ?? []).indexOf(connector);
  const own = file.problems?.issues.filter((i) => i.entry.startsWith(`connectors[${index}]`));
  if (own !== undefined && own.length > 0) {
    throw new CliError(
      own.map((i) => `${file.where(i)}: ${i.entry}: ${i.path}: ${i.message}`).join('; '),
      ExitCode.Usage,
    );
  }
  const credential = (file.state.credentials ?? []).find((c) => c?.name === connector.credential);
  return { file, connector, credential };
}

/**
 * The pair of the connector on the server, found by `kis apply`'s plan of this entry alone (which
 * also checks it: its config, its documents, no password written in the file). A pair that does
 * not exist yet is a usage error: `kis apply` creates it.
 */
export async function declaredPair(
  client: KisClient,
  baseUrl: string,
  declared: Declared,
): Promise<number> {
  const { file, connector, credential } = declared;
  const desired = { connectors: [connector], credentials: credential ? [credential] : [] };
  let planned: Awaited<ReturnType<typeof plan>>;
  try {
    planned = await plan(client, desired);
  } catch (error) {
    if (!DesiredStateError.isInstance(error)) throw error;
    const index = (file.state.connectors ?? []).indexOf(connector);
    const lines = error.issues.map((i) => {
      // the plan saw the entry alone: name it by its place in the file
      const entry = i.entry.replace(/^connectors\[0\]/, `connectors[${index}]`);
      const at = file.where({ ...i, entry });
      return `${at}: ${entry}: ${i.path ? `${i.path}: ` : ''}${i.message}`;
    });
    throw new UsageError(lines.join('; '));
  }
  const pair = planned.changes.find(
    (c) =>
      c.kind === 'pair' &&
      c.action !== 'keep' &&
      c.connector === connector.name &&
      c.source === connector.source,
  );
  if (pair?.id === null || pair?.id === undefined || pair.action === 'create') {
    throw new UsageError(
      `--from ${file.path}: connector "${connector.name}" has no pair on ${baseUrl} yet: run kis apply -f ${file.path} first`,
    );
  }
  return pair.id;
}

/** The declared source, opened with the run's journal; its password joins the secrets. */
export function openDeclared(
  ctx: Context,
  declared: Declared,
  options: Omit<OpenOptions, 'namespace' | 'source' | 'include' | 'exclude'>,
): DeclaredSource {
  const { connector, file } = declared;
  const reference = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(
    connector.documents?.sql?.connection ?? '',
  );
  const value = reference ? ctx.io.env[reference[1] as string] : undefined;
  if (value !== undefined) {
    try {
      addPassword(ctx.secrets, new URL(value).password);
    } catch {
      // not a URL: the source says so, without the value
    }
  }
  let opened: DeclaredSource | undefined;
  try {
    opened = documentSource(connector, {
      env: ctx.io.env,
      baseDir: dirname(resolve(ctx.io.cwd, file.path)),
      state: options.state,
      full: options.full,
      onWarning: options.onWarning,
      onIgnored: options.onIgnored,
    });
  } catch (error) {
    throw sourceFailure(error, 'file');
  }
  if (opened === undefined)
    throw new UsageError(`--from: connector "${connector.name}" declares no documents`);
  return opened;
}
