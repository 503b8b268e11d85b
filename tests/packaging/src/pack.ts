import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describeResult, log, run } from './run.js';
import { readTarball } from './tarball.js';
import type { PackageJson, PublishedPackage } from './workspace.js';

/** A packed tarball, as the tests read it. */
export interface PackedTarball {
  name: string;
  version: string;
  /** The workspace project it was packed from. */
  path: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  bytes: number;
}

/**
 * `pnpm pack` of one workspace package into `destination` (pnpm rewrites `workspace:*` to the
 * real versions, as `pnpm publish` does).
 */
export async function pack(pkg: PublishedPackage, destination: string): Promise<PackedTarball> {
  const result = await run('pnpm', ['pack', '--json', '--pack-destination', destination], {
    cwd: pkg.path,
    env: process.env,
  });
  if (result.code !== 0)
    throw new Error(`pnpm pack of ${pkg.name} failed: ${describeResult(result)}`);
  const { filename } = JSON.parse(result.stdout) as { filename: string };
  if (!existsSync(filename)) throw new Error(`pnpm pack of ${pkg.name} did not write ${filename}`);
  const bytes = (await readFile(filename)).length;
  log(`  ${pkg.name}: ${filename} (${(bytes / 1000).toFixed(1)} kB)`);
  return { name: pkg.name, version: pkg.version, path: pkg.path, tarball: filename, bytes };
}

/** The files of a packed tarball (names without the `package/` prefix) and its package.json. */
export async function openTarball(
  tarball: string,
): Promise<{ files: Map<string, Buffer>; manifest: PackageJson }> {
  const entries = readTarball(await readFile(tarball));
  const files = new Map<string, Buffer>();
  for (const [name, content] of entries) {
    if (!name.startsWith('package/')) throw new Error(`${tarball}: ${name} is outside package/`);
    files.set(name.slice('package/'.length), content);
  }
  const manifest = files.get('package.json');
  if (!manifest) throw new Error(`${tarball} has no package/package.json`);
  return { files, manifest: JSON.parse(manifest.toString('utf8')) as PackageJson };
}
