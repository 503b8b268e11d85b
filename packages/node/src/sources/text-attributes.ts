/**
 * Which attribute values are text a reader sees (a tab's `title`, an image's `alt`) rather than
 * machinery (`href`, `className`, `icon`): kept by the MDX and XML extractors, the rest dropped.
 */

/** Attributes whose values are meant to be read, in MDX components and XML alike. */
const TEXT_ATTRIBUTES = new Set([
  'title',
  'subtitle',
  'heading',
  'label',
  'description',
  'caption',
  'summary',
  'alt',
  'tip',
  'tooltip',
  'text',
  'name',
  'placeholder',
  'aria-label',
]);

/** Attributes never read as text, even when they hold words (class lists, styles, links). */
const MACHINE_ATTRIBUTES = new Set([
  'id',
  'class',
  'classname',
  'style',
  'href',
  'src',
  'type',
  'lang',
  'schemalocation',
  'nonamespaceschemalocation',
]);

/** Whether a JSX attribute of an MDX component carries text: a reader-facing name only. */
export function isTextAttribute(name: string): boolean {
  return TEXT_ATTRIBUTES.has(name.toLowerCase());
}

/**
 * Whether an XML attribute's value carries text: a reader-facing name, or a phrase (two words or
 * more) that is not a link, a namespace declaration or a class list or style.
 */
export function carriesText(name: string, value: string): boolean {
  const local = name.slice(name.indexOf(':') + 1).toLowerCase();
  if (name === 'xmlns' || name.startsWith('xmlns:') || MACHINE_ATTRIBUTES.has(local)) return false;
  if (value.trim() === '') return false;
  if (TEXT_ATTRIBUTES.has(local)) return true;
  return /\p{L}+\s+\p{L}/u.test(value) && !/:\/\/|[{};]/.test(value);
}
