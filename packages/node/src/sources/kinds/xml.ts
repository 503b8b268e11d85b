/**
 * XML files: the text with the tags removed, one line per element holding text (mixed content
 * such as `<p>Some <b>bold</b> words</p>` stays one line), and the attribute values that carry
 * text (`title`, `alt`, `label`, phrases) before their element's text. Comments and processing
 * instructions are dropped.
 */

import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { carriesText } from '../text-attributes.js';
import { decodeMarkup } from '../text-decode.js';
import { loadXmlParser, textContent, type XmlElement } from '../xml-tree.js';

export async function extractXml(file: FileBytes): Promise<Extraction> {
  const xml = await loadXmlParser(file.name);
  const text = decodeMarkup(file.bytes, '');
  if (text.includes('\u0000')) throw new ExtractionError('binary content, expected XML text');
  const { root, undefinedEntities } = xml.parse(text, '');
  const extraction = singleSection(lines(root).join('\n'));
  if (undefinedEntities === 0) return extraction;
  return {
    ...extraction,
    warnings: [
      `${undefinedEntities} reference(s) to entities its DTD defines were kept as written (DTDs are not read)`,
    ],
  };
}

function lines(element: XmlElement): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(element.attributes)) {
    if (carriesText(name, value)) out.push(collapse(value));
  }
  const mixed = element.children.some((child) => typeof child === 'string' && child.trim() !== '');
  if (mixed) {
    const line = collapse(textContent(element));
    if (line !== '') out.push(line);
    return out;
  }
  for (const child of element.children) {
    if (typeof child !== 'string') out.push(...lines(child));
  }
  return out;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
