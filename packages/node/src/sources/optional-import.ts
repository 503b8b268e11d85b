/**
 * Extraction libraries, loaded on first use and optional: a command that never meets a `.pptx`
 * never loads (or needs) the zip reader. A library that is not installed fails the file that
 * needed it with one line naming what to install; every other kind keeps working.
 */
import { ExtractionError } from './extraction-error.js';
import { oneLine } from './fs-reason.js';

/** An npm package an extractor loads, pinned: `name@version`. */
export interface OptionalPackage {
  readonly name: string;
  readonly version: string;
}

/** Loads a library for the file `fileName` (named in the error when the library is missing). */
export type OptionalLoader<T> = (fileName: string) => Promise<T>;

const declared = new Map<string, string>();

/** Every optional package an extractor declared, by name: its pinned version. */
export const OPTIONAL_PACKAGES: ReadonlyMap<string, string> = declared;

/** `a@1.0.0` (or `@scope/a@1.0.0`) as a name and a version. */
function parseSpec(spec: string): OptionalPackage {
  const at = spec.lastIndexOf('@');
  if (at <= 0) throw new TypeError(`expected name@version, got "${spec}"`);
  return { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/**
 * A lazy loader of `packages` (`name@version`, what `importer` needs installed): the import runs
 * once, on the first call, and is shared. When a package is missing, every call throws an
 * {@link ExtractionError}: `cannot read slides.pptx: install the optional package "fflate"
 * (npm i fflate@0.8.3)`. `importer` is injectable so tests can simulate a missing package.
 */
export function optionalImport<T>(
  packages: readonly string[],
  importer: () => Promise<T>,
): OptionalLoader<T> {
  const needed = packages.map(parseSpec);
  for (const { name, version } of needed) declared.set(name, version);
  let loading: Promise<T> | undefined;
  return async (fileName) => {
    loading ??= importer();
    try {
      return await loading;
    } catch (error) {
      throw new ExtractionError(`cannot read ${fileName}: ${missingReason(needed, error)}`);
    }
  };
}

/** What to do about a failed import: install the packages, or reinstall a broken one. */
function missingReason(needed: readonly OptionalPackage[], error: unknown): string {
  const install = `npm i ${needed.map((p) => `${p.name}@${p.version}`).join(' ')}`;
  const names = needed.map((p) => `"${p.name}"`);
  const missing = missingModule(error);
  if (missing !== undefined && needed.some((p) => p.name === missing)) {
    const list =
      names.length === 1
        ? `the optional package ${names[0]}`
        : `the optional packages ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    return `install ${list} (${install})`;
  }
  // installed but broken (a dependency of it missing, an incompatible version): reinstall
  const which = names.length === 1 ? `package ${names[0]}` : `packages ${names.join(', ')}`;
  return `the optional ${which} failed to load (${oneLine(error)}); reinstall (${install})`;
}

const NOT_FOUND_CODES = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/**
 * The package a module-not-found error names (`Cannot find package 'x' …`), if it is one; also
 * when wrapped as the `cause` of another error (as bundlers and test runners do).
 */
export function missingModule(error: unknown, depth = 0): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.cause !== undefined && depth < 5) {
    const inner = missingModule(error.cause, depth + 1);
    if (inner !== undefined) return inner;
  }
  const code = (error as { code?: unknown }).code;
  const named =
    /Cannot find (?:package|module) '([^']+)'/.exec(error.message) ??
    /Failed to (?:load url|resolve import) "?([^"\s]+)/.exec(error.message);
  if (!named?.[1] || (typeof code === 'string' && !NOT_FOUND_CODES.has(code))) return undefined;
  return packageName(named[1]);
}

/** `a/sub/path` → `a`; `@scope/a/sub` → `@scope/a`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
