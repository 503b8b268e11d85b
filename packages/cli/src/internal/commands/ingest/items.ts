/**
 * Input units → the client's items. A file becomes an item whose `load` extracts it (and uploads
 * its image through the run) when the run has room for it, so extraction runs inside the
 * client's concurrency limit. A unit that cannot become a document is an item whose `load`
 * throws: the client reports it failed, with the reason, like any other document.
 */
import { basename, extname } from 'node:path';
import type { IngestItem, IngestionDocumentInput, IngestTools } from '@kis/client';
import { extractFile, kindOf, SUPPORTED_EXTENSIONS } from '../../extract.js';
import { describeJsonType, isPlainObject } from '../../structured.js';
import type { FoundFile } from '../../walk.js';
import type { Unit } from './inputs.js';

export interface ItemOptions {
  /** `--source`: of file documents (default `file`), and of JSONL documents without one. */
  source: string | undefined;
  /** `kis sync --namespace`: put before every document id. */
  idPrefix?: string | undefined;
  /** Words an image upload's failure (the reason of that file's failure). */
  uploadFailure: (error: unknown) => string;
}

/** A unit made an item for the client, or a file left out (an unsupported type in a directory). */
export type Entry =
  | { kind: 'item'; item: IngestItem & { ref: string; id?: string } }
  | { kind: 'ignored'; ref: string; reason: string };

/**
 * The items of `units` for `ingestMany`; `onIgnored` hears about the files left out (they never
 * reach the client).
 */
export async function* itemsOf(
  units: AsyncIterable<Unit>,
  options: ItemOptions,
  onIgnored: (ref: string, reason: string) => void,
): AsyncGenerator<IngestItem> {
  for await (const unit of units) {
    const entry = entryOf(unit, options);
    if (entry.kind === 'item') yield entry.item;
    else onIgnored(entry.ref, entry.reason);
  }
}

export function entryOf(unit: Unit, options: ItemOptions): Entry {
  switch (unit.kind) {
    case 'error':
      return { kind: 'item', item: failing(unit.ref, unit.reason) };
    case 'line':
      return { kind: 'item', item: lineItem(unit.ref, unit.value, options) };
    case 'file':
      return fileEntry(unit.file, options);
  }
}

/** An item that fails with `reason` (the client reports it like any failed document). */
function failing(ref: string, reason: string): IngestItem & { ref: string } {
  return {
    ref,
    load: () => {
      throw new Error(reason);
    },
  };
}

function fileEntry(file: FoundFile, options: ItemOptions): Entry {
  if (!kindOf(file.path)) {
    const reason = `unsupported file type ${extname(file.path) || '(no extension)'}`;
    // named on the command line: a mistake worth failing for; found in a directory: left out
    return file.explicit
      ? {
          kind: 'item',
          item: failing(
            file.key,
            `${reason}; expected ${SUPPORTED_EXTENSIONS.join(' ')} (or .jsonl of documents)`,
          ),
        }
      : { kind: 'ignored', ref: file.key, reason };
  }
  // the id is known before the file is read: `kis sync` plans with it
  const id = `${options.idPrefix ?? ''}${file.key}`;
  return {
    kind: 'item',
    item: { ref: file.key, id, load: (tools) => fileDocument(file, id, tools, options) },
  };
}

/** Reads and extracts one file (uploading it when it is an image) into its document. */
async function fileDocument(
  file: FoundFile,
  id: string,
  tools: IngestTools,
  options: ItemOptions,
): Promise<IngestionDocumentInput> {
  const extracted = await extractFile(file.path);
  const name = basename(file.path);
  const base = {
    id,
    source: options.source ?? 'file',
    metadata: { file_type: extracted.fileType, relative_path: file.key },
    ...(extracted.modified ? { doc_updated_at: extracted.modified.toISOString() } : {}),
  };
  if (extracted.kind === 'image') {
    let fileId: string;
    try {
      fileId = await tools.imageFileId({
        data: extracted.bytes,
        fileName: extracted.name,
        contentType: extracted.mime,
      });
    } catch (error) {
      throw new Error(`image upload failed: ${options.uploadFailure(error)}`);
    }
    return {
      ...base,
      semantic_identifier: name,
      sections: [{ image_file_id: fileId, text: name }],
    } as IngestionDocumentInput;
  }
  return {
    ...base,
    semantic_identifier: extracted.title ?? name,
    ...(extracted.title ? { title: extracted.title } : {}),
    sections: [{ text: extracted.text }],
  } as IngestionDocumentInput;
}

/** One JSONL line: a document, or an ingestion request `{"document", "cc_pair_id"}`. */
function lineItem(ref: string, value: unknown, options: ItemOptions): IngestItem & { ref: string } {
  const { source, idPrefix } = options;
  if (!isPlainObject(value)) {
    return failing(
      ref,
      `expected a JSON object (a document, or an ingestion request {"document", "cc_pair_id"}), got ${describeJsonType(value)}`,
    );
  }
  let document: Record<string, unknown> = value;
  let ccPairId: number | null | undefined;
  if ('document' in value && !('semantic_identifier' in value)) {
    if (!isPlainObject(value.document)) {
      return failing(ref, `"document" must be an object, got ${describeJsonType(value.document)}`);
    }
    document = value.document;
    const pair = value.cc_pair_id;
    if (pair !== undefined && pair !== null && !(Number.isInteger(pair) && (pair as number) >= 0)) {
      return failing(
        ref,
        `"cc_pair_id" must be a non-negative integer or null, got ${JSON.stringify(pair)}`,
      );
    }
    ccPairId = pair as number | null | undefined;
  }
  if (source !== undefined && (document.source === undefined || document.source === null)) {
    document = { ...document, source };
  }
  if (idPrefix !== undefined) {
    // `kis sync --namespace`: the export's id (else its semantic identifier) under the prefix
    const own =
      typeof document.id === 'string' && document.id !== ''
        ? document.id
        : document.semantic_identifier;
    if (typeof own === 'string' && own !== '') document = { ...document, id: `${idPrefix}${own}` };
  }
  const item: IngestItem & { ref: string } = {
    ref,
    document: document as IngestionDocumentInput,
  };
  if (ccPairId !== undefined) item.ccPairId = ccPairId;
  return item;
}
