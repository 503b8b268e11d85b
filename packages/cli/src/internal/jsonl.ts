import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { oneLine } from './errors.js';
import { parseJsonText } from './structured.js';

export type JsonlLine = { line: number; value: unknown } | { line: number; error: string };

/**
 * Reads JSON Lines lazily: one parsed value per non-blank line, or the line's parse error
 * (with its column). Reading errors of the stream itself are thrown.
 */
export async function* readJsonl(input: Readable): AsyncGenerator<JsonlLine> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    try {
      yield { line, value: parseJsonText(text) };
    } catch (error) {
      yield { line, error: oneLine(error).replace(/ at line 1, column/, ' at column') };
    }
  }
}

/** Opens a JSONL file for {@link readJsonl}. */
export function openJsonlFile(path: string): Readable {
  return createReadStream(path, { encoding: 'utf8' });
}

/** Counts the non-blank lines of a JSONL file (for progress totals) without keeping them. */
export async function countJsonlLines(path: string): Promise<number> {
  let count = 0;
  const lines = createInterface({
    input: openJsonlFile(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const raw of lines) if (raw.trim() !== '') count++;
  return count;
}
