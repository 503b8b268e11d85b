/**
 * JSON read from files and lines people wrote: errors name the line and column, in one line.
 */
import { createRequire } from 'node:module';
import type { ParseError } from 'jsonc-parser';

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

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "an array", "a string", … for messages saying what was found instead. */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
