/** HTML pages: the visible text (no scripts, styles or images) and the `<title>`. */
import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { optionalImport } from '../optional-import.js';
import { decodeText } from '../text-decode.js';

// html-to-text: block-aware HTML to text on htmlparser2 (forgiving of real-world markup),
// pure JS; 30 M downloads a month.
const htmlToTextLib = optionalImport(['html-to-text@10.0.1'], () => import('html-to-text'));

const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;

type Compile = typeof import('html-to-text').compile;
let converters: { body: (html: string) => string; title: (html: string) => string } | undefined;

/** The converters, compiled once: compiling the selectors is most of the cost of a small page. */
function compiled(compile: Compile): NonNullable<typeof converters> {
  converters ??= {
    body: compile({
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        // headings and table headers as written: upper-casing them loses what they say
        ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const).map((selector) => ({
          selector,
          options: { uppercase: false },
        })),
        { selector: 'table', options: { uppercaseHeaderCells: false } },
      ],
    }),
    title: compile({ wordwrap: false }),
  };
  return converters;
}

/**
 * A converter of HTML (a page, an e-book chapter, a mail's HTML part) to its visible text and
 * `<title>`, loaded for the file `fileName`.
 */
export async function loadHtmlToText(
  fileName: string,
): Promise<(html: string) => { text: string; title?: string }> {
  const { compile } = await htmlToTextLib(fileName);
  const { body, title: titleOf } = compiled(compile);
  return (html) => {
    const text = body(html).trim();
    const rawTitle = TITLE.exec(html)?.[1];
    const title = rawTitle ? titleOf(rawTitle).replace(/\s+/g, ' ').trim() : '';
    return title ? { text, title } : { text };
  };
}

export async function extractHtml(file: FileBytes): Promise<Extraction> {
  const toText = await loadHtmlToText(file.name);
  const { text, title } = toText(decodeText(file.bytes));
  return singleSection(text, title);
}
