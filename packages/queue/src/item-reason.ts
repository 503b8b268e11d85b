/** Why an item that cannot become a document fails: the message its `load` throws. */
import type { IngestItem, IngestTools } from '@kis/client';

export async function reasonOf(item: IngestItem): Promise<string> {
  const tools: IngestTools = {
    imageFileId: () => Promise.reject(new Error('no upload here')),
    signal: new AbortController().signal,
  };
  try {
    await item.load?.(tools);
  } catch (error) {
    return (error as Error).message;
  }
  return 'cannot read the file';
}
