/**
 * How `kis apply` prints who gains or loses access to which pair (the plan's `access`, computed
 * by `@kis/node` from the rule book's readers), before anything is sent: one line per pair whose
 * readers change, one per group whose members change, with the pairs they see through it.
 */
import type { AccessPlan, PairAccessChange } from '@kis/node';
import type { Output } from '../../output.js';

/** A reader as the index stamps it, in words: everyone, a credential's owner, a group. */
export function readerText(reader: string): string {
  if (reader === 'PUBLIC') return 'everyone (public)';
  if (reader.startsWith('user_email:')) return `owner ${reader.slice('user_email:'.length)}`;
  if (reader.startsWith('group:')) return `group "${reader.slice('group:'.length)}"`;
  return reader;
}

function pairTitle(change: PairAccessChange, deleted: boolean): string {
  const where = change.id === null ? ' (new)' : ` #${change.id}${deleted ? ' (deleted)' : ''}`;
  return `pair "${change.pair}"${where}`;
}

/** The lines of the access plan; none when the plan changes nothing. */
export function accessLines(
  access: AccessPlan,
  deletedPairs: ReadonlySet<number>,
  paint: Output['out'],
): string[] {
  const lines: string[] = [];
  for (const change of access.pairs) {
    const deleted = change.id !== null && deletedPairs.has(change.id);
    const edits = [
      ...change.gains.map((r) => paint.green(`+ ${readerText(r)}`)),
      ...change.loses.map((r) => paint.red(`- ${readerText(r)}`)),
    ];
    lines.push(`  ${pairTitle(change, deleted)}: ${edits.join(', ')}`);
  }
  for (const change of access.members) {
    const edits = [
      ...change.gains.map((u) => paint.green(`+ ${u}`)),
      ...change.loses.map((u) => paint.red(`- ${u}`)),
    ];
    const pairs = change.pairs.map((p) => `"${p}"`).join(', ') || 'no pair yet';
    lines.push(`  members of group "${change.group}": ${edits.join(', ')} (its pairs: ${pairs})`);
  }
  if (lines.length === 0) return ['Access: no one gains or loses access to any pair.'];
  return ['Access: who gains (+) or loses (-) sight of the documents of each pair:', ...lines];
}
