/**
 * Delimited tables (.csv, .tsv): one block per row, one `column: value` line per non-empty cell,
 * the first row naming the columns.
 */

import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';
import { decodeText } from '../text-decode.js';

// csv-parse: the RFC 4180 parser of the node-csv project, pure JS, errors with their line;
// 43 M downloads a month.
const csvLib = optionalImport(['csv-parse@6.2.0'], () => import('csv-parse/sync'));

/** Rows as `column: value` blocks, the way every table kind (CSV, TSV, sheets) is written. */
export function rowsToText(rows: readonly (readonly [column: string, value: string])[][]): string {
  return rows
    .map((row) =>
      row
        .filter(([, value]) => value !== '')
        .map(([column, value]) => `${column}: ${value}`)
        .join('\n'),
    )
    .filter((block) => block !== '')
    .join('\n\n');
}

async function extractDelimited(file: FileBytes, tsv: boolean): Promise<Extraction> {
  const { parse } = await csvLib(file.name);
  const text = decodeText(file.bytes);
  let rows: Record<string, string>[];
  try {
    rows = parse(text, {
      columns: true,
      skip_empty_lines: true,
      bom: true,
      trim: true,
      // TSV has no quoting (IANA text/tab-separated-values): a quote is part of the value
      ...(tsv ? { delimiter: '\t', quote: false } : {}),
    });
  } catch (error) {
    throw new ExtractionError(`invalid ${tsv ? 'TSV' : 'CSV'}: ${oneLine(error)}`);
  }
  return singleSection(rowsToText(rows.map((row) => Object.entries(row))));
}

export function extractCsv(file: FileBytes): Promise<Extraction> {
  return extractDelimited(file, false);
}

export function extractTsv(file: FileBytes): Promise<Extraction> {
  return extractDelimited(file, true);
}
