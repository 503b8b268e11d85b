/**
 * What a verification keeps of its documents: counts per check, and per reason the count and the
 * first ids (capped), nothing else, so its memory does not grow with the documents checked.
 */
import type {
  CheckCounts,
  VerifyCheck,
  VerifyReason,
  VerifyResult,
  VerifySummary,
} from '../../verify-types.js';

export class Tally {
  readonly checks: Record<VerifyCheck, CheckCounts>;
  readonly failures: Partial<Record<VerifyReason, { count: number; ids: string[] }>> = {};
  checked = 0;
  failed = 0;

  constructor(
    private readonly all: readonly VerifyCheck[],
    private readonly maxIds: number,
  ) {
    const counts = {} as Record<VerifyCheck, CheckCounts>;
    for (const check of all) counts[check] = { passed: 0, failed: 0, skipped: 0 };
    this.checks = counts;
  }

  add(result: VerifyResult): void {
    this.checked++;
    if (!result.ok) this.failed++;
    for (const check of this.all) {
      const outcome = result.checks[check];
      if (outcome !== undefined) this.checks[check][outcome]++;
    }
    for (const reason of result.reasons) {
      const entry = this.failures[reason] ?? { count: 0, ids: [] };
      this.failures[reason] = entry;
      entry.count++;
      if (entry.ids.length < this.maxIds) entry.ids.push(result.documentId || (result.ref ?? ''));
    }
  }

  /** The counts as a summary holds them. */
  counts(): Pick<VerifySummary, 'checks' | 'failures' | 'checked'> {
    return { checks: this.checks, failures: this.failures, checked: this.checked };
  }
}
