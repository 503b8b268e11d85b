// A server that serves at most N requests at once (`--capacity`), with a bounded queue
// (`--queue`): the overload model deployed servers show when indexing runs inside the request.

export class Capacity {
  private inService = 0;
  private readonly waiting: (() => void)[] = [];
  /** Highest number in service and waiting seen so far (`/_emulator/stats`). */
  maxInService = 0;
  maxQueued = 0;

  constructor(
    private readonly limit: number,
    private readonly queueLimit: number,
  ) {}

  /** Takes a place; false when the queue is full (the caller answers 503). */
  async enter(): Promise<boolean> {
    if (this.inService < this.limit) {
      this.take();
      return true;
    }
    if (this.waiting.length >= this.queueLimit) return false;
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.maxQueued = Math.max(this.maxQueued, this.waiting.length);
    });
    return true;
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next !== undefined)
      next(); // the place passes on: inService stays the same
    else this.inService--;
  }

  private take(): void {
    this.inService++;
    this.maxInService = Math.max(this.maxInService, this.inService);
  }
}
