/** `kis credential list [--source SOURCE]`: a table (or a JSON line per credential), values hidden. */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';
import { redactCredential } from './redact.js';

export interface CredentialListOptions {
  source?: string;
}

export function listCommand({ act, command }: CommandEnv): Command {
  return command('list')
    .description('list credentials (credential_json values are never printed)')
    .option('--source <source>', 'only credentials of this DocumentSource')
    .addHelpText(
      'after',
      EXAMPLES(['kis credential list', 'kis --json credential list --source jira']),
    )
    .action(act((ctx, options: CredentialListOptions) => runCredentialList(ctx, options)));
}

/** `kis credential list`: a table (or a JSON line per credential), values hidden. */
export async function runCredentialList(
  ctx: Context,
  options: CredentialListOptions,
): Promise<ExitCodeValue> {
  const source = options.source === undefined ? undefined : checkSource('--source', options.source);
  const client = await ctx.client();
  const all = await client.credentials.list();
  const list = source === undefined ? all : all.filter((c) => c.source === source);
  const { out } = ctx;
  const rows = list.map((c) => {
    const record = c as unknown as Record<string, unknown>;
    return {
      id: String(record.id),
      source: String(record.source),
      name: typeof record.name === 'string' ? record.name : '',
      admin_public:
        record.admin_public === true ? 'yes' : record.admin_public === false ? 'no' : '',
    };
  });
  for (const c of list) out.result(redactCredential(c as unknown as Record<string, unknown>));
  out.result({ summary: { count: list.length } });
  if (!out.mode.json) {
    if (rows.length === 0) {
      out.human(source === undefined ? 'No credentials.' : `No credentials with source ${source}.`);
    } else {
      const w = (key: keyof (typeof rows)[number], title: string) =>
        Math.max(title.length, ...rows.map((r) => r[key].length));
      const widths = { id: w('id', 'ID'), source: w('source', 'SOURCE'), name: w('name', 'NAME') };
      const line = (id: string, src: string, name: string, pub: string) =>
        `${id.padEnd(widths.id)}  ${src.padEnd(widths.source)}  ${name.padEnd(widths.name)}  ${pub}`.trimEnd();
      out.human(out.out.bold(line('ID', 'SOURCE', 'NAME', 'ADMIN_PUBLIC')));
      for (const r of rows) out.human(line(r.id, r.source, r.name, r.admin_public));
    }
  }
  return ExitCode.Ok;
}
