/**
 * Maps an async iterable with up to `concurrency` calls of `fn` in flight, yielding results as
 * they complete (not in input order). The source is pulled only when a slot is free, so at most
 * `concurrency` items are held at any time however long the source is. Stops pulling when
 * `signal` aborts and yields what is in flight.
 */
export async function* mapConcurrent<T, R>(
  source: AsyncIterable<T> | Iterable<T>,
  fn: (item: T) => Promise<R>,
  concurrency: number,
  signal?: AbortSignal,
): AsyncGenerator<R> {
  const iterator = (
    Symbol.asyncIterator in source
      ? (source as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (source as Iterable<T>)[Symbol.iterator]()
  ) as AsyncIterator<T> | Iterator<T>;
  const limit = Math.max(1, Math.floor(concurrency));
  const inFlight = new Map<number, Promise<{ key: number; result: R }>>();
  let nextKey = 0;
  let done = false;
  try {
    while (true) {
      while (!done && inFlight.size < limit && !signal?.aborted) {
        const step = await iterator.next();
        if (step.done) {
          done = true;
          break;
        }
        const key = nextKey++;
        inFlight.set(
          key,
          fn(step.value).then((result) => ({ key, result })),
        );
      }
      if (inFlight.size === 0) return;
      const { key, result } = await Promise.race(inFlight.values());
      inFlight.delete(key);
      yield result;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}
