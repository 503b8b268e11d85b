/** Plain text files (.txt, .log, .conf, .sql, .yml…): the UTF-8 text, as it is. */
import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { decodeText } from '../text-decode.js';

export async function extractText(file: FileBytes): Promise<Extraction> {
  return singleSection(decodeText(file.bytes));
}
