/**
 * What a tarball must hold for its package.json to be true: every entry point it declares, and
 * source maps that lead somewhere.
 */
import { posix } from 'node:path';
import type { PackageJson } from './workspace.js';

/** The string targets of an `exports` value (conditions and subpaths, nested). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value !== null && typeof value === 'object') {
    return Object.values(value as Record<string, unknown>).flatMap(exportTargets);
  }
  return [];
}

/**
 * The files the manifest points at: `main`, `module`, `types`, every `exports` target and every
 * `bin`, as paths inside the package. A target with `*` is a pattern (matched by the caller).
 */
export function declaredFiles(manifest: PackageJson): string[] {
  const bins =
    typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  const targets = [
    manifest.main,
    manifest.module,
    manifest.types,
    ...exportTargets(manifest.exports),
    ...bins,
  ].filter((t): t is string => typeof t === 'string');
  return [...new Set(targets.map((t) => posix.normalize(t)))];
}

/** Whether `files` holds `target` (a path, or a pattern with `*` as `exports` allows). */
export function holds(files: ReadonlySet<string>, target: string): boolean {
  if (!target.includes('*')) return files.has(target);
  const [before = '', after = ''] = target.split('*');
  return [...files].some((f) => f.startsWith(before) && f.endsWith(after));
}

/** Files that are tests, build caches or nested installs: never published. */
export function unwantedFiles(names: Iterable<string>): string[] {
  return [...names].filter((n) =>
    /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?[jt]sx?$|\.tsbuildinfo$|(^|\/)node_modules\//.test(
      n,
    ),
  );
}

const MAPPING_URL = /\/[/*][#@] sourceMappingURL=([^\s*]+)/;

/**
 * Source maps whose `sources` are neither shipped nor embedded (`sourcesContent`): a debugger or
 * a bundler reading them finds nothing. One line per map.
 */
export function mapsOfMissingSources(files: ReadonlyMap<string, Buffer>): string[] {
  const problems: string[] = [];
  for (const [name, content] of files) {
    if (!name.endsWith('.map')) continue;
    const map = JSON.parse(content.toString('utf8')) as {
      sourceRoot?: string;
      sources?: string[];
      sourcesContent?: (string | null)[];
    };
    const missing = (map.sources ?? []).filter((source, i) => {
      if (typeof map.sourcesContent?.[i] === 'string') return false;
      return !files.has(posix.join(posix.dirname(name), map.sourceRoot ?? '', source));
    });
    if (missing.length > 0) problems.push(`${name} → ${missing.join(', ')}`);
  }
  return problems;
}

/**
 * Built files whose `sourceMappingURL` comment names a map the tarball does not hold (bundlers
 * warn about each). One line per file.
 */
export function missingMaps(files: ReadonlyMap<string, Buffer>): string[] {
  const problems: string[] = [];
  for (const [name, content] of files) {
    if (!/\.(m|c)?js$|\.d\.(m|c)?ts$/.test(name)) continue;
    const url = MAPPING_URL.exec(content.toString('utf8'))?.[1];
    if (!url || url.startsWith('data:')) continue;
    const map = posix.join(posix.dirname(name), decodeURIComponent(url));
    if (!files.has(map)) problems.push(`${name} → ${map}`);
  }
  return problems;
}

/** `problems` in a line: how many, and the first few. */
export function summarize(problems: readonly string[], what: string): string {
  const shown = problems.slice(0, 3).join('; ');
  return `${problems.length} ${what}${problems.length > 3 ? `, e.g. ${shown}` : `: ${shown}`}`;
}
