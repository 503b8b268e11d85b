/** The version `kis --version` prints and the user agent carries. */
import { createRequire } from 'node:module';

let version: string | undefined;
/** The version of @kis/cli, from its package.json, found by the package's own name. */
export function cliVersion(): string {
  if (version === undefined) {
    try {
      const pkg = createRequire(import.meta.url)('@kis/cli/package.json') as { version?: unknown };
      version = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}
