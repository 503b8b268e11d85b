/**
 * streamLines splits as node:readline does (LF, CRLF, a lone CR), whatever the chunks: a CRLF or
 * a multi-byte character cut between two chunks, a last line without its end.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamLines } from '../src/sources/stream-lines.js';
import { byteChunks } from './byte-chunks.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

const viaReadline = (text: string) =>
  collect(createInterface({ input: Readable.from([text]), crlfDelay: Number.POSITIVE_INFINITY }));

const TEXTS = [
  '{"a":1}\n{"b":2}\n',
  '{"a":1}\r\n{"b":2}\r\n',
  'one\rtwo\r\nthree\nfour',
  'a\n\nb\n\r\nc\r',
  'thré 🦋\r\nmixed\n',
  '',
  '\n',
  'only',
];

describe('streamLines', () => {
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))(
    'splits %s as readline does',
    async (_, text) => {
      const expected = await viaReadline(text as string);
      for (const size of [1, 2, 3, 5, 1024]) {
        expect(await collect(streamLines(Readable.from(byteChunks(text as string, size))))).toEqual(
          expected,
        );
      }
      expect(await collect(streamLines(Readable.from([text as string])))).toEqual(expected);
    },
  );
});
