// The package's version, read from its package.json (one level above both src/ and dist/).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;
  return cached;
}
