/** PDF documents: the text of each page (blank pages dropped) and the document's title. */

import type { Extraction, FileBytes } from '../extraction.js';
import { singleSection } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { oneLine } from '../fs-reason.js';
import { optionalImport } from '../optional-import.js';

// unpdf: Mozilla's pdf.js packaged for servers without a canvas or a worker, pure JS, no
// native build; 1 M downloads a month.
const pdfLib = optionalImport(['unpdf@1.7.0'], () => import('unpdf'));

export async function extractPdf(file: FileBytes): Promise<Extraction> {
  const { extractText, getDocumentProxy, getMeta } = await pdfLib(file.name);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // a copy: pdf.js takes ownership of (detaches) the buffer it is given
    // verbosity 0: pdf.js must not print warnings (they would land on stdout).
    pdf = await getDocumentProxy(new Uint8Array(file.bytes), { verbosity: 0 });
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = text.map((page) => page.trim()).filter((page) => page !== '');
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const raw: unknown = meta.info.Title;
      if (typeof raw === 'string' && raw.trim() !== '') title = raw.trim();
    } catch {
      // A PDF without readable metadata still has its text.
    }
    return singleSection(pages.join('\n\n'), title);
  } catch (error) {
    throw new ExtractionError(`not a valid PDF: ${oneLine(error) || 'unreadable structure'}`);
  } finally {
    await pdf?.destroy().catch(() => undefined);
  }
}
