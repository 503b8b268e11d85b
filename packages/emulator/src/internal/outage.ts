// An outage switch (`--outage AFTER_S:FOR_S`): the server stops listening and drops its
// connections, so clients get "connection refused", then listens again on the same port with its
// state intact, as a restarted deployed server would.
import type { Server } from 'node:net';

export interface OutageView {
  active: boolean;
  outages: number;
  last_ended_at: string | null;
}

export class OutageSwitch {
  private active = false;
  private outages = 0;
  private lastEndedAt: Date | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly server: Server & { closeAllConnections?: () => void },
    private readonly port: number,
    private readonly host: string,
  ) {}

  /** Starts an outage of `forMs` after `afterMs`; resolves when the server is back. */
  schedule(afterMs: number, forMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const run = () => {
        this.begin();
        this.later(forMs, () => this.end().then(resolve, reject));
      };
      if (afterMs > 0) this.later(afterMs, run);
      else run(); // at once: the caller's next request already meets the outage
    });
  }

  view(): OutageView {
    return {
      active: this.active,
      outages: this.outages,
      last_ended_at: this.lastEndedAt?.toISOString() ?? null,
    };
  }

  /** Cancels what is scheduled (the emulator is closing). */
  cancel(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private begin(): void {
    if (this.active) return;
    this.active = true;
    this.outages++;
    this.server.close();
    this.server.closeAllConnections?.();
  }

  private end(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off('error', reject);
        this.active = false;
        this.lastEndedAt = new Date();
        resolve();
      });
    });
  }
}
