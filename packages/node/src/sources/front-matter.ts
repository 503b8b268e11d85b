/**
 * YAML front matter of Markdown and MDX files (`---` lines around YAML at the very start, as
 * Jekyll, Docusaurus, Mintlify and Nextra write it): `title` becomes the document's title, other
 * scalar keys and lists of scalars its metadata. Front matter is never part of the text.
 */
import type { ExtractedMetadata, Extraction } from './extraction.js';
import { oneLine } from './fs-reason.js';
import { optionalImport } from './optional-import.js';

// yaml: the YAML 1.2 parser with no dependencies (also what the CLI reads its files with);
// 457 M downloads a month.
const yamlLib = optionalImport(['yaml@2.9.1'], () => import('yaml'));

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** A Markdown text split into its front matter (read) and its body. */
export interface FrontMatter {
  /** The text after the front matter (the whole text when there is none). */
  body: string;
  /** Lines the front matter took, so positions in `body` can be told in the file's lines. */
  lines: number;
  title?: string;
  metadata: ExtractedMetadata;
  warnings: string[];
}

/** Splits off and reads the front matter of `text` (a file named `fileName`). */
export async function readFrontMatter(text: string, fileName: string): Promise<FrontMatter> {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { body: text.replace(/^\uFEFF/, ''), lines: 0, metadata: {}, warnings: [] };
  const body = text.slice(match[0].length);
  const lines = match[0].split('\n').length - (match[0].endsWith('\n') ? 1 : 0);
  const source = match[1] ?? '';
  if (source.trim() === '') return { body, lines, metadata: {}, warnings: [] };
  const { parseDocument } = await yamlLib(fileName);
  const document = parseDocument(source);
  const [error] = document.errors;
  if (error) {
    const line = (error.linePos?.[0].line ?? 1) + 1; // + the opening `---` line
    const reason = oneLine(error.message.split('\n')[0] ?? '').replace(
      / at line \d+, column \d+:?$/,
      '',
    );
    return {
      body,
      lines,
      metadata: {},
      warnings: [`front matter is not valid YAML (line ${line}: ${reason}); ignored`],
    };
  }
  const value: unknown = document.toJS();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // not keys and values: text between two rules (`---`), which stays text
    return { body: text.replace(/^\uFEFF/, ''), lines: 0, metadata: {}, warnings: [] };
  }
  return { body, lines, ...readFields(value as Record<string, unknown>), warnings: [] };
}

function readFields(fields: Record<string, unknown>): {
  title?: string;
  metadata: ExtractedMetadata;
} {
  const metadata: ExtractedMetadata = {};
  let title: string | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'title') {
      const text = scalar(value)?.trim();
      if (text) title = text;
      continue;
    }
    const one = scalar(value);
    if (one !== undefined) {
      metadata[key] = one;
    } else if (Array.isArray(value)) {
      const list = value.map(scalar);
      // a list of scalars only: a list of objects (navigation, authors' cards) is not metadata
      if (list.length > 0 && list.every((item) => item !== undefined)) metadata[key] = list;
    }
  }
  return title ? { title, metadata } : { metadata };
}

/** A scalar as the service stores it (a string); undefined for null, objects and lists. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

/** `extraction` with the title, metadata and warnings of its file's front matter. */
export function withFrontMatter(extraction: Extraction, front: FrontMatter): Extraction {
  const { warnings: own = [], ...result }: Extraction = extraction;
  if (front.title) result.title = front.title;
  if (Object.keys(front.metadata).length > 0) result.metadata = front.metadata;
  const warnings = [...front.warnings, ...own];
  return warnings.length > 0 ? { ...result, warnings } : result;
}
