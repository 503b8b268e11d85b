/** JSON files: the value pretty-printed; invalid JSON fails with its line and column. */

import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import { parseJsonText } from '../json-text.js';
import { decodeText } from '../text-decode.js';

export async function extractJson(file: FileBytes): Promise<Extraction> {
  let value: unknown;
  try {
    value = parseJsonText(decodeText(file.bytes));
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(oneLine(error));
  }
  return singleSection(JSON.stringify(value, null, 2));
}
