/**
 * @kis/client/node: Node-only helpers. The core (`@kis/client`) stays browser-safe.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { contentTypeOf } from '@kis/spec/rules';
import type { UploadFile } from '../client.js';

export { closeValues } from '../internal/close-values.js';
export { FileJournal, type FileJournalOptions, openJournal } from './journal.js';
export { FileSecretRecords } from './secret-records.js';
export {
  type Extracted,
  type ExtractedImage,
  type ExtractedMetadata,
  type ExtractedSection,
  type ExtractedText,
  type Extraction,
  ExtractionError,
  type ExtractOptions,
  extensionsOfKind,
  extractFile,
  kindOf,
  MAX_FILE_BYTES,
  SUPPORTED_EXTENSIONS,
} from './sources/extract.js';
export { type FolderSource, type FolderSourceOptions, folderSource } from './sources/folder.js';
export { fsReason, oneLine } from './sources/fs-reason.js';
export type { ItemOptions, SourceItem } from './sources/items.js';
export { describeJsonType, isPlainObject, lineColumn, parseJsonText } from './sources/json-text.js';
export { countJsonlLines, type JsonlSourceOptions, jsonlSource } from './sources/jsonl.js';
export { OPTIONAL_PACKAGES } from './sources/optional-import.js';
export { fileKey } from './sources/walk.js';

/**
 * Read a file for `files.upload`/`files.uploadImage`/`credentials.updatePrivateKey`: its bytes,
 * base name and the content type the rule book gives its extension (`contentTypeOf`, else
 * `application/octet-stream`).
 */
export async function readUploadFile(path: string, contentType?: string): Promise<UploadFile> {
  const data = await readFile(path);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    fileName: basename(path),
    contentType: contentType ?? contentTypeOf(path),
  };
}
