/**
 * The kinds of files the toolkit reads (`kis ingest`, the example apps, the web console, uploads):
 * by extension, what the file is read as, the `file_type` recorded in a document's metadata and
 * the content type it is sent with.
 */

export type FileKind =
  | 'text'
  | 'markdown'
  | 'mdx'
  | 'html'
  | 'xml'
  | 'json'
  | 'csv'
  | 'tsv'
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'eml'
  | 'epub'
  | 'image'
  | 'key';

export interface FileKindInfo {
  /** What the file is read as. */
  readonly kind: FileKind;
  /** The value recorded in a document's `file_type` metadata. */
  readonly fileType: string;
  /** The content type it is uploaded with (and, for images, must sniff as). */
  readonly mime: string;
  /** Read as a document by `kis ingest` (keys are only uploaded). */
  readonly ingest: boolean;
  /**
   * Read as a document by the web console too (apps/web), which has no extraction library: plain
   * text as it is, Markdown with its first `# heading` as title (front matter stays in the text),
   * HTML and JSON. MDX, XML, CSV/TSV, PDF and the zipped or MIME formats need the Node side.
   */
  readonly browser: boolean;
}

const kind = (
  k: FileKind,
  fileType: string,
  mime: string,
  where: { ingest?: boolean; browser?: boolean } = {},
): FileKindInfo =>
  Object.freeze({
    kind: k,
    fileType,
    mime,
    ingest: where.ingest ?? true,
    browser: where.browser ?? false,
  });

/** By lower-case extension, with the dot. */
export const FILE_KINDS: Readonly<Record<string, FileKindInfo>> = Object.freeze({
  '.txt': kind('text', 'txt', 'text/plain', { browser: true }),
  '.text': kind('text', 'txt', 'text/plain', { browser: true }),
  '.md': kind('markdown', 'md', 'text/markdown', { browser: true }),
  '.markdown': kind('markdown', 'md', 'text/markdown', { browser: true }),
  '.html': kind('html', 'html', 'text/html', { browser: true }),
  '.htm': kind('html', 'html', 'text/html', { browser: true }),
  '.json': kind('json', 'json', 'application/json', { browser: true }),
  '.conf': kind('text', 'conf', 'text/plain', { browser: true }),
  '.log': kind('text', 'log', 'text/plain', { browser: true }),
  '.sql': kind('text', 'sql', 'application/sql', { browser: true }),
  '.yml': kind('text', 'yaml', 'application/yaml', { browser: true }),
  '.yaml': kind('text', 'yaml', 'application/yaml', { browser: true }),
  '.mdx': kind('mdx', 'mdx', 'text/mdx'),
  '.xml': kind('xml', 'xml', 'application/xml'),
  '.pdf': kind('pdf', 'pdf', 'application/pdf'),
  '.docx': kind(
    'docx',
    'docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ),
  '.pptx': kind(
    'pptx',
    'pptx',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ),
  '.xlsx': kind(
    'xlsx',
    'xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ),
  '.xlsm': kind('xlsx', 'xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'),
  '.eml': kind('eml', 'eml', 'message/rfc822'),
  '.epub': kind('epub', 'epub', 'application/epub+zip'),
  '.csv': kind('csv', 'csv', 'text/csv'),
  '.tsv': kind('tsv', 'tsv', 'text/tab-separated-values'),
  '.png': kind('image', 'png', 'image/png'),
  '.jpg': kind('image', 'jpg', 'image/jpeg'),
  '.jpeg': kind('image', 'jpg', 'image/jpeg'),
  '.gif': kind('image', 'gif', 'image/gif'),
  '.webp': kind('image', 'webp', 'image/webp'),
  '.pfx': kind('key', 'pfx', 'application/x-pkcs12', { ingest: false }),
  '.p12': kind('key', 'p12', 'application/x-pkcs12', { ingest: false }),
});

/** The extension of a file name or path, lower case with the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** What a file is read as, by its name; undefined when the toolkit does not read it. */
export function fileKindOf(name: string): FileKindInfo | undefined {
  return FILE_KINDS[extensionOf(name)];
}

/** The content type to upload a file with: by extension, else `application/octet-stream`. */
export function contentTypeOf(name: string): string {
  return fileKindOf(name)?.mime ?? 'application/octet-stream';
}

/** The extensions read as documents (`ingest`), or by the web console (`browser`). */
export function extensionsFor(where: 'ingest' | 'browser'): string[] {
  return Object.keys(FILE_KINDS).filter((ext) => FILE_KINDS[ext]?.[where]);
}
