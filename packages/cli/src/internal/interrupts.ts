/** Ctrl-C and SIGTERM, as the long-running commands (ingest, sync, emulator) hear them. */

/** The signals that interrupt a run; injectable so tests can drive them in-process. */
export interface InterruptSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/** Listens for Ctrl-C (and SIGTERM): `first` the first time, `again` after that. */
export function onInterrupts(
  interrupts: InterruptSource,
  handlers: { first: () => void; again: () => void },
): { count(): number; off(): void } {
  let count = 0;
  const listener = () => {
    count++;
    if (count === 1) handlers.first();
    else handlers.again();
  };
  interrupts.on('SIGINT', listener);
  interrupts.on('SIGTERM', listener);
  return {
    count: () => count,
    off: () => {
      interrupts.off('SIGINT', listener);
      interrupts.off('SIGTERM', listener);
    },
  };
}

/** Resolves at the first Ctrl-C or SIGTERM (what a server run until stopped waits for). */
export function nextInterrupt(interrupts: InterruptSource): Promise<void> {
  return new Promise<void>((resolveStop) => {
    const stop = () => {
      interrupts.off('SIGINT', stop);
      interrupts.off('SIGTERM', stop);
      resolveStop();
    };
    interrupts.on('SIGINT', stop);
    interrupts.on('SIGTERM', stop);
  });
}
