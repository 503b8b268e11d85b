import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/internal/errors.js';
import {
  lineColumn,
  parseJsonText,
  parseYamlText,
  readObjectArg,
  readStructuredArg,
} from '../src/internal/structured.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-structured-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lineColumn', () => {
  it('gives 1-based line and column of an offset', () => {
    expect(lineColumn('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab\ncd\nef', 99)).toEqual({ line: 3, column: 3 });
  });
});

describe('parseJsonText', () => {
  it('parses JSON', () => {
    expect(parseJsonText('{"a":[1,null]}')).toEqual({ a: [1, null] });
  });
  it('names the line and column of a syntax error', () => {
    expect(() => parseJsonText('{\n  "a": 1,\n}')).toThrow(
      /^invalid JSON at line 3, column 1: expected a double-quoted property name$/,
    );
    expect(() => parseJsonText('{"a": ')).toThrow(
      /^invalid JSON at line 1, column 7: expected a value$/,
    );
    expect(() => parseJsonText('{\n  "a": ,\n}')).toThrow(
      /^invalid JSON at line 2, column 8: expected a value$/,
    );
    expect(() => parseJsonText('[1 2]')).toThrow(
      /^invalid JSON at line 1, column 4: expected ","$/,
    );
    expect(() => parseJsonText('')).toThrow(/^invalid JSON at line 1, column 1: empty input$/);
  });
});

describe('parseYamlText', () => {
  it('parses YAML and JSON', async () => {
    expect(await parseYamlText('a: 1\nb: [x, y]\n')).toEqual({ a: 1, b: ['x', 'y'] });
    expect(await parseYamlText('{"a": 1}')).toEqual({ a: 1 });
  });
  it('names the line and column of an error', async () => {
    await expect(parseYamlText('a: 1\n  b: 2\n')).rejects.toThrow(
      /^invalid YAML at line 1, column 4: /,
    );
    await expect(parseYamlText('a: 1\na: 2\n')).rejects.toThrow(
      /^invalid YAML at line 2, column 1: Map keys must be unique/,
    );
  });
});

describe('readStructuredArg', () => {
  it('reads inline JSON, @file.json and @file.yaml', async () => {
    await writeFile(join(dir, 'c.json'), '{"k": "v"}');
    await writeFile(join(dir, 'c.yaml'), 'k: v\nlist: [1]\n');
    expect(await readStructuredArg('--config', '{"k":"v"}')).toEqual({ k: 'v' });
    expect(await readStructuredArg('--config', '@c.json', dir)).toEqual({ k: 'v' });
    expect(await readStructuredArg('--config', '@c.yaml', dir)).toEqual({ k: 'v', list: [1] });
  });

  it('gives usage errors naming the flag and the file', async () => {
    await writeFile(join(dir, 'bad.yml'), 'x: [1\n');
    const bad = readStructuredArg('--config', '@bad.yml', dir);
    await expect(bad).rejects.toBeInstanceOf(UsageError);
    await expect(bad).rejects.toThrow(/^--config: bad\.yml: invalid YAML at line 2, column 1: /);
    await expect(readStructuredArg('--config', '@missing.json', dir)).rejects.toThrow(
      '--config: cannot read file "missing.json": no such file or directory',
    );
    await expect(readStructuredArg('--config', '{oops}')).rejects.toThrow(
      /^--config: invalid JSON at line 1, column 2: .*\(expected JSON, or @file.json \/ @file.yaml\)$/,
    );
    await expect(readStructuredArg('--config', '@')).rejects.toThrow(
      'expected a file name after "@"',
    );
  });

  it('requires an object where one is expected', async () => {
    await expect(readObjectArg('--credential-json', '[1,2]')).rejects.toThrow(
      '--credential-json: expected a JSON object, got an array',
    );
    await expect(readObjectArg('--config', 'null')).rejects.toThrow('got null');
  });
});
