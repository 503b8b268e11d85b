/**
 * countJsonlLines counts, byte by byte, the lines readJsonl yields (blank ones left out),
 * whatever the chunks: breaks and multi-byte characters cut between chunks, a BOM, Unicode
 * blanks, a last line without its end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { countJsonlLines } from '../src/index.js';
import { readJsonl } from '../src/sources/jsonl.js';
import { LineCounter } from '../src/sources/line-count.js';
import { byteChunks } from './byte-chunks.js';

async function linesRead(text: string): Promise<number> {
  let n = 0;
  for await (const _ of readJsonl(Readable.from([text]))) n++;
  return n;
}

function counted(text: string, size: number): number {
  const counter = new LineCounter();
  for (const chunk of byteChunks(text, size)) counter.write(chunk);
  return counter.end();
}

const TEXTS = [
  '{"a":1}\n{"b":2}\n',
  '{"a":1}\r\n{"b":2}\r\n',
  'one\rtwo\r\nthree\nfour',
  'a\n\nb\n\r\nc\r',
  '\uFEFF{"a":1}\n  \t\n{"b":"thré 🦋"}',
  '\uFEFF\n\u00A0\u3000\n\u00A0x\n',
  ' \u2028 \r\n\v\f\r\n',
  '',
  '\n',
  '\r\r\n\n',
  'only',
];

describe('countJsonlLines', () => {
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))(
    'counts %s as readJsonl reads it',
    async (_, text) => {
      const expected = await linesRead(text as string);
      for (const size of [1, 2, 3, 5, 1024]) expect(counted(text as string, size)).toBe(expected);
    },
  );

  const dir = mkdtempSync(join(tmpdir(), 'kis-line-count-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file', async () => {
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, `${'{"id":"x"}\n\n'.repeat(100_000)}{"id":"last"}`);
    expect(await countJsonlLines(file)).toBe(100_001);
  });
});
