/**
 * A repository's files as items: the kinds and extraction of a folder's files, read from their
 * blobs. Each item's id (`<prefix><path>`) and fingerprint (its blob id) are known from the
 * listing, so a journal proves an unchanged file without reading it; `load` reads the blob.
 */
import { basename, extname } from 'node:path';
import type { IngestionDocumentInput, IngestTools } from '@kis/client';
import { hash64 } from '../../journal/string-hash.js';
import { extractBytes, kindOf } from '../extract.js';
import { ExtractionError } from '../extraction-error.js';
import {
  EXTRACTION_VERSION,
  extractedDocument,
  type ItemOptions,
  type SourceItem,
} from '../items.js';
import { MAX_FILE_BYTES } from '../limits.js';
import type { BlobReader } from './blobs.js';
import type { CommitTimes } from './commit-times.js';
import { GitSourceError } from './errors.js';

/** A file of a commit to read: its path and blob id (and size, when listed). */
export interface GitFile {
  path: string;
  blob: string;
  size?: number | undefined;
}

/** A link template read: text and the placeholders between it. */
type LinkPart = { text: string } | { field: 'ref' | 'commit' | 'path' };

const FIELDS = new Set(['ref', 'commit', 'path']);

/** `{ref}`, `{commit}` and `{path}` placeholders of a link template. */
export function parseGitLink(template: string): LinkPart[] {
  const parts: LinkPart[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{([^}]*)\}/g)) {
    const name = m[1] as string;
    if (!FIELDS.has(name)) {
      throw new GitSourceError(
        `link "${template}": {${name}} is not a placeholder; use {ref}, {commit} and {path}`,
      );
    }
    if (m.index > last) parts.push({ text: template.slice(last, m.index) });
    parts.push({ field: name as 'ref' | 'commit' | 'path' });
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}

/** What every file of one run shares. */
export interface FileContext {
  reader: BlobReader;
  /** The commit read, and the ref it was named by (for links). */
  commit: string;
  ref: string;
  /** Put before each path to make its id: `<repository name>/` unless given. */
  idPrefix: string;
  link: readonly LinkPart[] | undefined;
  /** When each file last changed: its documents' `doc_updated_at`. */
  times: CommitTimes;
  options: ItemOptions;
  /** Counts the files that failed for what they hold, once each. */
  failures: { count: number };
  /** Part of each fingerprint: what shapes the documents besides the blob. */
  stamp: string;
}

/** The stamp of a run's options: a new link template or source value re-sends. */
export function optionsStamp(source: string | undefined, link: string | undefined): string {
  const [a, b] = hash64(`${source ?? 'file'}\u0000${link ?? ''}`);
  return `${a.toString(16)}${b.toString(16)}`;
}

export type GitEntry =
  | { kind: 'item'; item: SourceItem }
  | { kind: 'ignored'; path: string; reason: string };

/** Why a path is not read: a hidden part, or a kind no folder source reads either. */
export function ignoredReason(path: string): string | undefined {
  if (path.split('/').some((part) => part.startsWith('.')))
    return 'hidden (a part of its path starts with ".")';
  if (!kindOf(path)) return `unsupported file type ${extname(path) || '(no extension)'}`;
  return undefined;
}

/** A file made an item, or left out. */
export function gitEntry(file: GitFile, context: FileContext): GitEntry {
  const reason = ignoredReason(file.path);
  if (reason !== undefined) return { kind: 'ignored', path: file.path, reason };
  return { kind: 'item', item: new GitFileItem(file, context) };
}

function linkOf(parts: readonly LinkPart[], context: FileContext, path: string): string {
  return parts
    .map((p) => {
      if ('text' in p) return p.text;
      if (p.field === 'path') return path.split('/').map(encodeURIComponent).join('/');
      return encodeURIComponent(p.field === 'ref' ? context.ref : context.commit);
    })
    .join('');
}

/** A file of a commit as an item; one object per file, its `load` a method (see FileItem). */
class GitFileItem implements SourceItem {
  readonly ref: string;
  readonly id: string;
  readonly fingerprint: string;
  readonly #file: GitFile;
  readonly #context: FileContext;
  #counted = false;

  constructor(file: GitFile, context: FileContext) {
    this.ref = context.idPrefix + file.path;
    this.id = this.ref;
    this.fingerprint = `git:${file.blob}:${EXTRACTION_VERSION}:${context.stamp}`;
    this.#file = file;
    this.#context = context;
    context.times.want(file.path);
  }

  async load(tools: IngestTools): Promise<IngestionDocumentInput> {
    try {
      return await this.#build(tools);
    } catch (error) {
      // what the file holds (or a library missing): a sync's plan and run may both load it
      if (!this.#counted) this.#context.failures.count++;
      this.#counted = true;
      throw error;
    }
  }

  async #build(tools: IngestTools): Promise<IngestionDocumentInput> {
    const { path, blob, size } = this.#file;
    const context = this.#context;
    const limit = context.options.maxFileBytes ?? MAX_FILE_BYTES;
    if (size !== undefined && size > limit) {
      throw new ExtractionError(
        `file too large: ${size} bytes, over the ${limit}-byte limit of extraction`,
      );
    }
    const bytes = await context.reader.read(blob);
    if (bytes.length > limit) {
      throw new ExtractionError(
        `file too large: ${bytes.length} bytes, over the ${limit}-byte limit of extraction`,
      );
    }
    const info = kindOf(path);
    if (!info)
      throw new ExtractionError(`unsupported file type ${extname(path) || '(no extension)'}`);
    const extracted = await extractBytes(info, {
      name: basename(path),
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    return extractedDocument(extracted, {
      name: basename(path),
      key: this.ref,
      id: this.id,
      tools,
      options: context.options,
      metadata: { path, commit: context.commit },
      link: context.link ? linkOf(context.link, context, path) : undefined,
      updatedAt: await context.times.of(path),
    });
  }
}
