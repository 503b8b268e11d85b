/**
 * Polling with a deadline, for the calls that wait for the server's background work (a set's or
 * group's sync): reads again after 100 ms, doubling up to 5 s, until the value is what is awaited.
 */
import { KisError } from '../errors.js';

/** `read()` again until `done(value)`; a `KisError` saying `what` once `waitMs` have passed. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  let pause = 100;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() + pause > deadline) {
      throw new KisError(`${what}: not done within ${Math.round(waitMs / 1000)} s`);
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, pause);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    pause = Math.min(pause * 2, 5_000);
  }
}
