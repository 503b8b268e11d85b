import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { describeJsonType, fsReason, isPlainObject, parseJsonText } from '@kis/node';
import { oneLine, UsageError } from './errors.js';
import { loadYaml } from './yaml-lib.js';

// The JSON rules (errors naming line and column) are the client's, shared with its sources.
export {
  describeJsonType,
  fsReason,
  isPlainObject,
  lineColumn,
  parseJsonText,
} from '@kis/node';

/** Parses YAML (a superset of JSON), with the line and column of the first error. */
export async function parseYamlText(text: string): Promise<unknown> {
  const { parseDocument } = await loadYaml();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
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
export async function parseByExtension(path: string, text: string): Promise<unknown> {
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
      return await parseByExtension(path, text);
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
