/**
 * What `kis verify` checks the pair against: the PATHs read as `kis ingest` reads them (the same
 * files, the same ids), the documents the pair's journal acknowledged (`--from-journal`), or
 * nothing (the pair's own listing).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IngestInput } from '@kis/client';
import { journalItems } from '@kis/node';
import type { Context } from '../../context.js';
import { checkSource } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { inputSources, readInputs, resolveBaseDir } from '../../inputs.js';
import type { JournalChoice } from '../../pair-journal.js';
import type { ReadFlags } from '../../run-options.js';

export interface Verified {
  source: Iterable<IngestInput> | AsyncIterable<IngestInput> | undefined;
  /** How many documents the source holds, when it can be counted (progress only). */
  total: Promise<number> | undefined;
  /** What was checked, as the report names it. */
  label: string;
}

export async function verifiedSource(
  ctx: Context,
  paths: readonly string[],
  flags: ReadFlags & { fromJournal?: boolean },
  ccPairId: number,
  journal: JournalChoice | undefined,
): Promise<Verified> {
  const { io, out } = ctx;
  if (flags.fromJournal) {
    if (paths.length > 0)
      throw new UsageError('--from-journal: give no PATH (the journal is the source)');
    if (journal === undefined) throw new UsageError('--from-journal: not with --no-journal');
    const file = resolve(io.cwd, journal.file);
    if (!existsSync(file)) {
      throw new UsageError(
        `--from-journal: ${journal.file} does not exist (no kis ingest or kis sync into pair ${ccPairId} from here; --journal FILE names another)`,
      );
    }
    return { source: journalItems(file, { ccPairId }), total: undefined, label: journal.file };
  }
  if (paths.length === 0) return { source: undefined, total: undefined, label: `its listing` };
  const inputs = await readInputs(paths, io);
  const sources = inputSources(inputs, io.stdin, {
    baseDir: await resolveBaseDir(io.cwd, flags.baseDir),
    include: flags.include,
    exclude: flags.exclude,
    source: flags.source === undefined ? undefined : checkSource('--source', flags.source),
    onIgnored: () => undefined,
    onWarning: (ref, message) => out.warn(`${ref}: ${message}`),
  });
  return {
    source: sources.items(),
    total: inputs.stdin ? undefined : sources.count(),
    label: paths.join(' '),
  };
}
