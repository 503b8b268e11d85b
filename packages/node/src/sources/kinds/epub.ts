/**
 * E-books (.epub 2 and 3): one section per chapter in reading (spine) order, headed by its entry
 * in the table of contents; the book's title as title, its authors, language and publisher as
 * metadata.
 */

import type { ExtractedMetadata, ExtractedSection, Extraction, FileBytes } from '../extraction.js';
import { tidyText } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import {
  attribute,
  childNamed,
  childrenNamed,
  descendantsNamed,
  loadXmlParser,
  textContent,
  type XmlElement,
  type XmlParser,
} from '../xml-tree.js';
import { readZip, resolvePart, type ZipParts } from '../zip-archive.js';
import { loadHtmlToText } from './html.js';

const WHAT = 'EPUB book';
const CHAPTER_TYPES = new Set(['application/xhtml+xml', 'text/html']);

interface ManifestItem {
  readonly part: string;
  readonly mediaType: string;
  readonly properties: readonly string[];
}

export async function extractEpub(file: FileBytes): Promise<Extraction> {
  // the markup only: never the pictures and fonts
  const zip = await readZip(file, WHAT, (name) => /\.(xml|opf|ncx|x?html?)$/i.test(name));
  const xml = await loadXmlParser(file.name);
  const opfPart = packagePart(zip, xml);
  const opfText = zip.text(opfPart);
  if (opfText === undefined) {
    throw new ExtractionError(`not a valid ${WHAT}: its package document ${opfPart} is missing`);
  }
  const opf = xml.parse(opfText, opfPart).root;
  const manifest = new Map<string, ManifestItem>();
  for (const item of descendantsNamed(childNamed(opf, 'manifest') ?? opf, 'item')) {
    const id = attribute(item, 'id');
    const href = attribute(item, 'href');
    if (!id || !href) continue;
    manifest.set(id, {
      part: resolvePart(opfPart, href),
      mediaType: attribute(item, 'media-type') ?? '',
      properties: (attribute(item, 'properties') ?? '').split(/\s+/),
    });
  }
  const spine = childNamed(opf, 'spine');
  if (!spine) throw new ExtractionError(`not a valid ${WHAT}: ${opfPart} has no spine`);
  const labels = tocLabels(zip, xml, manifest, attribute(spine, 'toc'));
  const toText = await loadHtmlToText(file.name);
  const sections: ExtractedSection[] = [];
  const warnings: string[] = [];
  for (const itemref of childrenNamed(spine, 'itemref')) {
    const item = manifest.get(attribute(itemref, 'idref') ?? '');
    if (!item || !CHAPTER_TYPES.has(item.mediaType)) continue;
    const source = zip.text(item.part);
    if (source === undefined) {
      warnings.push(`chapter ${item.part} is missing from the book; skipped`);
      continue;
    }
    const text = tidyText(toText(source).text);
    if (text === '') continue;
    const heading = labels.get(item.part);
    sections.push(heading ? { heading, text } : { text });
  }
  const { title, metadata } = bookMetadata(childNamed(opf, 'metadata'));
  return {
    sections,
    ...(title ? { title } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The package document's part, from META-INF/container.xml. */
function packagePart(zip: ZipParts, xml: XmlParser): string {
  const containerPart = 'META-INF/container.xml';
  const container = zip.text(containerPart);
  if (container === undefined) {
    throw new ExtractionError(`not a valid ${WHAT}: ${containerPart} is missing`);
  }
  const rootfiles = descendantsNamed(xml.parse(container, containerPart).root, 'rootfile');
  const rootfile =
    rootfiles.find((r) => attribute(r, 'media-type') === 'application/oebps-package+xml') ??
    rootfiles[0];
  const path = rootfile ? attribute(rootfile, 'full-path') : undefined;
  if (!path) throw new ExtractionError(`not a valid ${WHAT}: ${containerPart} names no package`);
  return resolvePart('', path);
}

function bookMetadata(element: XmlElement | undefined): {
  title?: string;
  metadata: ExtractedMetadata;
} {
  const metadata: ExtractedMetadata = {};
  if (!element) return { metadata };
  const values = (local: string) =>
    childrenNamed(element, local)
      .map((child) => textContent(child).replace(/\s+/g, ' ').trim())
      .filter((value) => value !== '');
  const one = (key: string, list: string[]) => {
    if (list.length === 1) metadata[key] = list[0] as string;
    else if (list.length > 1) metadata[key] = list;
  };
  one('author', values('creator'));
  one('language', values('language'));
  one('publisher', values('publisher'));
  const title = values('title')[0];
  return title ? { title, metadata } : { metadata };
}

/**
 * Chapter titles by part, from the table of contents: the EPUB 3 navigation document, else the
 * EPUB 2 NCX. A table that cannot be read gives no titles (the chapters are still read).
 */
function tocLabels(
  zip: ZipParts,
  xml: XmlParser,
  manifest: ReadonlyMap<string, ManifestItem>,
  ncxId: string | undefined,
): Map<string, string> {
  const labels = new Map<string, string>();
  const add = (fromPart: string, href: string | undefined, label: string) => {
    const text = label.replace(/\s+/g, ' ').trim();
    if (!href || text === '') return;
    const part = resolvePart(fromPart, href);
    if (!labels.has(part)) labels.set(part, text);
  };
  const nav = [...manifest.values()].find((item) => item.properties.includes('nav'));
  const ncx =
    (ncxId ? manifest.get(ncxId) : undefined) ??
    [...manifest.values()].find((item) => item.mediaType === 'application/x-dtbncx+xml');
  try {
    if (nav) {
      const source = zip.text(nav.part);
      const root = source === undefined ? undefined : xml.parse(source, nav.part).root;
      const toc = root
        ? (descendantsNamed(root, 'nav').find((n) => attribute(n, 'type') === 'toc') ??
          descendantsNamed(root, 'nav')[0])
        : undefined;
      for (const link of toc ? descendantsNamed(toc, 'a') : []) {
        add(nav.part, attribute(link, 'href'), textContent(link));
      }
    }
    if (labels.size === 0 && ncx) {
      const source = zip.text(ncx.part);
      const root = source === undefined ? undefined : xml.parse(source, ncx.part).root;
      for (const point of root ? descendantsNamed(root, 'navPoint') : []) {
        const label = childNamed(point, 'navLabel');
        add(
          ncx.part,
          attribute(childNamed(point, 'content') ?? point, 'src'),
          label ? textContent(label) : '',
        );
      }
    }
  } catch (error) {
    if (!(error instanceof ExtractionError)) throw error;
    // an XHTML table with HTML entities, say: chapters without titles rather than no book
  }
  return labels;
}
