/**
 * What a folder comes to, for `kis ingest`'s summary: the documents of each file kind (the rule
 * book's `FILE_KINDS` kinds, `jsonl` for JSONL lines), and the files left out, by why. Counts
 * only: memory stays flat whatever the folder's size.
 */
import type { IngestResult } from '@kis/client';

/** One kind's documents in a dry run: valid ones, and those that would fail. */
export interface KindCounts {
  valid: number;
  failed: number;
}

export class IngestTally {
  private readonly kinds = new Map<string, KindCounts>();
  private readonly ignoredBy = new Map<string, number>();

  /** `kindOf`: what an item is, by its ref (inputs.ts `InputSources.kindOf`). */
  constructor(private readonly kindOf: (ref: string) => string) {}

  /** A file left out, with why (`unsupported file type .exe`, `hidden file …`). */
  ignored(reason: string): void {
    this.ignoredBy.set(reason, (this.ignoredBy.get(reason) ?? 0) + 1);
  }

  /** A dry run's result, counted under its item's kind. */
  result(result: IngestResult): void {
    if (result.status !== 'valid' && result.status !== 'failed') return;
    const kind = result.ref === undefined ? 'other' : this.kindOf(result.ref);
    let counts = this.kinds.get(kind);
    if (counts === undefined) {
      counts = { valid: 0, failed: 0 };
      this.kinds.set(kind, counts);
    }
    counts[result.status]++;
  }

  /** The kinds met, most documents first (then by name). */
  byKind(): [kind: string, counts: KindCounts][] {
    const total = ({ valid, failed }: KindCounts) => valid + failed;
    return [...this.kinds].sort(([a, x], [b, y]) => total(y) - total(x) || compare(a, b));
  }

  /** The reasons files were left out, the most frequent first (then by reason). */
  ignoredByReason(): [reason: string, count: number][] {
    return [...this.ignoredBy].sort(([a, x], [b, y]) => y - x || compare(a, b));
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
