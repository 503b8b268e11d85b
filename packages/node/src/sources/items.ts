/**
 * Files and JSONL lines → items for `ingestMany` and `sync`. A file becomes an item whose
 * `load` extracts it (and uploads its image through the run) when the run has room for it, so
 * extraction runs inside the client's concurrency limit. What cannot become a document is an
 * item whose `load` throws: the run reports it failed, with the reason, like any other document.
 */
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { IngestItem, IngestionDocumentInput, IngestTools } from '@kis/client';
import { hash64 } from '../journal/string-hash.js';
import {
  type Extracted,
  type ExtractedSection,
  extractFile,
  kindOf,
  SUPPORTED_EXTENSIONS,
} from './extract.js';
import { oneLine } from './fs-reason.js';
import { describeJsonType, isPlainObject } from './json-text.js';
import type { FoundFile } from './walk.js';

/**
 * An item of a folder or JSONL source: named by `ref`, with its `id` when known before loading,
 * and for a file the absolute `path` it is read from.
 */
export type SourceItem = IngestItem & { ref: string; id?: string; path?: string };

export interface ItemOptions {
  /** The `source` of file documents (default `file`), and of JSONL documents without one. */
  source?: string | undefined;
  /** Put before every document id (a namespace the source owns). */
  idPrefix?: string | undefined;
  /** Words an image upload's failure, the reason of that file's failure (default: its message). */
  describeUploadFailure?: ((error: unknown) => string) | undefined;
  /** Largest file read, in bytes (default `MAX_FILE_BYTES`, 100 MiB). */
  maxFileBytes?: number | undefined;
  /**
   * Hears what a file was read with less than its kind asks (an MDX file that does not parse,
   * read leniently; front matter that is not YAML): the file is still sent.
   */
  onWarning?: ((ref: string, message: string) => void) | undefined;
}

/**
 * Why an item that cannot become a document fails: the message its `load` throws, for callers
 * that report such a file without a run (a queue's producer, a sync's failed-file listing).
 */
export async function loadFailure(item: IngestItem): Promise<string> {
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

/** A file made an item, or left out (an unsupported type found in a directory). */
export type FileEntry = { kind: 'item'; item: SourceItem } | { kind: 'ignored'; reason: string };

/** An item that fails with `reason` (the run reports it like any failed document). */
export function failing(ref: string, reason: string): SourceItem {
  return {
    ref,
    load: () => {
      throw new Error(reason);
    },
  };
}

export function fileEntry(file: FoundFile, options: ItemOptions): FileEntry {
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
      : { kind: 'ignored', reason };
  }
  // the id is known before the file is read: `sync` plans with it
  return {
    kind: 'item',
    item: new FileItem(file, `${options.idPrefix ?? ''}${file.key}`, options),
  };
}

/**
 * A file as an item: read and extracted when the run loads it. One object per file, its `load` a
 * method rather than a closure: a sync holds every item of the source while it plans, and a
 * folder has thousands of them.
 */
class FileItem implements SourceItem {
  readonly ref: string;
  readonly id: string;
  readonly fingerprint: string | undefined;
  /** The file (absolute): a queue producer names it to workers relative to their root. */
  readonly path: string;
  readonly #options: ItemOptions;

  constructor(file: FoundFile, id: string, options: ItemOptions) {
    this.ref = file.key;
    this.id = id;
    this.fingerprint = fileFingerprint(file.path, options.source);
    this.path = file.path;
    this.#options = options;
  }

