/**
 * What the content hash of an ingested document covers, the hash that decides whether a push is
 * skipped (`backend/<server>/connectors/models.py:297-328`, docs/deployed-servers.md,
 * "De-duplication"). Servers take MD5 of these parts; kis writes them out as one text (servers'
 * exact byte layout is theirs, so only equality between two pushes matters). Not covered:
 * `semantic_identifier`, `metadata` (tags), section links, tabular sections, `source`, the times,
 * `file_id`.
 */

/** The fields of a document the hash reads. */
export interface HashedDocument {
  readonly title?: string | null | undefined;
  readonly sections: readonly unknown[];
  readonly primary_owners?: readonly unknown[] | null | undefined;
  readonly secondary_owners?: readonly unknown[] | null | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One section's part: its text (a section with both a text and an image is a text section), or
 * `[img:<image_file_id>]`; a tabular section adds nothing.
 */
function sectionPart(section: unknown): string | undefined {
  if (!isObject(section)) return undefined;
  if (typeof section.text === 'string') return section.text;
  if (typeof section.image_file_id === 'string') return `[img:${section.image_file_id}]`;
  return undefined;
}

/** An owner as one text: its fields sorted, so the same person always reads the same. */
function ownerPart(owner: unknown): string {
  if (!isObject(owner)) return JSON.stringify(owner);
  const keys = Object.keys(owner).sort();
  return JSON.stringify(keys.map((k) => [k, owner[k] ?? null]));
}

/**
 * The text a document's content hash is taken of: the title as sent (null: empty, not the
 * semantic identifier), the sections' parts joined by one space, each owner list sorted. Two
 * documents with the same text here are the same content to the server (a section split in two
 * at a space is not a change).
 */
export function contentHashInput(doc: HashedDocument): string {
  const parts: string[] = [];
  for (const section of doc.sections) {
    const part = sectionPart(section);
    if (part !== undefined) parts.push(part);
  }
  const owners = (list: readonly unknown[] | null | undefined) =>
    (list ?? []).map(ownerPart).sort();
  return JSON.stringify([
    doc.title ?? '',
    parts.join(' '),
    owners(doc.primary_owners),
    owners(doc.secondary_owners),
  ]);
}
