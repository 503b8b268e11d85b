/**
 * What an install put on disk: the packages under a project's `node_modules` and their size.
 */
import { existsSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type PackageJson, readJson } from './workspace.js';

/** One installed package (a directory with a package.json where node_modules puts packages). */
export interface InstalledPackage {
  name: string;
  version: string;
  /** Relative to the project, e.g. `node_modules/a/node_modules/@s/b`. */
  path: string;
  /** Why installing it may compile native code, when it may (see `nativeBuildReason`). */
  nativeBuild?: string;
}

export interface InstalledTree {
  packages: InstalledPackage[];
  /** Bytes allocated on disk under node_modules (st_blocks × 512, each inode once): `du -sk`. */
  diskBytes: number;
  /** The sum of the sizes of the regular files under node_modules (`du -sk --apparent-size`). */
  fileBytes: number;
  /** Disk bytes per package directory of node_modules (`undici`, `@kis/client`), largest first. */
  largest: { path: string; diskBytes: number }[];
}

/**
 * Why installing a package may compile native code: a `binding.gyp` (npm then runs
 * `node-gyp rebuild` on its own), `gypfile`, or an install script that runs a native build tool.
 */
export function nativeBuildReason(
  manifest: PackageJson,
  hasBindingGyp: boolean,
): string | undefined {
  if (hasBindingGyp) return 'binding.gyp';
  if (manifest.gypfile === true) return 'gypfile: true';
  for (const hook of ['preinstall', 'install', 'postinstall'] as const) {
    const script = manifest.scripts?.[hook];
    if (
      script &&
      /node-gyp|prebuild-install|node-pre-gyp|cmake-js|\bmake\b|\bg?cc\b/.test(script)
    ) {
      return `${hook}: ${script}`;
    }
  }
  return undefined;
}

/** The package directories inside one node_modules directory (scoped ones included). */
async function packageDirs(nodeModules: string): Promise<string[]> {
  const dirs: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@') && entry.isDirectory()) {
      for (const scoped of await readdir(join(nodeModules, entry.name), { withFileTypes: true })) {
        if (scoped.isDirectory()) dirs.push(join(entry.name, scoped.name));
      }
    } else if (entry.isDirectory()) {
      dirs.push(entry.name);
    }
  }
  return dirs;
}

/**
 * Every package npm installed: the package directories of `node_modules` and, recursively, of
 * each package's own `node_modules`. Only those places are read, so the package.json files of a
 * package's test fixtures or of its `dist/esm` folder are not counted.
 */
async function installedPackages(
  project: string,
  nodeModules: string,
): Promise<InstalledPackage[]> {
  const found: InstalledPackage[] = [];
  for (const dir of await packageDirs(join(project, nodeModules))) {
    const path = join(nodeModules, dir);
    const manifestFile = join(project, path, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = await readJson<PackageJson>(manifestFile);
    const native = nativeBuildReason(manifest, existsSync(join(project, path, 'binding.gyp')));
    found.push({
      name: manifest.name,
      version: manifest.version,
      path,
      ...(native ? { nativeBuild: native } : {}),
    });
    if (existsSync(join(project, path, 'node_modules'))) {
      found.push(...(await installedPackages(project, join(path, 'node_modules'))));
    }
  }
  return found;
}

/** Disk and file bytes under `path` (not following symbolic links), each inode counted once. */
async function usage(
  path: string,
  seen: Set<string>,
): Promise<{ diskBytes: number; fileBytes: number }> {
  const stat = await lstat(path);
  const inode = `${stat.dev}:${stat.ino}`;
  if (seen.has(inode)) return { diskBytes: 0, fileBytes: 0 };
  seen.add(inode);
  const total = { diskBytes: stat.blocks * 512, fileBytes: stat.isFile() ? stat.size : 0 };
  if (stat.isDirectory()) {
    for (const entry of await readdir(path)) {
      const inner = await usage(join(path, entry), seen);
      total.diskBytes += inner.diskBytes;
      total.fileBytes += inner.fileBytes;
    }
  }
  return total;
}

/** Measure the `node_modules` of `project` after an install. */
export async function measureInstalledTree(project: string): Promise<InstalledTree> {
  const nodeModules = join(project, 'node_modules');
  const seen = new Set<string>();
  const root = await lstat(nodeModules);
  seen.add(`${root.dev}:${root.ino}`);
  const totals = { diskBytes: root.blocks * 512, fileBytes: 0 };
  const largest: { path: string; diskBytes: number }[] = [];
  const add = (size: { diskBytes: number; fileBytes: number }) => {
    totals.diskBytes += size.diskBytes;
    totals.fileBytes += size.fileBytes;
  };
  for (const entry of await readdir(nodeModules)) {
    const path = join(nodeModules, entry);
    const stat = await lstat(path);
    // a scope folder: itself, then each of its packages on a line of its own
    const children =
      entry.startsWith('@') && stat.isDirectory()
        ? (await readdir(path)).map((scoped) => join(entry, scoped))
        : undefined;
    if (!children) {
      const size = await usage(path, seen);
      add(size);
      if (!entry.startsWith('.')) largest.push({ path: entry, diskBytes: size.diskBytes });
      continue;
    }
    seen.add(`${stat.dev}:${stat.ino}`);
    add({ diskBytes: stat.blocks * 512, fileBytes: 0 });
    for (const child of children) {
      const size = await usage(join(nodeModules, child), seen);
      add(size);
      largest.push({ path: child, diskBytes: size.diskBytes });
    }
  }
  largest.sort((a, b) => b.diskBytes - a.diskBytes);
  const packages = await installedPackages(project, 'node_modules');
  packages.sort((a, b) => a.path.localeCompare(b.path));
  return { packages, ...totals, largest };
}
