/** The options of `kis sync`: the shared run options, its own, and `--max-delete` read. */
import type { SyncJournal, SyncOptions } from '@kis/node';
import { UsageError } from '../../errors.js';
import type { QueueFlags } from '../../queue-mode/options.js';
import type { RunFlags } from '../../run-options.js';
import type { SourceFlags } from '../../source-options.js';

export interface SyncCommandOptions extends RunFlags, QueueFlags, SourceFlags {
  ccPair: number;
  journal?: string;
  dryRun?: boolean;
  prune?: boolean;
  /** `--max-delete N|P%`. */
  maxDelete?: string;
  force?: boolean;
  namespace?: string;
  /** Keep syncing as the paths change. */
  watch?: boolean;
}

/** The flags as given: `--cc-pair` may be left out with `--from FILE` (the file's pair). */
export interface SyncFlags extends Omit<SyncCommandOptions, 'ccPair'> {
  ccPair?: number;
  /** `--from kis.yaml`: the one PATH is the name of a connector declaring documents. */
  from?: string;
}

/** The options once the pair is known: `--cc-pair`, required without `--from`. */
export function withPair(flags: SyncFlags, ccPair = flags.ccPair): SyncCommandOptions {
  if (ccPair === undefined) throw new UsageError("required option '--cc-pair <id>' not specified");
  return { ...flags, ccPair };
}

/** `--max-delete`: a count or a share. */
export function parseMaxDelete(value: string | undefined): number | `${number}%` | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^\d+(\.\d+)?%$/.test(value) && Number.parseFloat(value) <= 100) return value as `${number}%`;
  throw new UsageError(
    `--max-delete: expected a count (e.g. 20) or a share (e.g. 10%), got "${value}"`,
  );
}

/** The client's `sync` options the flags give, local and queued alike (`owns`: ownership.ts). */
export function planOptions(
  options: SyncCommandOptions,
  owns: SyncOptions['owns'],
  maxDelete: number | `${number}%` | undefined,
  journal: SyncJournal | undefined,
): SyncOptions {
  return {
    ccPairId: options.ccPair,
    owns,
    ...(journal ? { journal } : {}),
    ...(options.prune ? { prune: true } : {}),
    ...(maxDelete === undefined ? {} : { maxDelete }),
    ...(options.force ? { force: true } : {}),
  };
}
