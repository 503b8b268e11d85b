/**
 * The parts of MDX that are not Markdown (JSX and HTML tags, `{expressions}`, `import`/`export`
 * statements), found in the text of a page that strict MDX refused. No JS parser: just enough to
 * tell where each one ends, and a `<` or `{` that starts none of them is prose.
 */
import { isTextAttribute } from '../text-attributes.js';

/** A tag or an HTML comment found in the text. */
export interface Tag {
  /** Just past its `>`. */
  end: number;
  /** `<Note>`; `</Note>`; `<Card />`, `<img …>` or `<br>` (nothing to close); `<!-- … -->`. */
  kind: 'open' | 'close' | 'void' | 'comment';
  /** As written (`Note`, `img`); empty for a comment. */
  name: string;
  /** Its reader-facing string attributes' values (`title="…"`, `alt="…"`), in order. */
  text: string[];
}

// HTML's elements that never close, so `<img …>` or `<br>` does not wait for `</img>`
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

const NAME = /[A-Za-z][\w.:-]*/y;
const ATTRIBUTE_NAME = /[A-Za-z_:$][\w.:$-]*/y;
const UNQUOTED_VALUE = /[^\s"'=<>`]+/y;
const SPACE = /\s*/y;

/** The tag or comment that starts at `text[at]` (a `<`) and ends before `limit`, if one does. */
export function readTag(text: string, at: number, limit: number): Tag | undefined {
  if (text.startsWith('<!--', at)) {
    const close = text.indexOf('-->', at + 4);
    return close !== -1 && close + 3 <= limit
      ? { end: close + 3, kind: 'comment', name: '', text: [] }
      : undefined;
  }
  const closing = text[at + 1] === '/';
  const name = match(NAME, text, at + (closing ? 2 : 1));
  if (name === undefined) return undefined;
  let i = skipSpace(text, at + (closing ? 2 : 1) + name.length);
  if (closing) {
    return text[i] === '>' && i < limit ? { end: i + 1, kind: 'close', name, text: [] } : undefined;
  }
  const values: string[] = [];
  while (i < limit) {
    if (text.startsWith('/>', i) && i + 2 <= limit) {
      return { end: i + 2, kind: 'void', name, text: values };
    }
    if (text[i] === '>') {
      const kind = VOID_ELEMENTS.has(name) ? 'void' : 'open';
      return { end: i + 1, kind, name, text: values };
    }
    if (text[i] === '{') {
      // a spread, `{...props}`
      const end = bracketEnd(text, i, limit);
      if (end === undefined) return undefined;
      i = skipSpace(text, end);
      continue;
    }
    const attribute = match(ATTRIBUTE_NAME, text, i);
    if (attribute === undefined) return undefined;
    i = skipSpace(text, i + attribute.length);
    if (text[i] !== '=') continue; // a boolean attribute, `<Tab defaultOpen>`
    i = skipSpace(text, i + 1);
    const quote = text[i];
    let end: number | undefined;
    if (quote === '"' || quote === "'") {
      // JSX strings have no escapes: the value runs to the next quote of its kind
      const close = text.indexOf(quote, i + 1);
      if (close !== -1) {
        const value = text.slice(i + 1, close).trim();
        if (value !== '' && isTextAttribute(attribute)) values.push(value);
        end = close + 1;
      }
    } else if (quote === '{') {
      end = bracketEnd(text, i, limit);
    } else {
      const value = match(UNQUOTED_VALUE, text, i);
      end = value === undefined ? undefined : i + value.length;
    }
    if (end === undefined || end > limit) return undefined;
    i = skipSpace(text, end);
  }
  return undefined;
}

/**
 * Just past the bracket that closes the `{`, `(` or `[` at `text[at]`, skipping JS strings,
 * template literals and block comments; undefined if none closes it before `limit`.
 */
export function bracketEnd(text: string, at: number, limit: number): number | undefined {
  const expected: string[] = [];
  let i = at;
  while (i < limit) {
    const ch = text[i] as string;
    const closer = CLOSERS[ch];
    if (closer !== undefined) {
      expected.push(closer);
    } else if (ch === '}' || ch === ')' || ch === ']') {
      if (expected.pop() !== ch) return undefined;
      if (expected.length === 0) return i + 1;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      // a quote that never closes (an apostrophe in words) is just a character
      const close = stringEnd(text, i, limit);
      if (close !== undefined) i = close - 1;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close === -1 || close + 2 > limit) return undefined;
      i = close + 1;
    }
    i++;
  }
  return undefined;
}

const CLOSERS: Record<string, string> = { '{': '}', '(': ')', '[': ']' };

/** Just past the close of the JS string or template literal opening at `text[at]`. */
function stringEnd(text: string, at: number, limit: number): number | undefined {
  const quote = text[at];
  for (let i = at + 1; i < limit; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === quote) return i + 1;
    else if (ch === '\n' && quote !== '`') return undefined;
  }
  return undefined;
}

// what MDX reads as a statement, kept to the shapes of real ones so prose is never taken for one
const STATEMENT =
  /^(?:import\s+(?:[\w$*{][\s\S]*?\sfrom\s*)?["']|export\s+(?:default|const|let|var|function|async|class)\b|export\s*[{*])/;

/** Whether a paragraph that starts a line is an `import` or `export` statement. */
export function isStatement(paragraph: string): boolean {
  return STATEMENT.test(paragraph);
}

const BLANK_LINE = /\n[ \t\r]*(?:\n|$)/y;

/**
 * Where the statement opening the paragraph `text[at..paragraphEnd]` ends: with the paragraph,
 * unless a bracket runs past it (a blank line inside `export const meta = {…}`), then at the next
 * blank line, as MDX reads it; with the paragraph too when a bracket never closes before `limit`.
 */
export function statementEnd(
  text: string,
  at: number,
  paragraphEnd: number,
  limit: number,
): number {
  let i = at;
  while (i < limit) {
    const ch = text[i] as string;
    if (CLOSERS[ch] !== undefined) {
      const end = bracketEnd(text, i, limit);
      if (end === undefined) return paragraphEnd;
      i = end;
      continue;
    }
    if (i === paragraphEnd) return i;
    if (ch === '\n' && i > paragraphEnd) {
      BLANK_LINE.lastIndex = i;
      if (BLANK_LINE.test(text)) return i;
    }
    i++;
  }
  return limit;
}

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function skipSpace(text: string, at: number): number {
  SPACE.lastIndex = at;
  SPACE.test(text);
  return SPACE.lastIndex;
}
