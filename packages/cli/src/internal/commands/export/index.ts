/**
 * `kis export`: the server's connectors, credentials and pairs, user groups and document sets as
 * a file `kis apply` takes unchanged (applying it to the same server plans nothing). Credentials
 * carry their name, source and only the keys the server shows unmasked: secrets are never written.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Connector, ConnectorStatus, Credential } from '@kis/client';
import type { DesiredConnector, DesiredCredential, DesiredState } from '@kis/node';
import { DEFAULT_CREDENTIAL_ID, DEFAULT_DOCUMENT_SOURCE, isMaskedValue } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { fsReason } from '../../structured.js';
import { loadYaml } from '../../yaml-lib.js';
import {
  exportGroups,
  exportSets,
  pairGroups,
  readScopeExport,
  type ScopeExport,
} from './scope.js';

export interface ExportCommandOptions {
  output?: string;
  format?: string;
}

export function exportCommand({ act, command }: CommandEnv): Command {
  return command('export')
    .description(
      "write the server's connectors, credentials (no secrets), pairs, user groups and document sets as a file kis apply takes",
    )
    .option('-o, --output <file>', 'write to this file (default stdout)')
    .option('--format <format>', 'yaml or json (default: from the file name, else yaml)')
    .addHelpText('after', EXAMPLES(['kis export -o kis.yaml', 'kis export --format json']))
    .action(act((ctx, options: ExportCommandOptions) => runExport(ctx, options)));
}

interface Exported {
  state: DesiredState;
  /** Per credential index: the keys left out (secrets the server masks). */
  secretKeys: Map<number, string[]>;
  /** Per connector index: what the file cannot say (other pairs). */
  connectorNotes: Map<number, string>;
  /** Header notes: what was left out and why. */
  notes: string[];
}

const builtIn = (c: { id: number; source: string }) =>
  c.source === DEFAULT_DOCUMENT_SOURCE || c.id === 0;
const shown = (v: unknown) =>
  v === null || typeof v === 'boolean' || (typeof v === 'string' && !isMaskedValue(v));

function exportCredential(c: Credential): { entry: DesiredCredential; secrets: string[] } {
  const json = c.credential_json ?? {};
  const kept = Object.entries(json).filter(([, v]) => shown(v));
  const secrets = Object.keys(json).filter((k) => !shown(json[k]));
  return {
    entry: { name: c.name as string, source: c.source, credential_json: Object.fromEntries(kept) },
    secrets,
  };
}

function exportConnector(
  c: Connector,
  pair: ConnectorStatus,
  credentialName: string | undefined,
  scope: ScopeExport,
): DesiredConnector {
  const entry: DesiredConnector = { name: c.name, source: c.source };
  if (c.input_type) entry.input_type = c.input_type;
  entry.access_type = pair.access_type;
  if (c.refresh_freq !== null) entry.refresh_freq = c.refresh_freq;
  if (c.prune_freq !== null) entry.prune_freq = c.prune_freq;
  if (c.indexing_start !== null) entry.indexing_start = c.indexing_start;
  entry.config = c.connector_specific_config ?? {};
  if (credentialName !== undefined) entry.credential = credentialName;
  if (pair.name && pair.name !== c.name) entry.pair_name = pair.name;
  const groups = pairGroups(pair, scope);
  if (groups !== undefined) entry.groups = groups;
  return entry;
}

