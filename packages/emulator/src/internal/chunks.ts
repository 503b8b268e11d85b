// How the emulator splits an indexed document into chunks, deterministically from its stored text:
// the words (split on whitespace) of its sections' texts, or of its title when they have none, in
// chunks of `CHUNK_WORDS` words; a word counts as one token. Each chunk carries the link of the
// section its first word comes from. Deployed servers chunk by their embedding model's tokens
// (512 by default), so counts there differ; the shape is the same.
import type { DocumentRecord } from './store/documents.js';
import type { ChunkWrite } from './store/search-index.js';

export const CHUNK_WORDS = 512;

function sectionOf(section: unknown): { text: string; link: string | null } {
  if (typeof section !== 'object' || section === null) return { text: '', link: null };
  const { text, link } = section as { text?: unknown; link?: unknown };
  return {
    text: typeof text === 'string' ? text : '',
    link: typeof link === 'string' && link !== '' ? link : null,
  };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

type Chunked = Pick<DocumentRecord, 'sections' | 'title' | 'semantic_identifier'>;

/** The document's chunks, each as its words joined by single spaces, with its link; at least one. */
export function chunkWrites(doc: Chunked): ChunkWrite[] {
  const all: string[] = [];
  const links: (string | null)[] = [];
  for (const section of doc.sections) {
    const { text, link } = sectionOf(section);
    for (const word of words(text)) {
      all.push(word);
      links.push(link);
    }
  }
  if (all.length === 0) {
    for (const word of words(doc.title ?? doc.semantic_identifier)) {
      all.push(word);
      links.push(null);
    }
  }
  const chunks: ChunkWrite[] = [];
  for (let i = 0; i < all.length; i += CHUNK_WORDS) {
    chunks.push({ text: all.slice(i, i + CHUNK_WORDS).join(' '), link: links[i] ?? null });
  }
  return chunks.length > 0 ? chunks : [{ text: '', link: null }];
}

/** The document's chunks' texts. */
export function chunksOf(doc: Chunked): string[] {
  return chunkWrites(doc).map((c) => c.text);
}

/** The number of tokens of a chunk. */
export function tokensOf(chunk: string): number {
  return words(chunk).length;
}
