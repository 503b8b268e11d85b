/** The passes of one `kis sync`: the first, then with `--watch` one per change, until Ctrl-C. */
import type { ExitCodeValue } from '../../errors.js';
import { type InterruptSource, onInterrupts } from '../../interrupts.js';
import type { Journal } from '../../run-setup.js';
import { type Pass, syncPass } from './pass.js';

/**
 * The first pass, then with `--watch` one per change of `watched` until Ctrl-C (which lets the
 * requests in flight finish; a second one aborts them). Closes the journal at the end.
 */
export async function runPasses(
  pass: Pass,
  watched: string[],
  interrupts: InterruptSource,
  journal: Journal | undefined,
): Promise<ExitCodeValue> {
  const { out } = pass.ctx;
  let stopWatching: (() => void) | undefined;
  const interruption = onInterrupts(interrupts, {
    first: () => {
      if (pass.current) {
        out.info(
          'interrupted: finishing the requests in flight (press Ctrl-C again to abort them)',
        );
        pass.current.stop();
      }
      stopWatching?.();
    },
    again: () => pass.abort.abort(),
  });
  try {
    // the file watcher (chokidar) is loaded for --watch only
    const watching = pass.options.watch ? await import('./watch.js') : undefined;
    const code = await syncPass(pass);
    if (watching === undefined || interruption.count() > 0) return code;
    return await watching.watchPaths(pass, watched, code, (stop) => {
      stopWatching = stop;
    });
  } finally {
    interruption.off();
    journal?.close();
  }
}
