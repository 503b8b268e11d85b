import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { fsReason, oneLine } from './fs-reason.js';
import { failing, type ItemOptions, lineItem, type SourceItem } from './items.js';
import { parseJsonText } from './json-text.js';
import { LineCounter } from './line-count.js';
import { streamLines as linesOf } from './stream-lines.js';

export type JsonlLine =
  | { line: number; value: unknown; text: string }
  | { line: number; error: string };

/**
 * Reads JSON Lines lazily: one parsed value per non-blank line (with the line's text), or the
 * line's parse error (with its column). Reading errors of the stream itself are thrown.
 */
export async function* readJsonl(input: Readable): AsyncGenerator<JsonlLine> {
  let line = 0;
  for await (const raw of linesOf(input)) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    try {
      yield { line, value: parseJsonText(text), text };
    } catch (error) {
      yield { line, error: oneLine(error).replace(/ at line 1, column/, ' at column') };
    }
  }
}

/** Opens a JSONL file for {@link readJsonl}. */
export function openJsonlFile(path: string): Readable {
  return createReadStream(path, { encoding: 'utf8' });
}

const COUNT_CHUNK_BYTES = 1 << 20;

/** Counts the non-blank lines of a JSONL file (for progress totals) without decoding it. */
export async function countJsonlLines(path: string): Promise<number> {
  const counter = new LineCounter();
  // large reads: at the default 64 KiB, the stream's own cost per chunk is most of the time
  for await (const chunk of createReadStream(path, { highWaterMark: COUNT_CHUNK_BYTES })) {
    counter.write(chunk as Buffer);
  }
  return counter.end();
}

export interface JsonlSourceOptions extends ItemOptions {
  /** How items are named: `<name>:<line>` (default: the file's path, or `stdin` for a stream). */
  name?: string | undefined;
}

/**
 * A JSONL file (or stream) of documents, or of ingestion requests `{"document", "cc_pair_id"}`,
 * as items read lazily: a line that is not one fails alone, with its line and reason.
 */
export async function* jsonlSource(
  input: string | Readable,
  options: JsonlSourceOptions = {},
): AsyncGenerator<SourceItem> {
  const name = options.name ?? (typeof input === 'string' ? input : 'stdin');
  try {
    const stream = typeof input === 'string' ? openJsonlFile(input) : input;
    for await (const line of readJsonl(stream)) {
      const ref = `${name}:${line.line}`;
      yield 'error' in line
        ? failing(ref, line.error)
        : lineItem(ref, line.value, options, line.text);
    }
  } catch (error) {
    yield failing(name, `cannot read: ${fsReason(error)}`);
  }
}
