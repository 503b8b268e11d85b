/**
 * The entry points a package.json offers, as a user imports them: `name` or `name/subpath`, each
 * with what Node loads for it at run time (a module, a JSON document, a file read as an asset).
 */
import type { PackageJson } from './workspace.js';

export interface EntryPoint {
  /** What a user writes: `@kis/client`, `@kis/spec/openapi.json`. */
  specifier: string;
  /** The key of `exports`: `.`, `./openapi.json`. */
  subpath: string;
  /**
   * `module`: Node imports it; `json`: imported with `{ type: 'json' }`; `asset`: a file resolved
   * and read; `types`: declarations only (no run-time target), checked by the compiler.
   */
  kind: 'module' | 'json' | 'asset' | 'types';
}

/** The targets of one export, without its `types` condition (what Node may load). */
function runtimeTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(runtimeTargets);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([condition]) => condition !== 'types')
      .flatMap(([, target]) => runtimeTargets(target));
  }
  return [];
}

/** What kind of file Node loads for `target`. */
function kindOf(target: string | undefined): EntryPoint['kind'] {
  if (target === undefined) return 'types';
  if (/\.(m|c)?js$/.test(target)) return 'module';
  if (target.endsWith('.json')) return 'json';
  return 'asset';
}

/** Every entry point of `manifest` (`./package.json` left out), from `exports`, else `main`. */
export function entryPoints(manifest: PackageJson): EntryPoint[] {
  const exports = manifest.exports;
  const subpaths =
    exports !== null &&
    typeof exports === 'object' &&
    !Array.isArray(exports) &&
    Object.keys(exports).every((key) => key.startsWith('.'))
      ? Object.entries(exports as Record<string, unknown>)
      : [['.', exports ?? manifest.main] as [string, unknown]];
  return subpaths
    .filter(([subpath]) => subpath !== './package.json' && !subpath.includes('*'))
    .map(([subpath, value]) => ({
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      subpath,
      kind: kindOf(runtimeTargets(value)[0]),
    }));
}
