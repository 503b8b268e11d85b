/**
 * The zipped kinds (.docx is read by mammoth; .pptx, .xlsx, .epub here): the parts an extractor
 * asks for, decompressed in memory, with a cap on how much they may expand to.
 */
import type { FileBytes } from './extraction.js';
import { ExtractionError } from './extraction-error.js';
import { oneLine } from './fs-reason.js';
import { MAX_EXPANDED_BYTES } from './limits.js';
import { optionalImport } from './optional-import.js';
import { decodeMarkup } from './text-decode.js';

// fflate: pure JS, no dependencies, 8 kB, and a synchronous unzip that decompresses only the
// entries asked for (the slides' XML, never their pictures); 117 M downloads a month.
const fflate = optionalImport(['fflate@0.8.3'], () => import('fflate'));

/** The parts of a zipped file that an extractor asked for. */
export interface ZipParts {
  /** The names of the parts read, in the archive's order. */
  readonly names: readonly string[];
  /** A part's text (XML, XHTML), or undefined when the archive has no such part. */
  text(name: string): string | undefined;
}

/**
 * Reads the parts of `file` whose names `wanted` accepts. `what` names the kind in errors:
 * `not a valid PPTX presentation: invalid zip data`.
 */
export async function readZip(
  file: FileBytes,
  what: string,
  wanted: (name: string) => boolean,
): Promise<ZipParts> {
  const { unzipSync } = await fflate(file.name);
  let expanded = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(file.bytes, {
      filter: (entry) => {
        if (!wanted(entry.name)) return false;
        expanded += entry.originalSize;
        if (expanded > MAX_EXPANDED_BYTES) {
          throw new ExtractionError(
            `too large: its parts expand to more than ${MAX_EXPANDED_BYTES / 1024 / 1024} MiB`,
          );
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`not a valid ${what}: ${oneLine(error)}`);
  }
  const byName = new Map<string, Uint8Array>();
  const lowerCase = new Map<string, Uint8Array>();
  for (const [name, bytes] of Object.entries(entries)) {
    byName.set(name, bytes);
    // part names are case-insensitive in Office files (ECMA-376 part 2, 6.2.2.3)
    lowerCase.set(name.toLowerCase(), bytes);
  }
  return {
    names: [...byName.keys()],
    text(name) {
      const bytes = byName.get(name) ?? lowerCase.get(name.toLowerCase());
      if (!bytes) return undefined;
      try {
        return decodeMarkup(bytes, name);
      } catch (error) {
        throw new ExtractionError(`not a valid ${what}: ${oneLine(error)}`);
      }
    },
  };
}

/** A part name relative to another part's folder (`ppt/slides/` + `../notesSlides/n1.xml`). */
export function resolvePart(fromPart: string, target: string): string {
  const decoded = safeDecode(target.split('#')[0] ?? '');
  if (decoded.startsWith('/')) return normalizeParts(decoded.slice(1).split('/'));
  const folder = fromPart.split('/').slice(0, -1);
  return normalizeParts([...folder, ...decoded.split('/')]);
}

function normalizeParts(parts: string[]): string {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

function safeDecode(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}
