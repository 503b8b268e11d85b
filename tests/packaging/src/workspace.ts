import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeResult, run } from './run.js';

/** The fields of a package.json the suite reads. */
export interface PackageJson {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  main?: string;
  module?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  scripts?: Record<string, string>;
  gypfile?: boolean;
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
}

/** A workspace project `pnpm publish -r` would publish. */
export interface PublishedPackage {
  name: string;
  version: string;
  /** Absolute path of the project. */
  path: string;
}

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/**
 * Every project of the pnpm workspace whose package.json is not private, as pnpm itself lists
 * them (`pnpm ls -r`): a new public package is packed and installed without editing the suite.
 */
export async function publishedPackages(workspaceRoot: string): Promise<PublishedPackage[]> {
  const result = await run('pnpm', ['ls', '--recursive', '--depth', '-1', '--json'], {
    cwd: workspaceRoot,
    env: process.env,
  });
  if (result.code !== 0) throw new Error(`pnpm ls failed: ${describeResult(result)}`);
  const projects = JSON.parse(result.stdout) as { name?: string; path: string }[];
  const published: PublishedPackage[] = [];
  for (const project of projects) {
    const manifest = await readJson<PackageJson>(join(project.path, 'package.json'));
    if (manifest.private === true) continue;
    published.push({ name: manifest.name, version: manifest.version, path: project.path });
  }
  if (published.length === 0)
    throw new Error(`no public package in the workspace ${workspaceRoot}`);
  return published.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The run-time dependencies npm installs with a package: `dependencies`, `optionalDependencies`
 * and the peers that are not optional (npm 7+ installs those too).
 */
export function runtimeDependencies(manifest: PackageJson): Record<string, string> {
  const optionalPeer = (name: string) => manifest.peerDependenciesMeta?.[name]?.optional === true;
  const peers = Object.entries(manifest.peerDependencies ?? {}).filter(([n]) => !optionalPeer(n));
  return {
    ...manifest.dependencies,
    ...manifest.optionalDependencies,
    ...Object.fromEntries(peers),
  };
}

/**
 * `name` and the workspace packages it needs at run time, transitively (the tarballs to install
 * with it, since none of them is on the registry): `manifests` by package name.
 */
export function workspaceClosure(
  name: string,
  manifests: ReadonlyMap<string, PackageJson>,
): string[] {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    const manifest = manifests.get(current);
    if (!manifest) throw new Error(`${current} is not a public package of the workspace`);
    seen.add(current);
    for (const dependency of Object.keys(runtimeDependencies(manifest))) {
      if (manifests.has(dependency)) visit(dependency);
    }
  };
  visit(name);
  return [...seen].sort();
}

/** The packages named in the front matter of the pending changesets (`.changeset/*.md`). */
export async function pendingChangesets(root: string): Promise<Map<string, string[]>> {
  const dir = join(root, '.changeset');
  const byPackage = new Map<string, string[]>();
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const front = /^---\n([\s\S]*?)\n---/.exec(await readFile(join(dir, file), 'utf8'))?.[1] ?? '';
    for (const m of front.matchAll(/^"([^"]+)":\s*(major|minor|patch)\s*$/gm)) {
      byPackage.set(m[1] as string, [...(byPackage.get(m[1] as string) ?? []), file]);
    }
  }
  return byPackage;
}
