// How the emulator splits an indexed document into chunks, deterministically from its stored text:
// the words (split on whitespace) of its sections' texts, or of its title when they have none, in
// chunks of `CHUNK_WORDS` words; a word counts as one token. Deployed servers chunk by their
// embedding model's tokens (512 by default), so counts there differ; the shape is the same.
import type { DocumentRecord } from './store/documents.js';

export const CHUNK_WORDS = 512;

function sectionText(section: unknown): string {
  if (typeof section !== 'object' || section === null) return '';
  const text = (section as { text?: unknown }).text;
  return typeof text === 'string' ? text : '';
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** The document's chunks, each as its words joined by single spaces; at least one. */
export function chunksOf(doc: DocumentRecord): string[] {
  let all = words(doc.sections.map(sectionText).join('\n'));
  if (all.length === 0) all = words(doc.title ?? doc.semantic_identifier);
  const chunks: string[] = [];
  for (let i = 0; i < all.length; i += CHUNK_WORDS) {
    chunks.push(all.slice(i, i + CHUNK_WORDS).join(' '));
  }
  return chunks.length > 0 ? chunks : [''];
}

/** The number of tokens of a chunk. */
export function tokensOf(chunk: string): number {
  return words(chunk).length;
}
