/**
 * XML as a small tree in document order (elements, their attributes, text), for the extractors
 * of XML files and of the XML parts of .pptx, .xlsx and .epub files. Well-formedness is checked:
 * a broken part is an error naming the part, the line and the column.
 */
import { ExtractionError } from './extraction-error.js';
import { optionalImport } from './optional-import.js';

// saxes: the strict, well-formedness-checking SAX parser jsdom uses; pure JS, typed, one small
// dependency, errors with line and column; 189 M downloads a month.
const saxes = optionalImport(['saxes@6.0.0'], () => import('saxes'));

export interface XmlElement {
  /** The qualified name, `a:t`. */
  readonly name: string;
  /** The name without its prefix, `t`. */
  readonly local: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlNode[];
}

/** An element, or a run of text (CDATA included). */
export type XmlNode = XmlElement | string;

/** A parsed document: its root element and what was read leniently. */
export interface XmlDocument {
  readonly root: XmlElement;
  /** Entity references the document does not define (kept as written, e.g. `&nbsp;`). */
  readonly undefinedEntities: number;
}

export interface XmlParser {
  /** Parses `text`; `part` names it in errors (`ppt/slides/slide1.xml`; '' for the file). */
  parse(text: string, part: string): XmlDocument;
}

/** The XML parser, loaded for `fileName` (named in the error when saxes is not installed). */
export async function loadXmlParser(fileName: string): Promise<XmlParser> {
  const { SaxesParser } = await saxes(fileName);
  return {
    parse(text, part) {
      const parser = new SaxesParser();
      const stack: XmlElement[] = [];
      let root: XmlElement | undefined;
      let undefinedEntities = 0;
      const append = (value: string) => {
        const top = stack[stack.length - 1];
        if (top && value !== '') top.children.push(value);
      };
      parser.on('opentag', (tag) => {
        const element: XmlElement = {
          name: tag.name,
          local: localName(tag.name),
          attributes: tag.attributes,
          children: [],
        };
        stack[stack.length - 1]?.children.push(element);
        root ??= element;
        stack.push(element);
      });
      parser.on('closetag', () => {
        stack.pop();
      });
      parser.on('text', append);
      parser.on('cdata', append);
      parser.on('error', (error) => {
        // an entity from a DTD saxes does not read (no DTD is read: no entity expansion attack)
        if (/undefined entity/.test(error.message)) undefinedEntities++;
        else throw xmlError(error, part);
      });
      try {
        parser.write(text).close();
      } catch (error) {
        throw error instanceof ExtractionError ? error : xmlError(error, part);
      }
      if (!root) throw new ExtractionError(`invalid XML${where(part)}: no root element`);
      return { root, undefinedEntities };
    },
  };
}

/**
 * `invalid XML in a.xml at line 2, column 5: unexpected close tag` from saxes' `2:5: …`, whose
 * zero-based column of the next character is the one-based column of the character at fault.
 */
function xmlError(error: unknown, part: string): ExtractionError {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(?:[^:]*:)?(\d+):(\d+): (.*?)\.?$/s.exec(message);
  if (!match) return new ExtractionError(`invalid XML${where(part)}: ${message}`);
  const [, line, column, reason] = match;
  return new ExtractionError(
    `invalid XML${where(part)} at line ${line}, column ${column}: ${reason}`,
  );
}

function where(part: string): string {
  return part === '' ? '' : ` in ${part}`;
}

export function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** The child elements of `element` named `local` (any prefix). */
export function childrenNamed(element: XmlElement, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== 'string' && child.local === local) found.push(child);
  }
  return found;
}

/** The first child element named `local`. */
export function childNamed(element: XmlElement, local: string): XmlElement | undefined {
  for (const child of element.children) {
    if (typeof child !== 'string' && child.local === local) return child;
  }
  return undefined;
}

/** Every element under `element` named `local`, in document order (nested ones too). */
export function descendantsNamed(element: XmlElement, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.local === local) found.push(child);
      visit(child);
    }
  };
  visit(element);
  return found;
}

/** All the text under `element`, concatenated. */
export function textContent(element: XmlElement): string {
  let text = '';
  for (const child of element.children) {
    text += typeof child === 'string' ? child : textContent(child);
  }
  return text;
}

/** An attribute by its name without prefix (`name`), whatever prefix it was written with. */
export function attribute(element: XmlElement, local: string): string | undefined {
  const exact = element.attributes[local];
  if (exact !== undefined) return exact;
  for (const [key, value] of Object.entries(element.attributes)) {
    if (localName(key) === local) return value;
  }
  return undefined;
}

/** A prefixed attribute by its local name: the relationship id `r:id`, not the plain `id`. */
export function prefixedAttribute(element: XmlElement, local: string): string | undefined {
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key.includes(':') && localName(key) === local) return value;
  }
  return undefined;
}
