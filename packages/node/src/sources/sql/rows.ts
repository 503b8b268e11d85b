/**
 * Rows → items for `ingestMany` and `sync`: each item's id and fingerprint are known as the row is
 * read (a journal proves an unchanged row without building its document), and its `load` builds
 * the document. A row that cannot be one (no id, a null text, an id seen before in this run)
 * fails alone, named by its id.
 */
import type { IngestionDocumentInput } from '@kis/client';
import { hash64 } from '../../journal/string-hash.js';
import type { SourceItem } from '../items.js';
import type { CheckedMapping, LinkPart } from './mapping.js';
import type { SeenIds } from './seen-ids.js';
import type { SqlRow } from './session.js';
import { isoTimeOf, metadataOf, stableJson, textOf } from './values.js';

const hex = ([high, low]: [number, number]) =>
  high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');

/** What shapes documents besides the row: part of every fingerprint, so a new mapping re-sends. */
export function mappingStamp(mapping: CheckedMapping): string {
  return hex(
    hash64(
      stableJson([
        mapping.title,
        mapping.text,
        mapping.heading ?? null,
        mapping.metadata,
        mapping.updatedAt ?? null,
        mapping.link ?? null,
        mapping.idPrefix,
        mapping.source,
      ]),
    ),
  );
}

/** Counts the rows that failed for what they hold (not for the server), once each. */
export interface RowFailures {
  count: number;
}

/** A row whose document cannot be built: its load throws `reason`. */
class FailingRow implements SourceItem {
  readonly ref: string;
  readonly id: string | undefined;
  readonly #reason: string;
  readonly #failures: RowFailures;
  #counted = false;

  constructor(ref: string, id: string | undefined, reason: string, failures: RowFailures) {
    this.ref = ref;
    this.id = id;
    this.#reason = reason;
    this.#failures = failures;
  }

  load(): IngestionDocumentInput {
    // a sync may load an item twice (its plan, then its run): counted once
    if (!this.#counted) this.#failures.count++;
    this.#counted = true;
    throw new Error(this.#reason);
  }
}

/** A row as an item: the row lives as long as the item, which the run drops once answered. */
class RowItem implements SourceItem {
  readonly ref: string;
  readonly id: string;
  readonly fingerprint: string;
  readonly #row: SqlRow;
  readonly #mapping: CheckedMapping;
  readonly #failures: RowFailures;
  #counted = false;

  constructor(
    id: string,
    row: SqlRow,
    fingerprint: string,
    mapping: CheckedMapping,
    failures: RowFailures,
  ) {
    this.ref = id;
    this.id = id;
    this.fingerprint = fingerprint;
    this.#row = row;
    this.#mapping = mapping;
    this.#failures = failures;
  }

  load(): IngestionDocumentInput {
    const built = documentOf(this.id, this.#row, this.#mapping);
    if (typeof built === 'string') {
      if (!this.#counted) this.#failures.count++;
      this.#counted = true;
      throw new Error(built);
    }
    return built;
  }
}

/** The link of a row, or undefined when a column it uses is null. */
function linkOf(parts: readonly LinkPart[], row: SqlRow): string | undefined {
  let link = '';
  for (const part of parts) {
    if ('text' in part) link += part.text;
    else {
      const value = textOf(row[part.column]);
      if (value === null) return undefined;
      link += encodeURIComponent(value);
    }
  }
  return link;
}

/** The row's document, or why it cannot be one. */
export function documentOf(
  id: string,
  row: SqlRow,
  mapping: CheckedMapping,
): IngestionDocumentInput | string {
  const texts = mapping.text.map((c) => textOf(row[c]));
  if (texts.every((t) => t === null)) {
    const which =
      mapping.text.length === 1
        ? `its text column "${mapping.text[0]}" is null`
        : `every text column (${mapping.text.join(', ')}) is null`;
    return `row ${id}: ${which}`;
  }
  const link = mapping.link ? linkOf(mapping.link, row) : undefined;
  const heading = mapping.heading ? textOf(row[mapping.heading]) : null;
  const sections: { text: string; link?: string }[] = [];
  for (const text of texts) {
    if (text === null) continue; // one of several text columns empty on this row: no section
    sections.push(link === undefined ? { text } : { text, link });
  }
  if (heading) {
    const first = sections[0] as { text: string };
    first.text = `${heading}\n\n${first.text}`;
  }
  const metadata: Record<string, string | string[]> = {};
  for (const c of mapping.metadata) {
    const value = metadataOf(row[c]);
    if (value !== null) metadata[c] = value;
  }
  const title = textOf(row[mapping.title]);
  const shown = title === null || title.trim() === '' ? id : title;
  const updated = mapping.updatedAt ? isoTimeOf(row[mapping.updatedAt]) : undefined;
  return {
    id,
    semantic_identifier: shown,
    title: shown,
    sections,
    source: mapping.source,
    metadata,
    ...(updated ? { doc_updated_at: updated } : {}),
  } as IngestionDocumentInput;
}

/** Turns the rows of one run into items, refusing a second row with an id seen before. */
export class RowItems {
  readonly failures: RowFailures = { count: 0 };
  readonly #mapping: CheckedMapping;
  readonly #stamp: string;
  readonly #seen: SeenIds;
  #read = 0;

  constructor(mapping: CheckedMapping, seen: SeenIds) {
    this.#mapping = mapping;
    this.#stamp = mappingStamp(mapping);
    this.#seen = seen;
  }

  /** The item of one row. */
  itemOf(row: SqlRow): SourceItem {
    this.#read++;
    const mapping = this.#mapping;
    const key = textOf(row[mapping.id]);
    if (key === null || key === '') {
      return new FailingRow(
        `row ${this.#read}`,
        undefined,
        `row ${this.#read} of the query: its id column "${mapping.id}" is ${key === null ? 'null' : 'empty'}`,
        this.failures,
      );
    }
    const id = mapping.idPrefix + key;
    if (!this.#seen.add(id)) {
      return new FailingRow(
        id,
        id,
        `duplicate id ${id}: an earlier row of this run has it (the id column "${mapping.id}" must be unique); this row is not sent`,
        this.failures,
      );
    }
    const values = mapping.used.map((c) => row[c]);
    const fingerprint = `sql:${hex(hash64(stableJson(values)))}:${this.#stamp}`;
    return new RowItem(id, row, fingerprint, mapping, this.failures);
  }
}
