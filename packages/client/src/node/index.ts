/**
 * @kis/client/node: Node-only helpers. The core (`@kis/client`) stays browser-safe.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { UploadFile } from '../client.js';

export { FileJournal, type FileJournalOptions, openJournal } from './journal.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pdf': 'application/pdf',
  '.pfx': 'application/x-pkcs12',
  '.p12': 'application/x-pkcs12',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
};

/**
 * Read a file for `files.upload`/`files.uploadImage`/`credentials.updatePrivateKey`: its bytes,
 * base name and a content type guessed from the extension (else `application/octet-stream`).
 */
export async function readUploadFile(path: string, contentType?: string): Promise<UploadFile> {
  const data = await readFile(path);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    fileName: basename(path),
    contentType: contentType ?? TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
  };
}
