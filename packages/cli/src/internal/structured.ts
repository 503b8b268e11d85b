import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { oneLine, UsageError } from './errors.js';

/** 1-based line and column of a character offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1 };
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a double-quoted property name',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected content after the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unexpected end of comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unexpected end of number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

/**
 * Parses JSON, throwing an error whose message names the line and column of the problem
 * ("invalid JSON at line 2, column 5: expected a value"). `JSON.parse` does the parsing; on
 * failure jsonc-parser (in strict mode) locates the first error, since V8's messages often
 * carry no position.
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // loaded for an error only (start-up time); jsonc-parser ships CommonJS too
    const { parse: parseJsonc, printParseErrorCode } = createRequire(import.meta.url)(
      'jsonc-parser',
    ) as typeof import('jsonc-parser');
    const errors: ParseError[] = [];
    parseJsonc(text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    const first = errors[0];
    let offset: number;
    let reason: string;
    if (first) {
      offset = first.offset;
      const code = printParseErrorCode(first.error);
      reason = JSON_ERRORS[code] ?? code;
    } else {
      const raw = error instanceof Error ? error.message : String(error);
      const match = /at position (\d+)/.exec(raw);
      offset = match ? Number(match[1]) : text.length;
      reason = raw
        .replace(/\s*\(line \d+ column \d+\)/, '')
        .replace(/\s*in JSON at position \d+.*$/, '');
    }
    if (text.trim() === '') reason = 'empty input';
    const { line, column } = lineColumn(text, offset);
    throw new SyntaxError(`invalid JSON at line ${line}, column ${column}: ${reason}`);
  }
}

let yamlLib: typeof import('yaml') | undefined;

/** Parses YAML (a superset of JSON), with the line and column of the first error. */
export function parseYamlText(text: string): unknown {
  // Loaded on first use (start-up time); `yaml` ships CommonJS too.
  yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const doc = yamlLib.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    const reason = first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? '';
    throw new SyntaxError(`invalid YAML${where}: ${reason}`);
  }
  return doc.toJS();
}

/** Parses a file's text by its extension: `.yaml`/`.yml` as YAML, anything else as JSON. */
export function parseByExtension(path: string, text: string): unknown {
  const ext = extname(path).toLowerCase();
  return ext === '.yaml' || ext === '.yml' ? parseYamlText(text) : parseJsonText(text);
}

/**
 * Reads a flag value given as inline JSON or as `@file` (`@file.json`, `@file.yaml`). Errors are
 * usage errors naming the flag and, for a file, the file.
 */
export async function readStructuredArg(
  flag: string,
  value: string,
  cwd = process.cwd(),
): Promise<unknown> {
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (path === '') throw new UsageError(`${flag}: expected a file name after "@"`);
    const text = await readTextFile(flag, path, cwd);
    try {
      return parseByExtension(path, text);
    } catch (error) {
      throw new UsageError(`${flag}: ${path}: ${oneLine(error)}`);
    }
  }
  try {
    return parseJsonText(value);
  } catch (error) {
    throw new UsageError(`${flag}: ${oneLine(error)} (expected JSON, or @file.json / @file.yaml)`);
  }
}

/** Like {@link readStructuredArg} but the value must be a JSON object. */
export async function readObjectArg(
  flag: string,
  value: string,
  cwd = process.cwd(),
): Promise<Record<string, unknown>> {
  const parsed = await readStructuredArg(flag, value, cwd);
  if (!isPlainObject(parsed)) {
    throw new UsageError(`${flag}: expected a JSON object, got ${describeJsonType(parsed)}`);
  }
  return parsed;
}

/** Reads a text file named by a flag (`path` relative to `cwd`); usage errors name the flag. */
export async function readTextFile(
  what: string,
  path: string,
  cwd = process.cwd(),
): Promise<string> {
  try {
    return await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`${what}: cannot read file "${path}": ${fsReason(error)}`);
  }
}

/** A short reason for a file-system error ("no such file or directory"). */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, expected a file';
    case 'ENOTDIR':
      return 'not a directory';
    default:
      return oneLine(error);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
