import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import type { KisClient } from '@kis/client';
import type { ExtractedImage } from './extract.js';

/**
 * Uploads images for image sections, once per distinct content. With a journal, the file ids are
 * also remembered in `<journal>.uploads` (JSON lines `{"sha256","file_id","name"}`): a resumed run
 * reuses them, so the document body (and its content hash) is the same as in the first run and
 * the journal recognises the document as already acknowledged instead of uploading it again.
 */
export class ImageUploads {
  private readonly known = new Map<string, Promise<string>>();
  private readonly cachePath: string | undefined;

  constructor(
    private readonly client: KisClient | undefined,
    journalPath: string | undefined,
  ) {
    this.cachePath = journalPath === undefined ? undefined : `${journalPath}.uploads`;
    if (this.cachePath !== undefined) this.load(this.cachePath);
  }

  private load(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // no uploads recorded yet
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as { sha256?: unknown; file_id?: unknown };
        if (typeof entry.sha256 === 'string' && typeof entry.file_id === 'string') {
          this.known.set(entry.sha256, Promise.resolve(entry.file_id));
        }
      } catch {
        // a torn last line (killed mid-write): that image is uploaded again
      }
    }
  }

  /** The file id of an image: a remembered one, or a new upload's. */
  fileId(image: ExtractedImage, signal?: AbortSignal): Promise<string> {
    const sha256 = createHash('sha256').update(image.bytes).digest('hex');
    let pending = this.known.get(sha256);
    if (pending === undefined) {
      const client = this.client;
      if (client === undefined) throw new Error('no client to upload images with');
      pending = client.files
        .uploadImage(
          { data: image.bytes, fileName: image.name, contentType: image.mime },
          signal ? { signal } : undefined,
        )
        .then(({ fileId }) => {
          if (this.cachePath !== undefined) {
            appendFileSync(
              this.cachePath,
              `${JSON.stringify({ sha256, file_id: fileId, name: image.name })}\n`,
            );
          }
          return fileId;
        });
      this.known.set(sha256, pending);
      // A failed upload is not remembered: the next file with this content tries again.
      pending.catch(() => this.known.delete(sha256));
    }
    return pending;
  }
}
