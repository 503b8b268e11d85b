/**
 * Office Open XML packages (.pptx, .xlsx): how parts point at each other. A part's links are in
 * the `_rels/<part>.rels` beside it; the package's main part is linked from `_rels/.rels`.
 */
import { ExtractionError } from './extraction-error.js';
import {
  attribute,
  childNamed,
  childrenNamed,
  textContent,
  type XmlElement,
  type XmlParser,
} from './xml-tree.js';
import { resolvePart, type ZipParts } from './zip-archive.js';

/** A link from a part: its type (the last segment of the type URI) and the part it targets. */
export interface Relationship {
  readonly type: string;
  readonly target: string;
}

/** The links of `part` (`''` for the package's own), by relationship id. */
export function relationships(
  zip: ZipParts,
  xml: XmlParser,
  part: string,
): Map<string, Relationship> {
  const folder = part.split('/').slice(0, -1);
  const name = part.split('/').pop() ?? '';
  const relsPart = [...folder, '_rels', `${name}.rels`].join('/');
  const found = new Map<string, Relationship>();
  const text = zip.text(relsPart);
  if (text === undefined) return found;
  for (const rel of childrenNamed(xml.parse(text, relsPart).root, 'Relationship')) {
    const id = attribute(rel, 'Id');
    const target = attribute(rel, 'Target');
    if (!id || !target || attribute(rel, 'TargetMode') === 'External') continue;
    const type = (attribute(rel, 'Type') ?? '').split('/').pop() ?? '';
    found.set(id, { type, target: resolvePart(part, target) });
  }
  return found;
}

/**
 * The package's main part (`ppt/presentation.xml`) and its root element: found through
 * `_rels/.rels`, else at `fallback`. `what` names the kind in errors.
 */
export function mainPart(
  zip: ZipParts,
  xml: XmlParser,
  fallback: string,
  what: string,
): { part: string; root: XmlElement } {
  let part = fallback;
  for (const rel of relationships(zip, xml, '').values()) {
    if (rel.type === 'officeDocument') {
      part = rel.target;
      break;
    }
  }
  const text = zip.text(part);
  if (text === undefined) throw new ExtractionError(`not a valid ${what}: ${part} is missing`);
  return { part, root: xml.parse(text, part).root };
}

/** The package's `dc:title` document property (docProps/core.xml), when set. */
export function coreTitle(zip: ZipParts, xml: XmlParser): string | undefined {
  let part = 'docProps/core.xml';
  for (const rel of relationships(zip, xml, '').values()) {
    if (rel.type === 'core-properties') part = rel.target;
  }
  const text = zip.text(part);
  if (text === undefined) return undefined;
  const title = childNamed(xml.parse(text, part).root, 'title');
  const value = title ? textContent(title).replace(/\s+/g, ' ').trim() : '';
  return value === '' ? undefined : value;
}
