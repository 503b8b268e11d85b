/**
 * What `kis sync` prints of its plan, local and queued alike: a line per document (`--json`,
 * `--verbose`), the counts, and where the sync ends with the plan (a refused prune, a dry run).
 */
import type { SyncPlan } from '@kis/node';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import type { Output } from '../../output.js';
import type { SyncCommandOptions } from './options.js';
import { readableId } from './result-line.js';

export function printPlan(out: Output, plan: SyncPlan, options: SyncCommandOptions): void {
  const perDocument = out.mode.json || out.mode.verbose;
  if (perDocument) {
    // a line per document of the source (thousands): each built only in the form printed
    const json = out.mode.json;
    out.batch(() => {
      for (const action of ['create', 'update', 'unchanged', 'delete'] as const) {
        const label = action.padEnd(9);
        for (const { documentId, ref } of plan[action]) {
          if (json) {
            out.result(
              ref
                ? { plan: action, document_id: documentId, ref }
                : { plan: action, document_id: documentId },
            );
          } else out.human(`${label} ${ref ?? readableId(documentId)}`);
        }
      }
    });
  }
  const counts = {
    create: plan.create.length,
    update: plan.update.length,
    unchanged: plan.unchanged.length,
    delete: plan.delete.length,
    owned: plan.owned,
  };
  out.result(
    {
      plan: counts,
      prune: options.prune === true,
      ...(plan.refused ? { refused: plan.refused } : {}),
    },
    `Plan for cc pair ${options.ccPair}: ${counts.create} to create, ${counts.update} to update, ${counts.unchanged} unchanged, ${counts.delete} to delete (of ${counts.owned} owned)`,
  );
  if (counts.delete > 0 && !options.prune) {
    out.info(`${counts.delete} owned document(s) are gone from the source; --prune deletes them`);
  }
  if (plan.pruneBlocked) out.warn(`not pruning: ${plan.pruneBlocked}`);
}

/**
 * Prints the plan; the exit code when the sync ends with it (a prune over `--max-delete` is
 * refused, a dry run says `dryRunNote`), else undefined: the plan is to be carried out.
 */
export function printPlanEnd(
  out: Output,
  plan: SyncPlan,
  options: SyncCommandOptions,
  dryRunNote: string,
): ExitCodeValue | undefined {
  printPlan(out, plan, options);
  if (plan.refused) {
    out.error(
      `refusing to sync: ${plan.refused.replace('force it', 'pass --force (or raise --max-delete)')}`,
    );
    return ExitCode.Usage;
  }
  if (options.dryRun) {
    out.info(dryRunNote);
    return ExitCode.Ok;
  }
  return undefined;
}
