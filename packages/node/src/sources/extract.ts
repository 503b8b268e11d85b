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
import { ExtractionError } from './extraction-error.js';
import { fsReason, oneLine } from './fs-reason.js';
import { parseJsonText } from './json-text.js';
import { csvToText, htmlToText } from './text-formats.js';

export { ExtractionError };

// The extraction libraries are loaded on first use: most commands never need them, and the
// start-up time of a command line on this client matters.
function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
const htmlToTextLib = lazy(() => import('html-to-text'));
const csvLib = lazy(() => import('csv-parse/sync'));
const pdfLib = lazy(() => import('unpdf'));
const docxLib = lazy(() => import('mammoth'));
const fileTypeLib = lazy(() => import('file-type'));

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

/** Text extracted from a file, ready to become a text section. */
export interface ExtractedText {
  kind: 'text';
  fileType: string;
  /** Last modification of the file (set by {@link extractFile}). */
  modified?: Date;
  text: string;
  /** A title found in the file (HTML `<title>`, PDF document title). */
  title?: string;
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

/** Reads a file and extracts its content according to its extension. Throws {@link ExtractionError}. */
export async function extractFile(path: string): Promise<Extracted> {
  const info = kindOf(path);
  if (!info) {
    throw new ExtractionError(
      `unsupported file type "${extname(path) || '(none)'}", expected one of ${SUPPORTED_EXTENSIONS.join(' ')}`,
    );
  }
  let bytes: Buffer;
  let modified: Date;
  try {
    // Small files are read synchronously: one syscall each instead of four round trips through
    // the thread pool, which dominates the cost of walking thousands of small files.
    const info = statSync(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    modified = info.mtime;
    bytes = info.size <= SYNC_READ_LIMIT ? readFileSync(path) : await readFile(path);
  } catch (error) {
    throw new ExtractionError(`cannot read file: ${fsReason(error)}`);
  }
  const extracted = await extractBytes(info, basename(path), bytes);
  extracted.modified = modified;
  return extracted;
}

const SYNC_READ_LIMIT = 1024 * 1024;

async function extractBytes(info: KindInfo, name: string, bytes: Buffer): Promise<Extracted> {
  const { fileType } = info;
  switch (info.kind) {
    case 'text':
      return { kind: 'text', fileType, text: decodeText(bytes) };
    case 'html': {
      const { compile } = await htmlToTextLib();
      return { kind: 'text', fileType, ...htmlToText(decodeText(bytes), compile) };
    }
    case 'json': {
      let value: unknown;
      try {
        value = parseJsonText(decodeText(bytes));
      } catch (error) {
        throw new ExtractionError(oneLine(error));
      }
      return { kind: 'text', fileType, text: JSON.stringify(value, null, 2) };
    }
    case 'csv': {
      const { parse } = await csvLib();
      return { kind: 'text', fileType, text: csvToText(decodeText(bytes), parse) };
    }
    case 'pdf':
      return { kind: 'text', fileType, ...(await pdfToText(bytes)) };
    case 'docx':
      return { kind: 'text', fileType, text: await docxToText(bytes) };
    case 'image':
      return { kind: 'image', fileType, name, bytes, mime: await sniffImage(info, bytes) };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes UTF-8 text (dropping a BOM); binary content and invalid UTF-8 are errors. */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ExtractionError('not valid UTF-8 text');
  }
  if (text.includes('\u0000')) throw new ExtractionError('binary content, expected text');
  return text;
}

async function pdfToText(bytes: Buffer): Promise<{ text: string; title?: string }> {
  const { extractText, getDocumentProxy, getMeta } = await pdfLib();
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // verbosity 0: pdf.js must not print warnings (they would land on stdout).
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = text.map((page) => page.trim()).filter((page) => page !== '');
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const raw: unknown = meta.info.Title;
      if (typeof raw === 'string' && raw.trim() !== '') title = raw.trim();
    } catch {
      // A PDF without readable metadata still has its text.
    }
    return title ? { text: pages.join('\n\n'), title } : { text: pages.join('\n\n') };
  } catch (error) {
    throw new ExtractionError(`not a valid PDF: ${oneLine(error) || 'unreadable structure'}`);
  } finally {
    await pdf?.destroy().catch(() => undefined);
  }
}

async function docxToText(bytes: Buffer): Promise<string> {
  const mod = await docxLib();
  // CommonJS module: the API is the default export under ESM.
  const mammoth = (mod as unknown as { default?: typeof mod }).default ?? mod;
  try {
    const result = await mammoth.extractRawText({ buffer: bytes });
    return result.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch (error) {
    throw new ExtractionError(`not a valid DOCX document: ${oneLine(error)}`);
  }
}

async function sniffImage(info: KindInfo, bytes: Buffer): Promise<string> {
  const { fileTypeFromBuffer } = await fileTypeLib();
  const found = await fileTypeFromBuffer(bytes);
  if (!found || found.mime !== info.mime) {
    const what = found ? `${found.mime} content` : 'unrecognised content';
    throw new ExtractionError(`not a valid ${info.fileType.toUpperCase()} image (${what})`);
  }
  return found.mime;
}
