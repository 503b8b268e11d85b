/** Images: checked to really be an image of their extension's type, by their content. */
import type { FileKindInfo } from '@kis/rules';
import type { FileBytes } from '../extraction.js';
import { ExtractionError } from '../extraction-error.js';
import { optionalImport } from '../optional-import.js';

// file-type: content sniffing by magic numbers, pure JS; 150 M downloads a month.
const fileTypeLib = optionalImport(['file-type@21.3.4'], () => import('file-type'));

/** The image's content type; an error when the content is not `info`'s type. */
export async function sniffImage(file: FileBytes, info: FileKindInfo): Promise<string> {
  const { fileTypeFromBuffer } = await fileTypeLib(file.name);
  const found = await fileTypeFromBuffer(file.bytes);
  if (!found || found.mime !== info.mime) {
    const what = found ? `${found.mime} content` : 'unrecognised content';
    throw new ExtractionError(`not a valid ${info.fileType.toUpperCase()} image (${what})`);
  }
  return found.mime;
}
