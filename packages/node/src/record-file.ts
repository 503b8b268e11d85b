/**
 * The JSON files `kis apply` keeps beside a kis.yaml (secret fingerprints, created names): read
 * whole, and written to a temporary file renamed over the old one (mode 0600), so a kill leaves
 * the old or the new file whole.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The file's JSON, or undefined when there is no file yet. */
export function readRecordFile(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** Replaces the file with `content`, whole. */
export function writeRecordFile(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
