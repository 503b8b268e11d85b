import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import {
  extensionsFor,
  FILE_KINDS,
  type FileKind,
  type FileKindInfo,
  fileKindOf,
} from '@kis/rules';
import type { Extraction, FileBytes } from './extraction.js';
import { ExtractionError } from './extraction-error.js';
import { fsReason } from './fs-reason.js';
import { extractCsv, extractTsv } from './kinds/delimited.js';
import { extractDocx } from './kinds/docx.js';
import { extractEml } from './kinds/eml.js';
import { extractEpub } from './kinds/epub.js';
import { extractHtml } from './kinds/html.js';
import { sniffImage } from './kinds/image.js';
import { extractJson } from './kinds/json.js';
import { extractMarkdown } from './kinds/markdown.js';
import { extractMdx } from './kinds/mdx.js';
import { extractPdf } from './kinds/pdf.js';
import { extractPptx } from './kinds/pptx.js';
import { extractText } from './kinds/text.js';
import { extractXlsx } from './kinds/xlsx.js';
import { extractXml } from './kinds/xml.js';
import { MAX_FILE_BYTES } from './limits.js';

export type { ExtractedMetadata, ExtractedSection, Extraction } from './extraction.js';
export { MAX_FILE_BYTES } from './limits.js';
export { decodeText } from './text-decode.js';
export { ExtractionError };

/** What a folder source reads a file as (the rule book's kinds, less private keys). */
export type IngestKind = Exclude<FileKind, 'key'>;

/** A file kind a folder source turns into a document. */
export type KindInfo = FileKindInfo & { readonly kind: IngestKind };

/** The file extensions a folder source turns into documents (lower case, with the dot). */
export const SUPPORTED_EXTENSIONS: readonly string[] = extensionsFor('ingest');

/** The kind of a file by its extension, or undefined when a folder source does not read it. */
export function kindOf(path: string): KindInfo | undefined {
  const info = fileKindOf(path);
  return info?.ingest && info.kind !== 'key' ? (info as KindInfo) : undefined;
}

/** The extensions of one kind of file (`.png .jpg …` for images), from the rule book. */
export function extensionsOfKind(kind: FileKind): string[] {
  return Object.keys(FILE_KINDS).filter((ext) => FILE_KINDS[ext]?.kind === kind);
}

/**
 * Text extracted from a file: its sections (one for a plain file; one per slide, sheet or
 * chapter), with the title, metadata and warnings the file gave.
 */
export interface ExtractedText extends Extraction {
  kind: 'text';
  fileType: string;
  /** Last modification of the file (set by {@link extractFile}). */
  modified?: Date;
}

/** An image file, checked to really be an image of its extension's type. */
export interface ExtractedImage {
  kind: 'image';
  fileType: string;
  /** Last modification of the file (set by {@link extractFile}). */
  modified?: Date;
  mime: string;
  name: string;
  bytes: Uint8Array;
}

export type Extracted = ExtractedText | ExtractedImage;

export interface ExtractOptions {
  /** Largest file read, in bytes (default {@link MAX_FILE_BYTES}, 100 MiB). */
  maxFileBytes?: number | undefined;
}

/** Each text kind's extractor, over the file's bytes. */
const EXTRACTORS: Record<Exclude<IngestKind, 'image'>, (file: FileBytes) => Promise<Extraction>> = {
  text: extractText,
  markdown: extractMarkdown,
  mdx: extractMdx,
  html: extractHtml,
  xml: extractXml,
  json: extractJson,
  csv: extractCsv,
  tsv: extractTsv,
  pdf: extractPdf,
  docx: extractDocx,
  pptx: extractPptx,
  xlsx: extractXlsx,
  eml: extractEml,
  epub: extractEpub,
};

/** Reads a file and extracts its content according to its extension. Throws {@link ExtractionError}. */
export async function extractFile(path: string, options: ExtractOptions = {}): Promise<Extracted> {
  const info = kindOf(path);
  if (!info) {
    throw new ExtractionError(
      `unsupported file type "${extname(path) || '(none)'}", expected one of ${SUPPORTED_EXTENSIONS.join(' ')}`,
    );
  }
  const limit = options.maxFileBytes ?? MAX_FILE_BYTES;
  let bytes: Buffer;
  let modified: Date;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    if (stat.size > limit) {
      throw new ExtractionError(
        `file too large: ${formatSize(stat.size)}, over the ${formatSize(limit)} limit of extraction`,
      );
    }
    modified = stat.mtime;
    // Small files are read synchronously: one syscall each instead of four round trips through
    // the thread pool, which dominates the cost of walking thousands of small files.
    bytes = stat.size <= SYNC_READ_LIMIT ? readFileSync(path) : await readFile(path);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`cannot read file: ${fsReason(error)}`);
  }
  const extracted = await extractBytes(info, { name: basename(path), bytes });
  extracted.modified = modified;
  return extracted;
}

const SYNC_READ_LIMIT = 1024 * 1024;

/** `2 KiB`, `12.3 MiB`: sizes in messages. */
function formatSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown =
    unit === 0 || value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

/** Extracts a file's bytes as the kind `info` says. Throws {@link ExtractionError}. */
export async function extractBytes(info: KindInfo, file: FileBytes): Promise<Extracted> {
  const { fileType } = info;
  if (info.kind === 'image') {
    const mime = await sniffImage(file, info);
    return { kind: 'image', fileType, name: file.name, bytes: file.bytes, mime };
  }
  const extraction = await EXTRACTORS[info.kind](file);
  return { kind: 'text', fileType, ...extraction };
}
