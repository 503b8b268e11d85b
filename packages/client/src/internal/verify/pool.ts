/**
 * The checks of a verification run a few documents at a time: the next document is taken from
 * the source only when a slot frees up, and results come out as they finish. Slots are an array
 * reused in place (no Set gaining and losing an entry per document, ARCHITECTURE.md "Memory").
 */

/**
 * `work` over `items`, at most `limit` at once (`work` is told its slot), results in completion
 * order. `work` never rejects.
 */
export async function* inSlots<T, R>(
  items: AsyncIterator<T>,
  limit: number,
  work: (item: T, slot: number) => Promise<R>,
  stopped: () => boolean,
): AsyncGenerator<R, void, undefined> {
  const slots: (Promise<[number, R]> | undefined)[] = new Array(limit).fill(undefined);
  let exhausted = false;
  const fill = async (slot: number): Promise<void> => {
    if (exhausted || stopped()) return;
    const next = await items.next();
    if (next.done) {
      exhausted = true;
      return;
    }
    slots[slot] = work(next.value, slot).then((r): [number, R] => [slot, r]);
  };
  for (let slot = 0; slot < limit; slot++) await fill(slot);
  for (;;) {
    const active = slots.filter((s): s is Promise<[number, R]> => s !== undefined);
    if (active.length === 0) return;
    const [slot, result] = await Promise.race(active);
    slots[slot] = undefined;
    yield result;
    await fill(slot);
  }
}
