/**
 * Images uploaded while a run builds its documents (`IngestItem.load`): once per distinct
 * content, remembered in the run's journal when it can (`uploadOf`/`recordUpload`), so a resumed
 * run reuses the first run's file ids and its documents hash the same.
 */

import { type IngestJournal, sha256Hex } from '../../journal.js';
import type { UploadFile } from '../../upload-file.js';

/** A file's bytes and name, from any `UploadFile`. */
async function bytesOf(file: UploadFile): Promise<{ bytes: Uint8Array; name: string }> {
  if (!('fileName' in file)) {
    const name = (file as { name?: unknown }).name;
    return {
      bytes: new Uint8Array(await file.arrayBuffer()),
      name: typeof name === 'string' && name ? name : 'upload',
    };
  }
  const data = file.data;
  const bytes =
    typeof data === 'string'
      ? new TextEncoder().encode(data)
      : data instanceof Uint8Array
        ? data
        : data instanceof ArrayBuffer
          ? new Uint8Array(data)
          : new Uint8Array(await data.arrayBuffer());
  return { bytes, name: file.fileName };
}

/** Images uploaded for a run's (or a sync plan's) documents, once per distinct content. */
export class RunUploads {
  private readonly known = new Map<string, Promise<string>>();

  constructor(
    private readonly upload: (file: UploadFile) => Promise<string>,
    private readonly journal: IngestJournal | undefined,
    private readonly dryRun: boolean,
  ) {}

  /** The file id of an image: a remembered one, else a new upload's (a dry run uploads nothing). */
  async fileId(file: UploadFile): Promise<string> {
    const { bytes, name } = await bytesOf(file);
    const sha256 = await sha256Hex(bytes);
    let pending = this.known.get(sha256);
    if (pending === undefined) {
      pending = this.resolve(file, sha256, name);
      this.known.set(sha256, pending);
      // a failed upload is not remembered: the next file with this content tries again
      pending.catch(() => this.known.delete(sha256));
    }
    return pending;
  }

  private async resolve(file: UploadFile, sha256: string, name: string): Promise<string> {
    const remembered = await this.journal?.uploadOf?.(sha256);
    if (remembered !== undefined) return remembered;
    if (this.dryRun) return `dry-run:${sha256.slice(0, 16)}`;
    const fileId = await this.upload(file);
    await this.journal?.recordUpload?.({ sha256, fileId, name });
    return fileId;
  }
}
