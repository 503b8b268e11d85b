/** `kis connector fields SOURCE`: a source's config fields and credential keys, from the spec. */
import type { ConnectorField as FieldInfo, SourceFields } from '@kis/rules';
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import { sourceFields } from '../../connector-fields.js';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES } from '../../help-text.js';

export function fieldsCommand({ act, command }: CommandEnv): Command {
  return command('fields')
    .description(
      "list a source's config fields (name, kind, required, default, options) and credential keys, from the spec",
    )
    .argument('<source>', 'DocumentSource value, e.g. jira')
    .addHelpText(
      'after',
      EXAMPLES(['kis connector fields jira', 'kis --json connector fields web']),
    )
    .action(act((ctx, source: string) => runConnectorFields(ctx, source)));
}

const show = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));

function required(f: FieldInfo): string {
  if (f.required) return 'yes';
  return f.serverRequired ? 'server' : '';
}

/** The table's lines: one row per field, then the exclusive groups and the credential keys. */
function fieldLines(source: string, entry: SourceFields, bold: (s: string) => string): string[] {
  const rows = entry.fields.map((f) => [
    f.name,
    f.list && !f.kind.endsWith('[]') ? `${f.kind}[]` : f.kind,
    required(f),
    show(f.default),
    (f.options ?? []).join(', ') + (f.advanced ? `${f.options ? '; ' : ''}advanced` : ''),
  ]);
  const head = ['NAME', 'KIND', 'REQUIRED', 'DEFAULT', 'OPTIONS'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [
    `${source} connector config${entry.closed ? ' (deployed servers refuse other keys)' : ''}:`,
  ];
  if (rows.length === 0) out.push('  (no fields: give {})');
  else out.push(bold(line(head)), ...rows.map(line));
  for (const g of entry.groups) {
    const choices = g.options.map(
      (o) =>
        `${o.value}${o.value === g.default ? ' (default)' : ''}: ${o.fields.join(', ') || '-'}`,
    );
    out.push(`one choice of "${g.label}": ${choices.join(' | ')}`);
  }
  const keys = entry.credential?.keys ?? [];
  out.push(
    keys.length === 0
      ? 'credential_json: no keys asked for'
      : `credential_json keys: ${keys.map((k) => `${k.name}${k.required ? ' (required)' : ''}`).join(', ')}`,
  );
  for (const alt of entry.credential?.alternatives ?? []) out.push(`  or: ${alt.join(', ')}`);
  return out;
}

/**
 * `kis connector fields SOURCE`: the config fields and credential keys of a source, from the
 * spec's table (`docs/connector-configs.md`).
 */
export async function runConnectorFields(ctx: Context, source: string): Promise<ExitCodeValue> {
  const value = checkSource('SOURCE', source);
  const entry = sourceFields(value);
  const { out } = ctx;
  if (entry === undefined) {
    out.result(
      { source: value, schema: null },
      `${value}: the spec has no config schema for this source; any object is sent unchecked.`,
    );
    return ExitCode.Ok;
  }
  out.result({ source: value, ...entry }, fieldLines(value, entry, out.out.bold));
  return ExitCode.Ok;
}
