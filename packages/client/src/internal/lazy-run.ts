/**
 * The `IngestRun` returned synchronously by `kis.ingestMany`, forwarding to the real run once the
 * workflows module is loaded (on first iteration or `done()`).
 */
import type {
  IngestEngine,
  IngestInput,
  IngestManyOptions,
  IngestProgress,
  IngestResult,
  IngestRun,
  IngestSummary,
} from '../ingest.js';
import { DEFAULT_MAX_CONCURRENCY } from './bulk/limits.js';

type Workflows = typeof import('./workflows.js');

export function lazyIngestRun(
  load: () => Promise<Workflows>,
  engine: IngestEngine,
  source: Iterable<IngestInput> | AsyncIterable<IngestInput>,
  options: IngestManyOptions = {},
): IngestRun {
  if (
    source === null ||
    typeof source !== 'object' ||
    !(Symbol.iterator in source || Symbol.asyncIterator in source)
  ) {
    throw new TypeError(
      'ingestMany(source): source must be an Iterable or AsyncIterable of documents',
    );
  }
  const c = options.concurrency;
  if (c !== undefined && !(Number.isInteger(c) && c >= 1)) {
    throw new TypeError(`ingestMany: concurrency must be an integer ≥ 1 (got ${String(c)})`);
  }
  const p = options.ccPairId;
  if (p !== undefined && p !== null && !(Number.isInteger(p) && p >= 0)) {
    throw new TypeError(`ingestMany: ccPairId must be an integer ≥ 0 (got ${String(p)})`);
  }
  let real: Promise<IngestRun> | undefined;
  let loaded: IngestRun | undefined;
  let mode: 'idle' | 'iterate' | 'drain' = 'idle';
  const get = () => {
    real ??= load().then((m) => {
      loaded = m.startIngestRun(engine, source, options);
      return loaded;
    });
    return real;
  };
  const run: IngestRun = {
    done(): Promise<IngestSummary> {
      if (mode === 'idle') mode = 'drain';
      return get().then((r) => r.done());
    },
    get summary(): Promise<IngestSummary> {
      return run.done();
    },
    progress(): IngestProgress {
      return (
        loaded?.progress() ?? {
          done: 0,
          created: 0,
          updated: 0,
          failed: 0,
          skipped: 0,
          aborted: 0,
          inFlight: 0,
          waiting: 0,
          concurrency: options.concurrency ?? DEFAULT_MAX_CONCURRENCY,
          ratePerSec: 0,
          pausedSince: undefined,
          pauseReason: undefined,
        }
      );
    },
    stop(): void {
      if (loaded) loaded.stop();
      else void get().then((r) => r.stop());
    },
    [Symbol.asyncIterator](): AsyncIterator<IngestResult> {
      if (mode !== 'idle') {
        throw new TypeError(
          mode === 'drain'
            ? 'ingestMany: iterate the run before calling done() or reading summary'
            : 'ingestMany: a run can be iterated only once',
        );
      }
      mode = 'iterate';
      let it: AsyncIterator<IngestResult> | undefined;
      const iterator = () =>
        it ? Promise.resolve(it) : get().then((r) => (it ??= r[Symbol.asyncIterator]()));
      return {
        next: () => iterator().then((i) => i.next()),
        return: async () => {
          const i = await iterator();
          return (await i.return?.()) ?? { done: true, value: undefined };
        },
      };
    },
  };
  return run;
}
