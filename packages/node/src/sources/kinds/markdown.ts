/**
 * Markdown (.md): the text as written, less its YAML front matter, whose `title` becomes the
 * document's title and whose other keys become metadata.
 */
import type { Extraction, FileBytes } from '../extraction.js';
import { readFrontMatter, withFrontMatter } from '../front-matter.js';
import { decodeText } from '../text-decode.js';

export async function extractMarkdown(file: FileBytes): Promise<Extraction> {
  const text = decodeText(file.bytes);
  const front = await readFrontMatter(text, file.name);
  if (front.lines === 0) return { sections: [{ text }] };
  return withFrontMatter({ sections: [{ text: front.body.replace(/^\s*\n/, '') }] }, front);
}
