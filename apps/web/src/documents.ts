// Turns dropped or chosen files into ingestion documents, in the browser. Which files it reads is
// the rule book's (`FILE_KINDS` of `@kis/rules`, the kinds marked `browser`):
// - text (.txt, .log, .yml…): one text section, as it is.
// - Markdown (.md): one text section; the first `# heading` becomes the title (front matter is
//   not split off here: `kis ingest` does that).
// - HTML: parsed with DOMParser; the <title> becomes the title, the visible text (no scripts,
//   styles or templates) the section.
// - JSON: an IngestionRequest (`{ document, cc_pair_id? }`), an IngestionDocument (has
//   `sections`) or an array of either is sent as it is (the client validates it against the
//   spec); any other JSON value is sent as a text document holding the pretty-printed JSON.
// The file name is the semantic identifier, so dropping the same file again updates its document
// (the stored id is `ingestion_api_` + the name, see `deriveDocumentId`).
import type { IngestionDocument } from '@kis/client';
import { extensionsFor, FILE_KINDS, type FileKindInfo, fileKindOf } from '@kis/rules';

export type FileKind = 'text' | 'markdown' | 'html' | 'json';

/** One document to send, with the file (and item) it came from. */
export interface PreparedDocument {
  ref: string;
  document: IngestionDocument;
  ccPairId?: number;
}

/** A file that could not be turned into a document, with the reason. */
export interface RejectedFile {
  ref: string;
  reason: string;
}

/** What the console reads a file of the rule book's kind as; undefined when not in a browser. */
function consoleKind(info: FileKindInfo | undefined): FileKind | undefined {
  if (!info?.browser) return undefined;
  switch (info.kind) {
    case 'text':
    case 'markdown':
      return info.kind;
    case 'html':
    case 'json':
      return info.kind;
    default:
      return undefined;
  }
}

/** The extensions the console reads, from the rule book (`.txt`, `.md`, `.html`, `.json`…). */
export const EXTENSIONS: readonly string[] = extensionsFor('browser');

/** By content type, for a file whose name has no known extension: the rule book's types. */
const TYPES = new Map<string, FileKind>();
for (const ext of EXTENSIONS) {
  const info = FILE_KINDS[ext];
  const kind = consoleKind(info);
  if (info && kind) TYPES.set(info.mime, kind);
}

/** The file input's `accept` attribute: every extension, then every content type. */
export const ACCEPT_ATTRIBUTE = [...EXTENSIONS, ...TYPES.keys()].join(',');

// An older name some systems give Markdown files (a browser habit, not a rule of the service).
TYPES.set('text/x-markdown', 'markdown');

/** Names of the console's kinds, for the page's help text. */
const KIND_NAMES: Record<FileKind, string> = {
  text: 'Text',
  markdown: 'Markdown',
  html: 'HTML',
  json: 'JSON',
};

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The accepted extensions, as the rejection reason names them: `.txt, .text, … or .json`. */
export const ACCEPTED = orList(EXTENSIONS);

/** The help sentence listing the types: `Text (.txt, .text), Markdown (.md, .markdown), … .` */
export function acceptedTypesSentence(): string {
  const byKind = new Map<FileKind, string[]>();
  for (const ext of EXTENSIONS) {
    const kind = consoleKind(FILE_KINDS[ext]);
    if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), ext]);
  }
  const parts = [...byKind].map(([kind, exts]) => `${KIND_NAMES[kind]} (${exts.join(', ')})`);
  const last = parts.pop();
  return parts.length === 0 ? `${last ?? ''}.` : `${parts.join(', ')} and ${last}.`;
}

/** The kind of a file, by extension first, then by MIME type; undefined when unsupported. */
export function fileKind(file: { name: string; type: string }): FileKind | undefined {
  return consoleKind(fileKindOf(file.name)) ?? TYPES.get(file.type.split(';')[0] ?? '');
}

function textDocument(
  name: string,
  text: string,
  title: string | null,
  contentType: string,
): IngestionDocument {
  return {
    semantic_identifier: name,
    title,
    source: 'file',
    sections: [{ text, link: null }],
    metadata: { file_name: name, content_type: contentType },
  };
}

/** The first level-one ATX heading of a Markdown text (`# Title`), if any. */
export function markdownTitle(text: string): string | null {
  const m = /^ {0,3}#[ \t]+(.+?)[ \t#]*$/m.exec(text);
  return m?.[1]?.trim() || null;
}

const BLOCKS =
  'address,article,aside,blockquote,br,dd,div,dl,dt,figcaption,figure,footer,h1,h2,h3,h4,h5,h6,header,hr,li,main,nav,ol,p,pre,section,table,tr,ul';

/** The <title> and readable text of an HTML page, with line breaks between blocks. */
export function htmlText(html: string): { title: string | null; text: string } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const title = doc.title.trim() || null;
  const body = doc.body;
  for (const el of body.querySelectorAll('script,style,noscript,template,head')) el.remove();
  for (const el of body.querySelectorAll(BLOCKS)) el.after(doc.createTextNode('\n'));
  const text = (body.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
  return { title, text };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonItems(name: string, value: unknown): PreparedDocument[] | undefined {
  const one = (item: unknown, ref: string): PreparedDocument | undefined => {
    if (isObject(item) && isObject(item.document)) {
      const pair = item.cc_pair_id;
      return {
        ref,
        document: item.document as unknown as IngestionDocument,
        ...(typeof pair === 'number' ? { ccPairId: pair } : {}),
      };
    }
    if (isObject(item) && 'sections' in item) {
      return { ref, document: item as unknown as IngestionDocument };
    }
    return undefined;
  };
  if (Array.isArray(value)) {
    const items = value.map((item, i) => one(item, `${name} [${i}]`));
    return items.length > 0 && items.every((d) => d !== undefined) ? items : undefined;
  }
  const single = one(value, name);
  return single === undefined ? undefined : [single];
}

/** Reads one file and returns its documents, or the reason it cannot be sent. */
export async function prepareFile(file: File): Promise<PreparedDocument[] | RejectedFile> {
  const name = file.name || 'unnamed file';
  const kind = fileKind(file);
  if (kind === undefined) {
    return { ref: name, reason: `unsupported file type: expected ${ACCEPTED}` };
  }
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return { ref: name, reason: `could not read the file: ${(error as Error).message}` };
  }
  switch (kind) {
    case 'text':
      return [{ ref: name, document: textDocument(name, text, null, 'text/plain') }];
    case 'markdown':
      return [
        { ref: name, document: textDocument(name, text, markdownTitle(text), 'text/markdown') },
      ];
    case 'html': {
      const page = htmlText(text);
      return [{ ref: name, document: textDocument(name, page.text, page.title, 'text/html') }];
    }
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        return { ref: name, reason: `not valid JSON: ${(error as Error).message}` };
      }
      return (
        jsonItems(name, value) ?? [
          {
            ref: name,
            document: textDocument(name, JSON.stringify(value, null, 2), null, 'application/json'),
          },
        ]
      );
    }
  }
}
