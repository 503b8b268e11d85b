/**
 * Paged listings as async iterators: pages are asked for one at a time, as the caller reads, and
 * the iteration ends after the last item the server counts (`total_items`) or an empty page.
 */

/** One page as the listings answer it. */
export interface Page<T> {
  items: T[];
  total_items: number;
}

export async function* eachItem<T>(
  fetchPage: (pageNum: number) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let seen = 0;
  for (let pageNum = 0; ; pageNum++) {
    const page = await fetchPage(pageNum);
    for (const item of page.items) yield item;
    seen += page.items.length;
    if (page.items.length === 0 || seen >= page.total_items) return;
  }
}
