/** Word documents (.docx): the paragraphs' text. */

import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';

// mammoth: the established .docx reader (styles, lists, tables, footnotes), pure JS;
// 7.6 M downloads a month.
const docxLib = optionalImport(['mammoth@1.13.0'], () => import('mammoth'));

export async function extractDocx(file: FileBytes): Promise<Extraction> {
  // CommonJS module: the API is the default export under ESM.
  const { default: mammoth } = await docxLib(file.name);
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(file.bytes) });
    return singleSection(result.value.replace(/\n{3,}/g, '\n\n').trim());
  } catch (error) {
    throw new ExtractionError(`not a valid DOCX document: ${oneLine(error)}`);
  }
}
