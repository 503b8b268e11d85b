/**
 * The change `kis docset add` and `remove` share: the set's pairs with some added or taken out,
 * sent as the full replace servers take (`setUpdateBody` of the rule book).
 */
import { setUpdateBody } from '@kis/rules';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue, UsageError } from '../../errors.js';
import type { WaitFlags } from '../../scope-wait.js';
import { afterChange, findSet, pairIdsOf, setLabel } from './sets.js';

export async function changePairs(
  ctx: Context,
  ref: string,
  pairRefs: readonly string[],
  how: 'add' | 'remove',
  flags: WaitFlags,
): Promise<ExitCodeValue> {
  const client = await ctx.client();
  const set = await findSet(client, ref);
  const ids = await pairIdsOf(ctx, pairRefs);
  const current = set.cc_pair_summaries.map((p) => p.id);
  const after =
    how === 'add' ? [...new Set([...current, ...ids])] : current.filter((id) => !ids.includes(id));
  if (after.length === current.length && after.every((id) => current.includes(id))) {
    ctx.out.result(
      { document_set_id: set.id, name: set.name, action: 'unchanged' },
      `${setLabel(set)}: unchanged (${how === 'add' ? 'it holds' : 'it does not hold'} those pairs already)`,
    );
    return ExitCode.Ok;
  }
  if (after.length === 0) {
    throw new UsageError(
      `${setLabel(set)}: a set keeps at least one pair; to empty it, delete it (kis docset delete)`,
    );
  }
  await client.documentSets.update(setUpdateBody(set, { cc_pair_ids: after }));
  const done = `${how === 'add' ? 'added' : 'removed'} ${Math.abs(after.length - current.length)} pair(s), ${after.length} now`;
  return afterChange(ctx, client, set, done, flags);
}
