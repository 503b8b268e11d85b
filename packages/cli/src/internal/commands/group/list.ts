/**
 * `kis group list`: one row per user group the key may see: its members, its pairs (whose
 * private documents the members see), the document sets shared with it, and whether its last
 * change has synced. The seeded groups (Admin, Basic) only with `--all`.
 */
import type { Command } from 'commander';
import type { CommandEnv } from '../../action.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { EXAMPLES, wrap } from '../../help-text.js';
import { tableLines } from '../../table.js';

export function listCommand({ act, command }: CommandEnv): Command {
  return command('list')
    .description(
      'list the user groups: members, pairs, document sets, whether the last change synced',
    )
    .option('--all', 'the groups every server seeds (Admin, Basic) too')
    .addHelpText(
      'after',
      `${EXAMPLES(['kis group list', 'kis --json group list --all'])}\n${wrap(
        'Needs the enterprise edition (a community server answers 404, one below the Business plan 402: one error says which, exit 3).',
      )}\n`,
    )
    .action(act((ctx, options: { all?: boolean }) => runGroupList(ctx, options)));
}

export async function runGroupList(
  ctx: Context,
  options: { all?: boolean },
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const groups = (await client.userGroups.list({ includeDefault: options.all === true })).sort(
    (a, b) => a.id - b.id,
  );
  const rows = groups.map((g) => {
    const state = g.is_up_for_deletion ? 'being deleted' : g.is_up_to_date ? 'synced' : 'syncing';
    ctx.out.result({
      id: g.id,
      name: g.name,
      users: g.users.map((u) => ({ id: u.id, email: u.email })),
      pairs: g.cc_pairs.map((p) => ({
        id: p.id,
        name: p.name ?? null,
        access_type: p.access_type,
      })),
      document_sets: g.document_sets.map((s) => ({ id: s.id, name: s.name })),
      default: g.is_default === true,
      state,
    });
    return [
      String(g.id),
      g.name,
      String(g.users.length),
      g.cc_pairs.map((p) => p.name ?? `pair ${p.id}`).join(', ') || '(none)',
      g.document_sets.map((s) => s.name).join(', ') || '(none)',
      state,
    ];
  });
  if (rows.length === 0) ctx.out.human('No user group is listed to this key.');
  else {
    const headers = ['ID', 'NAME', 'MEMBERS', 'PAIRS', 'DOCUMENT SETS', 'STATE'];
    for (const line of tableLines(headers, rows)) ctx.out.human(line);
  }
  return ExitCode.Ok;
}
