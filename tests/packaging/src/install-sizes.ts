/**
 * The install-size table: what `npm install` of each packed package puts on disk, printed and
 * written as JSON (and Markdown, for the README) under test-results/.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstalledTree } from './installed-tree.js';

/** One package installed from its tarball into its own empty project. */
export interface PackageInstall {
  name: string;
  version: string;
  /** Absolute path of the project. */
  project: string;
  /** The workspace tarballs installed: the package and the @kis/* packages it needs. */
  tarballs: string[];
  ignoreScripts: boolean;
  tarballBytes: number;
  /** npm's output when the install failed. */
  failure?: string;
  /** npm's own `added N packages`. */
  npmAdded?: number;
  tree?: InstalledTree;
}

/** Megabytes are SI (1 MB = 1,000,000 bytes), as npm and the client's size budget count. */
export const MB = 1_000_000;

const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

/** The JSON row of one install (what the README's table shows). */
function row(install: PackageInstall) {
  const tree = install.tree;
  return {
    package: install.name,
    version: install.version,
    installedWith: install.tarballs.filter((name) => name !== install.name),
    ignoreScripts: install.ignoreScripts,
    tarballKB: Math.round(install.tarballBytes / 100) / 10,
    ok: install.failure === undefined,
    packages: tree?.packages.length ?? null,
    npmAdded: install.npmAdded ?? null,
    diskMB: tree ? mb(tree.diskBytes) : null,
    fileMB: tree ? mb(tree.fileBytes) : null,
    nativeBuilds: tree?.packages.flatMap((p) =>
      p.nativeBuild ? [`${p.name}: ${p.nativeBuild}`] : [],
    ),
    typePackages: tree?.packages.filter((p) => p.name.startsWith('@types/')).map((p) => p.name),
    largest: tree?.largest.slice(0, 8).map((l) => ({ path: l.path, diskMB: mb(l.diskBytes) })),
  };
}

/** The table as aligned text lines (for the log). */
export function sizeTableText(installs: readonly PackageInstall[]): string[] {
  const header = ['package', 'packages', 'MB on disk', 'MB of files', 'tarball kB'];
  const rows = installs.map((i) => {
    const r = row(i);
    return r.ok
      ? [
          r.package,
          String(r.packages),
          r.diskMB?.toFixed(2),
          r.fileMB?.toFixed(2),
          String(r.tarballKB),
        ]
      : [r.package, 'install failed', '', '', String(r.tarballKB)];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  return [header, ...rows].map((cells) =>
    cells
      .map((cell = '', c) =>
        c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0),
      )
      .join('  '),
  );
}

/** The table in Markdown, columns aligned as the repository's formatter writes them. */
function sizeTableMarkdown(installs: readonly PackageInstall[]): string {
  const header = [
    'package',
    'packages installed',
    'MB on disk (`du -sk`)',
    'MB of files',
    'tarball kB',
  ];
  const rows = installs.map((install) => {
    const r = row(install);
    return r.ok
      ? [
          `\`${r.package}\``,
          String(r.packages),
          r.diskMB?.toFixed(2) ?? '',
          r.fileMB?.toFixed(2) ?? '',
          String(r.tarballKB),
        ]
      : [`\`${r.package}\``, 'install failed', '', '', String(r.tarballKB)];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' | ')} |`;
  const rule = `| ${widths.map((w, c) => (c === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return `${[line(header), rule, ...rows.map(line)].join('\n')}\n`;
}

/** Write `install-sizes.json` and `install-sizes.md` into `dir`; returns the JSON file. */
export async function writeSizeTable(
  dir: string,
  installs: readonly PackageInstall[],
  environment: { node: string; npm: string },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'install-sizes.json');
  const document = {
    measuredAt: new Date().toISOString(),
    ...environment,
    units: {
      packages:
        'package directories under node_modules (scoped and nested ones included) holding a package.json, the package itself and its @kis/* dependencies included',
      diskMB:
        'bytes allocated on disk under node_modules (st_blocks x 512, each inode once, as du -sk), / 1,000,000',
      fileMB:
        'sum of the sizes of the regular files under node_modules (as du --apparent-size), / 1,000,000',
    },
    packages: installs.map(row),
  };
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
  await writeFile(join(dir, 'install-sizes.md'), sizeTableMarkdown(installs));
  return file;
}
