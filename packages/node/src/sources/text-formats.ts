/**
 * HTML and CSV as text. Kept apart from extract.ts so the libraries' types stay out of the
 * published declarations that the package's entry points reach.
 */
import { ExtractionError } from './extraction-error.js';
import { oneLine } from './fs-reason.js';

const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;

type Compile = typeof import('html-to-text').compile;
let htmlConverters: { body: (html: string) => string; title: (html: string) => string } | undefined;

/** Visible text of an HTML page (scripts, styles and images left out) and its `<title>`. */
export function htmlToText(html: string, compile: Compile): { text: string; title?: string } {
  // Compiled once: compiling the selectors is most of the cost of a small page.
  htmlConverters ??= {
    body: compile({
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
    }),
    title: compile({ wordwrap: false }),
  };
  const text = htmlConverters.body(html).trim();
  const rawTitle = TITLE.exec(html)?.[1];
  const title = rawTitle ? htmlConverters.title(rawTitle).replace(/\s+/g, ' ').trim() : '';
  return title ? { text, title } : { text };
}

type ParseCsv = typeof import('csv-parse/sync').parse;

/** A CSV file as text: one block per row, one `column: value` line per non-empty cell. */
export function csvToText(csv: string, parseCsv: ParseCsv): string {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(csv, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (error) {
    throw new ExtractionError(`invalid CSV: ${oneLine(error)}`);
  }
  return rows
    .map((row) =>
      Object.entries(row)
        .filter(([, value]) => value !== '')
        .map(([column, value]) => `${column}: ${value}`)
        .join('\n'),
    )
    .join('\n\n');
}
