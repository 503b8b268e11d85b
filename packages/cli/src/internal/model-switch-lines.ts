/**
 * What `kis doctor` and `kis connector status` say of a model switch in progress beyond the
 * client's notice: what `kis verify --repair` does about it (it re-pushes a pair so the new index
 * has it, which only a legacy switch needs).
 */
import type { ModelSwitchNotice } from '@kis/client';

/** The line about `kis verify --repair` for the switch `notice` tells of. */
export function repairLine(notice: ModelSwitchNotice): string {
  return notice.pushedDocuments === 'push-again'
    ? 'kis verify --repair re-pushes a pair so the new index has its pushed documents; run it for each pair you push into before the swap'
    : 'kis verify --repair has nothing to re-push for this switch: it copies pushed documents with their pair';
}
