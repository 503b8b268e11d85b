/**
 * PowerPoint presentations (.pptx): one section per slide, in the presentation's order, headed
 * `Slide N`: the text of its shapes and tables, then its speaker notes. The title is the
 * document property `dc:title` when set.
 */

import type { ExtractedSection, Extraction, FileBytes } from '../extraction.js';
import { tidyText } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { coreTitle, mainPart, relationships } from '../office-package.js';
import {
  childNamed,
  descendantsNamed,
  loadXmlParser,
  prefixedAttribute,
  textContent,
  type XmlElement,
  type XmlParser,
} from '../xml-tree.js';
import { readZip, type ZipParts } from '../zip-archive.js';

const WHAT = 'PPTX presentation';

export async function extractPptx(file: FileBytes): Promise<Extraction> {
  const zip = await readZip(file, WHAT, (name) => /\.(xml|rels)$/i.test(name));
  const xml = await loadXmlParser(file.name);
  const { part, root } = mainPart(zip, xml, 'ppt/presentation.xml', WHAT);
  const links = relationships(zip, xml, part);
  const sections: ExtractedSection[] = [];
  const slideIds = descendantsNamed(childNamed(root, 'sldIdLst') ?? root, 'sldId');
  for (const [index, slideId] of slideIds.entries()) {
    const link = links.get(prefixedAttribute(slideId, 'id') ?? '');
    if (!link) throw new ExtractionError(`not a valid ${WHAT}: slide ${index + 1} has no part`);
    const text = slideText(zip, xml, link.target, index + 1);
    if (text !== '') sections.push({ heading: `Slide ${index + 1}`, text });
  }
  const title = coreTitle(zip, xml);
  return title ? { sections, title } : { sections };
}

/** A slide's text, then its speaker notes under `Speaker notes:`. */
function slideText(zip: ZipParts, xml: XmlParser, part: string, number: number): string {
  const source = zip.text(part);
  if (source === undefined) {
    throw new ExtractionError(`not a valid ${WHAT}: slide ${number} (${part}) is missing`);
  }
  const text = paragraphs(xml.parse(source, part).root);
  const notesPart = [...relationships(zip, xml, part).values()].find(
    (link) => link.type === 'notesSlide',
  )?.target;
  const notesSource = notesPart ? zip.text(notesPart) : undefined;
  const notes =
    notesPart && notesSource !== undefined
      ? speakerNotes(xml.parse(notesSource, notesPart).root)
      : '';
  return tidyText(notes === '' ? text : `${text}\n\nSpeaker notes:\n${notes}`);
}

/** The notes page's body placeholder (not its slide picture, header or slide number). */
function speakerNotes(notes: XmlElement): string {
  return descendantsNamed(notes, 'sp')
    .filter((shape) => {
      const placeholder = descendantsNamed(shape, 'ph')[0];
      return placeholder?.attributes.type === 'body';
    })
    .map(paragraphs)
    .filter((text) => text !== '')
    .join('\n\n');
}

/** The DrawingML paragraphs (`a:p`) under `element`, one line each, line breaks kept. */
function paragraphs(element: XmlElement): string {
  return descendantsNamed(element, 'p')
    .map((paragraph) => runs(paragraph).trim())
    .filter((line) => line !== '')
    .join('\n');
}

function runs(element: XmlElement): string {
  let text = '';
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.local === 't') text += textContent(child);
    else if (child.local === 'br') text += '\n';
    else text += runs(child);
  }
  return text;
}
