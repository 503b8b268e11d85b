/** Which stored ids a `kis sync` owns, local and queued alike: the only ones it may delete. */
import type { FolderSource } from '@kis/node';
import { UsageError } from '../../errors.js';
import type { Inputs } from '../../inputs.js';
import type { SyncCommandOptions } from './options.js';

/**
 * The ids this sync owns (the only ones it may delete): `--namespace`, else each directory's
 * ids (`docs/…`) and each file's id. A PATH that is `--base-dir` itself (or the file-system
 * root) would own every id of the pair, so a prune then needs `--namespace`; so do JSONL and
 * stdin inputs, whose ids are their own.
 */
export function ownership(
  inputs: Inputs,
  folder: FolderSource | undefined,
  options: SyncCommandOptions,
): readonly string[] | ((id: string) => boolean) {
  if (options.namespace === '') throw new UsageError('--namespace: expected a non-empty prefix');
  if (options.namespace !== undefined) return [options.namespace];
  const needNamespace = (why: string) =>
    new UsageError(`sync --prune: ${why}; give --namespace PREFIX (the ids this sync owns)`);
  if (options.prune && (inputs.jsonl.length > 0 || inputs.stdin)) {
    throw needNamespace('JSONL input carries ids of its own');
  }
  if (folder?.ownsEverything) {
    if (options.prune) throw needNamespace('the base directory owns every id');
    return ownsNothing; // without --prune: other sources' documents are not reported as gone
  }
  return folder ? folder.owns : ownsNothing;
}

/** What a sync owns with no --namespace and only JSONL input, or the base directory as PATH. */
const ownsNothing = (): boolean => false;