/** The server's set-up as a desired state, with what it leaves out. */
export function exportState(
  credentials: Credential[],
  connectors: Connector[],
  pairs: ConnectorStatus[],
  scope: ScopeExport,
): Exported {
  const out: Exported = {
    state: { credentials: [], connectors: [] },
    secretKeys: new Map(),
    connectorNotes: new Map(),
    notes: [],
  };
  const names = new Map<number, string>();
  /** The exported pair of each connector entry, by the entry's index. */
  const exportedPairs: number[] = [];
  for (const c of credentials) {
    if (c.id === DEFAULT_CREDENTIAL_ID || c.source === DEFAULT_DOCUMENT_SOURCE) continue;
    if (!c.name) {
      out.notes.push(
        `credential ${c.id} (${c.source}) has no name: name it to manage it from a file`,
      );
      continue;
    }
    const { entry, secrets } = exportCredential(c);
    names.set(c.id, c.name);
    if (secrets.length > 0) out.secretKeys.set(out.state.credentials?.length ?? 0, secrets);
    out.state.credentials?.push(entry);
  }
  for (const c of [...connectors].sort((a, b) => a.id - b.id)) {
    if (builtIn(c)) continue;
    const own = pairs
      .filter((p) => p.connector.id === c.id)
      .sort((a, b) => a.cc_pair_id - b.cc_pair_id);
    const pair = own[0];
    if (pair === undefined) {
      out.notes.push(`connector ${c.id} "${c.name}" (${c.source}) has no pair and is left out`);
      continue;
    }
    const credentialId = pair.credential.id;
    const credentialName =
      credentialId === DEFAULT_CREDENTIAL_ID ? undefined : names.get(credentialId);
    if (credentialId !== DEFAULT_CREDENTIAL_ID && credentialName === undefined) {
      out.notes.push(
        `connector ${c.id} "${c.name}" uses credential ${credentialId}, which has no name`,
      );
    }
    if (own.length > 1) {
      out.connectorNotes.set(
        out.state.connectors?.length ?? 0,
        `also paired with credential ${own
          .slice(1)
          .map((p) => p.credential.id)
          .join(', ')} (a file gives one pair per connector)`,
      );
    }
    exportedPairs.push(pair.cc_pair_id);
    out.state.connectors?.push(exportConnector(c, pair, credentialName, scope));
  }
  const groups = exportGroups(scope);
  if (groups.length > 0) out.state.user_groups = groups;
  const sets = exportSets(scope, pairNamesOf(out.state.connectors ?? [], exportedPairs));
  if (sets.length > 0) out.state.document_sets = sets;
  out.notes.push(...scope.notes);
  return out;
}

/**
 * The name each exported pair goes by in a set's `pairs`: its connector entry's name, when no
 * other entry answers to it (same name of another source, or that pair_name); else its id.
 */
function pairNamesOf(entries: readonly DesiredConnector[], pairIds: readonly number[]) {
  const answers = (e: DesiredConnector, name: string) =>
    e.name === name || (e.pair_name ?? e.name) === name;
  const out = new Map<number, string>();
  entries.forEach((e, i) => {
    const id = pairIds[i];
    if (id !== undefined && entries.filter((other) => answers(other, e.name)).length === 1) {
      out.set(id, e.name);
    }
  });
  return out;
}

async function asYaml(exported: Exported, baseUrl: string): Promise<string> {
  const { Document, isMap, isSeq } = await loadYaml();
  const doc = new Document(exported.state);
  doc.commentBefore = [
    ` Exported by kis export from ${baseUrl}.`,
    ' Secrets are not exported: keys left out of credential_json are kept on the server.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
    ' To set one, add it as a reference, e.g. jira_api_token: ${JIRA_API_TOKEN} or @path/to/file.',
    ...exported.notes.map((n) => ` Note: ${n}.`),
  ].join('\n');
  const note = (list: string, index: number, text: string) => {
    const seq = doc.get(list, true);
    const node = isSeq(seq) ? seq.items[index] : undefined;
    if (isMap(node)) node.commentBefore = ` ${text}`;
  };
  for (const [i, keys] of exported.secretKeys)
    note('credentials', i, `secret keys kept on the server: ${keys.join(', ')}`);
  for (const [i, text] of exported.connectorNotes) note('connectors', i, text);
  return doc.toString({ lineWidth: 100 });
}

export async function runExport(
  ctx: Context,
  options: ExportCommandOptions,
): Promise<ExitCodeValue> {
  const format =
    options.format ?? (options.output?.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
  if (format !== 'yaml' && format !== 'json') {
    throw new UsageError(`--format: expected yaml or json (got "${format}")`);
  }
  const client = await ctx.client();
  const [credentials, connectors, pairs, scope] = await Promise.all([
    client.credentials.list(),
    client.connectors.list(),
    client.pairs.list(),
    readScopeExport(client),
  ]);
  const exported = exportState(credentials, connectors, pairs, scope);
  for (const n of exported.notes) ctx.out.warn(n);
  const text =
    format === 'json'
      ? `${JSON.stringify(exported.state, null, 2)}\n`
      : await asYaml(exported, client.baseUrl);
  if (options.output === undefined || options.output === '-') {
    ctx.io.stdout.write(text);
  } else {
    try {
      await writeFile(resolve(ctx.io.cwd, options.output), text);
    } catch (error) {
      throw new UsageError(`-o: cannot write "${options.output}": ${fsReason(error)}`);
    }
    const n = exported.state;
    ctx.out.info(
      `wrote ${options.output}: ${n.credentials?.length ?? 0} credentials, ${n.connectors?.length ?? 0} connectors, ${n.user_groups?.length ?? 0} user groups, ${n.document_sets?.length ?? 0} document sets`,
    );
  }
  return ExitCode.Ok;
}
