/**
 * Each public package installed alone from its tarball into an empty project with npm (the
 * global set-up measures them: test-results/install-sizes.json): what a user's `npm i` costs,
 * and the targets of project issue 22 for the packages that have one.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { MB, type PackageInstall } from '../src/install-sizes.js';
import { openTarball } from '../src/pack.js';
import '../src/setup-context.js';

const { installs, sizesFile, tarballs } = inject('packaging');
const names = installs.map((i) => i.name);

/** The install of `name`, measured (a failed install fails the test with npm's output). */
function installed(name: string): PackageInstall & { tree: NonNullable<PackageInstall['tree']> } {
  const install = installs.find((i) => i.name === name);
  if (!install) throw new Error(`${name} is not a public package of the workspace`);
  if (install.failure !== undefined || !install.tree) {
    throw new Error(`npm install of ${name} failed: ${install.failure}`);
  }
  return { ...install, tree: install.tree };
}

const summary = (i: ReturnType<typeof installed>) =>
  `${i.name}: ${i.tree.packages.length} packages, ${(i.tree.diskBytes / MB).toFixed(2)} MB on disk ` +
  `(${(i.tree.fileBytes / MB).toFixed(2)} MB of files); largest: ${i.tree.largest
    .slice(0, 5)
    .map((l) => `${l.path} ${(l.diskBytes / MB).toFixed(2)} MB`)
    .join(', ')}`;

describe('each package installed alone from its tarball', () => {
  it.each(names)('%s installs into an empty project, counted as npm counts it', (name) => {
    const install = installed(name);
    expect(install.tree.packages.map((p) => p.name)).toContain(name);
    for (const dependency of install.tarballs) {
      expect(install.tree.packages.map((p) => p.name)).toContain(dependency);
    }
    expect(install.tree.packages.length, 'packages found vs npm\'s "added N packages"').toBe(
      install.npmAdded,
    );
  });

  it('writes the size table with a row for every package', async () => {
    const table = JSON.parse(await readFile(sizesFile, 'utf8')) as {
      packages: { package: string; packages: number | null; diskMB: number | null }[];
    };
    expect(table.packages.map((row) => row.package)).toEqual(tarballs.map((t) => t.name));
    for (const row of table.packages) {
      expect(row.packages, row.package).toBeGreaterThan(0);
      expect(row.diskMB, row.package).toBeGreaterThan(0);
    }
  });

  // 4.5 MB: 3.77 MB before the search, document-set, user-group and refusal rules (2026-11-29)
  it('@kis/client: at most 8 packages and 4.5 MB on disk', () => {
    const client = installed('@kis/client');
    expect(client.tree.packages.length, summary(client)).toBeLessThanOrEqual(8);
    expect(client.tree.diskBytes, summary(client)).toBeLessThanOrEqual(4.5 * MB);
  });

  it('@kis/cli installs with --ignore-scripts and nothing in its tree builds native code', () => {
    const cli = installed('@kis/cli');
    expect(cli.ignoreScripts).toBe(true);
    expect(cli.tree.packages.map((p) => p.name)).not.toContain('better-sqlite3');
    expect(cli.tree.packages.map((p) => p.name)).not.toContain('@kis/emulator');
    const native = cli.tree.packages.filter((p) => p.nativeBuild !== undefined);
    expect(native.map((p) => `${p.path} (${p.nativeBuild})`)).toEqual([]);
  });

  it('@kis/emulator: its type packages are devDependencies, none is installed with it', async () => {
    const emulator = installed('@kis/emulator');
    const tarball = tarballs.find((t) => t.name === '@kis/emulator');
    if (!tarball) throw new Error('@kis/emulator was not packed');
    const { manifest } = await openTarball(tarball.tarball);
    const runtime = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
    expect(runtime.filter((name) => name.startsWith('@types/'))).toEqual([]);
    const typePackages = emulator.tree.packages.filter((p) => p.name.startsWith('@types/'));
    expect(typePackages.map((p) => p.path)).toEqual([]);
  });
});
