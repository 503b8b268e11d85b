/**
 * Which columns make which part of a document, checked twice: its shape when the source is made,
 * and against the query's own columns before any row is read or anything is sent (an unknown
 * column is one error naming it and listing the query's columns).
 */
import { closeValues } from '@kis/client';
import { SqlSourceError } from './errors.js';

/** How rows become documents: plain strings, so a queue job or `kis.yaml` can carry them. */
export interface SqlMapping {
  /** The query whose rows are documents (any SELECT; it is read as a derived table). */
  query?: string | undefined;
  /** A table whose rows are documents (`tickets` or `schema.tickets`), instead of a query. */
  table?: string | undefined;
  /** The column whose value is the document's id (unique per row). */
  id: string;
  /** The column of the title (`semantic_identifier` and `title`); default: the id. */
  title?: string | undefined;
  /** The text: one column, or several, each a section in this order. */
  text: string | readonly string[];
  /** A column whose value heads the text (its first line). */
  heading?: string | undefined;
  /** Columns sent as metadata (name → value; arrays as lists of strings). */
  metadata?: readonly string[] | undefined;
  /**
   * The column of the row's last update: `doc_updated_at`, and the cursor of incremental runs
   * (rows whose value reached the last run's are read again; the others are not read).
   */
  updatedAt?: string | undefined;
  /** The link of each section, `{column}` replaced by that column's value (URL-encoded). */
  link?: string | undefined;
  /** Put before every id (a namespace the source owns). */
  idPrefix?: string | undefined;
  /** The documents' `source` (default `ingestion_api`). */
  source?: string | undefined;
}

/** A link template read: text and the columns between it. */
export type LinkPart = { text: string } | { column: string };

/** A mapping whose columns the query has. */
export interface CheckedMapping {
  id: string;
  title: string;
  text: readonly string[];
  heading: string | undefined;
  metadata: readonly string[];
  updatedAt: string | undefined;
  link: readonly LinkPart[] | undefined;
  idPrefix: string;
  source: string;
  /** Every column the documents are built from, in a fixed order (the row's fingerprint). */
  used: readonly string[];
}

const isName = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** `{column}` placeholders of a link template (`{{` and `}}` for braces). */
export function parseLink(template: string): LinkPart[] {
  const parts: LinkPart[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if ((c === '{' || c === '}') && template[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === '}') throw new SqlSourceError(`link "${template}": a "}" without its "{"`);
    if (c !== '{') {
      text += c;
      continue;
    }
    const end = template.indexOf('}', i);
    if (end === -1) throw new SqlSourceError(`link "${template}": a "{" without its "}"`);
    const column = template.slice(i + 1, end);
    if (column === '') throw new SqlSourceError(`link "${template}": an empty {} names no column`);
    if (text !== '') parts.push({ text });
    text = '';
    parts.push({ column });
    i = end;
  }
  if (text !== '') parts.push({ text });
  return parts;
}

/** The text columns as a list. */
export function textColumns(mapping: SqlMapping): string[] {
  return typeof mapping.text === 'string' ? [mapping.text] : [...(mapping.text ?? [])];
}

/** Checks what can be checked without the database (names given, a link that parses). */
export function checkMappingShape(mapping: SqlMapping): void {
  if (mapping === null || typeof mapping !== 'object') {
    throw new SqlSourceError('an SQL source needs a mapping: id, text, and query or table');
  }
  if (!isName(mapping.id)) throw new SqlSourceError('id must name the column of the document ids');
  const text = textColumns(mapping);
  if (text.length === 0 || !text.every(isName)) {
    throw new SqlSourceError(
      'text must name the column of the text, or several (one section each)',
    );
  }
  for (const key of ['title', 'heading', 'updatedAt', 'link', 'idPrefix', 'source'] as const) {
    const value = mapping[key];
    if (value !== undefined && typeof value !== 'string') {
      throw new SqlSourceError(`${key} must be a string (got ${typeof value})`);
    }
  }
  if (
    mapping.metadata !== undefined &&
    !(Array.isArray(mapping.metadata) && mapping.metadata.every(isName))
  ) {
    throw new SqlSourceError('metadata must be a list of column names');
  }
  if (mapping.link !== undefined) parseLink(mapping.link);
}

/**
 * The mapping against the query's columns: every column it names must be one of them. Throws one
 * error naming each missing column (and the option that named it), listing the query's columns.
 */
export function checkMapping(mapping: SqlMapping, columns: readonly string[]): CheckedMapping {
  checkMappingShape(mapping);
  const link = mapping.link === undefined ? undefined : parseLink(mapping.link);
  const named: [string, string][] = [
    ['id', mapping.id],
    ...(mapping.title ? [['title', mapping.title] as [string, string]] : []),
    ...textColumns(mapping).map((c) => ['text', c] as [string, string]),
    ...(mapping.heading ? [['heading', mapping.heading] as [string, string]] : []),
    ...(mapping.metadata ?? []).map((c) => ['metadata', c] as [string, string]),
    ...(mapping.updatedAt ? [['updatedAt', mapping.updatedAt] as [string, string]] : []),
    ...(link ?? []).flatMap((p) => ('column' in p ? [['link', p.column] as [string, string]] : [])),
  ];
  const have = new Set(columns);
  const missing = named.filter(([, c]) => !have.has(c));
  if (missing.length > 0) {
    const each = missing.map(([option, c]) => {
      const close = closeValues(c, columns, 1);
      return `"${c}" (${option})${close.length > 0 ? `, did you mean ${close.map((n) => `"${n}"`).join(' or ')}?` : ''}`;
    });
    const list = columns.length > 0 ? columns.join(', ') : '(none)';
    throw new SqlSourceError(
      `the query has no column ${[...new Set(each)].join('; no column ')}; its columns: ${list}`,
    );
  }
  const used = [...new Set(named.map(([, c]) => c))];
  return {
    id: mapping.id,
    title: mapping.title || mapping.id,
    text: textColumns(mapping),
    heading: mapping.heading || undefined,
    metadata: [...(mapping.metadata ?? [])],
    updatedAt: mapping.updatedAt || undefined,
    link,
    idPrefix: mapping.idPrefix ?? '',
    source: mapping.source || 'ingestion_api',
    used,
  };
}
