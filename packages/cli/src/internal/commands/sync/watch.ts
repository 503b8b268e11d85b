/** `kis sync --watch`: a new pass each time the paths change. */
import { basename } from 'node:path';
import { watch } from 'chokidar';
import type { ExitCodeValue } from '../../errors.js';
import { type Pass, syncPass } from './pass.js';

/** How long a file must stay unchanged before its change counts, and the wait for more events. */
const WATCH_SETTLE_MS = 300;
const WATCH_DEBOUNCE_MS = 400;

/**
 * `--watch`: after the first pass, a new pass each time the paths have changed and settled (a
 * saved file is updated, a deleted one pruned, a rename is both). Ends on Ctrl-C, with the exit
 * code of the last pass.
 */
export async function watchPaths(
  pass: Pass,
  paths: string[],
  first: ExitCodeValue,
  onStop: (stop: () => void) => void,
): Promise<ExitCodeValue> {
  const { out } = pass.ctx;
  const watcher = watch(paths, {
    ignoreInitial: true,
    // hidden files are not synced (as kis ingest skips them), so their changes are not events
    ignored: (path: string) => basename(path).startsWith('.') && !paths.includes(path),
    awaitWriteFinish: { stabilityThreshold: WATCH_SETTLE_MS, pollInterval: 50 },
  });
  let last = first;
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  let running: Promise<void> | undefined;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const runPass = async () => {
    if (running) {
      pending = true; // one more pass once this one ends
      return;
    }
    running = (async () => {
      do {
        pending = false;
        last = await syncPass(pass);
      } while (pending);
    })();
    await running;
    running = undefined;
  };
  watcher.on('all', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void runPass(), WATCH_DEBOUNCE_MS);
  });
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });
  out.info(`watching ${paths.length} path(s) for changes; Ctrl-C to stop`);
  onStop(() => {
    clearTimeout(timer);
    finish();
  });
  await finished;
  await running;
  await watcher.close();
  return last;
}
