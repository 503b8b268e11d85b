// Index writes that fail inside the ingestion call (`--faults index-fail=RATE`, or the ids a test
// names): servers catch the failure and still answer 200 with `already_existed: true`, leaving the
// document stored without (new) chunks (`indexing_pipeline.py:426-476`). Drawn per push that would
// write the index, from the same seeded draws as the other faults.
export class IndexFaults {
  private readonly targets = new Set<string>();

  constructor(
    private rate: number,
    private readonly random: () => number,
    /** Called for each failure played (the fault counters of `/_emulator/stats`). */
    private readonly played: () => void = () => {},
  ) {}

  /** Whether the index write of this push fails. */
  draw(documentId: string): boolean {
    const fails = this.targets.has(documentId) || (this.rate > 0 && this.random() < this.rate);
    if (fails) this.played();
    return fails;
  }

  /** Makes every push of these stored ids fail its index write, until changed (`[]`: none). */
  setTargets(documentIds: readonly string[]): void {
    this.targets.clear();
    for (const id of documentIds) this.targets.add(id);
  }

  targetIds(): string[] {
    return [...this.targets].sort();
  }

  setRate(rate: number): void {
    if (!(rate >= 0 && rate <= 1))
      throw new RangeError(`index-fail rate must be from 0 to 1 (got ${rate})`);
    this.rate = rate;
  }

  get failureRate(): number {
    return this.rate;
  }
}