  load(tools: IngestTools): Promise<IngestionDocumentInput> {
    return fileDocument(this.path, this.ref, this.id, tools, this.#options);
  }
}

/**
 * A file's fingerprint for the journal: its size and mtime, with what else shapes its document
 * (the source value, this version's extraction), so a sync need not read a file that has not
 * changed since its last acknowledgement. Undefined when the file cannot be stat'ed (the run
 * then reads it and reports why).
 */
function fileFingerprint(path: string, source: string | undefined): string | undefined {
  try {
    // synchronous: one stat of a few µs per file, where awaiting 10,000 async ones in turn
    // costs a sync most of its time (bench/sync.mjs)
    const info = statSync(path);
    return `${info.size}:${info.mtimeMs}:${source ?? 'file'}:${EXTRACTION_VERSION}`;
  } catch {
    return undefined;
  }
}

/**
 * Bump when extraction changes what a file's document holds: fingerprints then stop matching.
 * 2: HTML headings keep their case. 3: Markdown front matter read as title and metadata. 4: MDX
 * pages strict MDX refuses read leniently.
 */
export const EXTRACTION_VERSION = 4;

/** Reads and extracts one file (uploading it when it is an image) into its document. */
async function fileDocument(
  path: string,
  key: string,
  id: string,
  tools: IngestTools,
  options: ItemOptions,
): Promise<IngestionDocumentInput> {
  const extracted = await extractFile(path, { maxFileBytes: options.maxFileBytes });
  return extractedDocument(extracted, {
    name: basename(path),
    key,
    id,
    tools,
    options,
    metadata: { relative_path: key },
  });
}

/** What shapes a document besides its extraction: its names, and what a source adds. */
export interface ExtractedDocumentParts {
  /** The file's base name: the title of a file without one. */
  name: string;
  /** How the file is named in warnings. */
  key: string;
  id: string;
  tools: IngestTools;
  options: ItemOptions;
  /** Keys the source adds (`relative_path`; a commit), winning over the file's own. */
  metadata: Record<string, string>;
  /** The link of each section. */
  link?: string | undefined;
  /** `doc_updated_at` when the file has no time of its own. */
  updatedAt?: string | undefined;
}

/** The document of an extracted file (a folder's or a repository's): image upload included. */
export async function extractedDocument(
  extracted: Extracted,
  parts: ExtractedDocumentParts,
): Promise<IngestionDocumentInput> {
  const { name, key, id, tools, options, link } = parts;
  // the file's own keys win over keys of the same name found in the file (front matter)
  const metadata = {
    ...(extracted.kind === 'text' ? extracted.metadata : undefined),
    file_type: extracted.fileType,
    ...parts.metadata,
  };
  const updated = extracted.modified?.toISOString() ?? parts.updatedAt;
  const base = {
    id,
    source: options.source ?? 'file',
    metadata,
    ...(updated ? { doc_updated_at: updated } : {}),
  };
  const linked = link === undefined ? {} : { link };
  if (extracted.kind === 'image') {
    let fileId: string;
    try {
      fileId = await tools.imageFileId({
        data: extracted.bytes,
        fileName: extracted.name,
        contentType: extracted.mime,
      });
    } catch (error) {
      const reason = options.describeUploadFailure?.(error) ?? oneLine(error);
      throw new Error(`image upload failed: ${reason}`);
    }
    return {
      ...base,
      semantic_identifier: name,
      sections: [{ image_file_id: fileId, text: name, ...linked }],
    } as IngestionDocumentInput;
  }
  for (const warning of extracted.warnings ?? []) options.onWarning?.(key, warning);
  return {
    ...base,
    semantic_identifier: extracted.title ?? name,
    ...(extracted.title ? { title: extracted.title } : {}),
    sections: textSections(extracted.sections).map((s) => ({ ...s, ...linked })),
  } as IngestionDocumentInput;
}

/**
 * One text section per extracted section, its heading as its first line unless that line is
 * the heading already (the `heading` field is read by deployed servers only); one empty section
 * for a file with no text.
 */
function textSections(sections: readonly ExtractedSection[]): { text: string }[] {
  if (sections.length === 0) return [{ text: '' }];
  return sections.map(({ heading, text }) => ({
    // a chapter whose first line is its title already says it
    text: !heading || text.split('\n', 1)[0]?.trim() === heading ? text : `${heading}\n\n${text}`,
  }));
}

/**
 * A JSONL line's fingerprint: the 64-bit hash of its text (`text` as read), with the options that
 * shape its document.
 */
function lineFingerprint(text: string, { source, idPrefix }: ItemOptions): string {
  const [high, low] = hash64(text);
  return `line:${high.toString(16)}${low.toString(16).padStart(8, '0')}:${source ?? ''}:${idPrefix ?? ''}`;
}

/**
 * One JSONL line: a document, or an ingestion request `{"document", "cc_pair_id"}`. Given the
 * line's `text`, a document with an id gets the line's fingerprint.
 */
export function lineItem(
  ref: string,
  value: unknown,
  options: ItemOptions,
  text?: string,
): SourceItem {
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
    // a namespace: the export's id (else its semantic identifier) under the prefix
    const own =
      typeof document.id === 'string' && document.id !== ''
        ? document.id
        : document.semantic_identifier;
    if (typeof own === 'string' && own !== '') document = { ...document, id: `${idPrefix}${own}` };
  }
  const item: SourceItem = {
    ref,
    document: document as IngestionDocumentInput,
  };
  if (ccPairId !== undefined) item.ccPairId = ccPairId;
  if (text !== undefined && typeof document.id === 'string' && document.id !== '') {
    // a resumed run skips an unchanged line by these, without validating or hashing it
    item.id = document.id;
    item.fingerprint = lineFingerprint(text, options);
  }
  return item;
}
