/**
 * Each packed tarball, read as npm will publish it: its manifest, its files, publint --strict and
 * @arethetypeswrong/cli. The tarballs come from the global set-up (src/global-setup.ts).
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { satisfies } from 'semver';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { entryPoints } from '../src/entry-points.js';
import { consumerEnvironment, workspaceRoot } from '../src/environment.js';
import '../src/setup-context.js';
import { openTarball } from '../src/pack.js';
import {
  declaredFiles,
  holds,
  mapsOfMissingSources,
  missingMaps,
  summarize,
  unwantedFiles,
} from '../src/package-files.js';
import { describeResult, log, run } from '../src/run.js';
import {
  type PackageJson,
  pendingChangesets,
  readJson,
  runtimeDependencies,
} from '../src/workspace.js';

const { tarballs, work } = inject('packaging');
const names = tarballs.map((t) => t.name);
const opened = new Map<string, { files: Map<string, Buffer>; manifest: PackageJson }>();
let pending = new Map<string, string[]>();

function tarballOf(name: string) {
  const tarball = tarballs.find((t) => t.name === name);
  const content = opened.get(name);
  if (!tarball || !content) throw new Error(`${name} was not packed`);
  return { ...tarball, ...content };
}

beforeAll(async () => {
  for (const t of tarballs) opened.set(t.name, await openTarball(t.tarball));
  pending = await pendingChangesets(workspaceRoot);
});

describe('the packed tarballs', () => {
  it('hold every public package of the workspace', () => {
    expect(names.length).toBeGreaterThanOrEqual(1);
    for (const name of names) expect(name).toMatch(/^@kis\//);
  });

  it.each(names)('%s: published metadata and real versions of its @kis/* dependencies', (name) => {
    const { manifest, version } = tarballOf(name);
    expect(manifest.name).toBe(name);
    expect(manifest.version).toBe(version);
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(manifest.publishConfig?.access).toBe('public');
    const peers: Record<string, string> = manifest.peerDependencies ?? {};
    const ranges = { ...runtimeDependencies(manifest), ...peers };
    for (const [dependency, range] of Object.entries(ranges)) {
      expect(range, `${dependency} in ${name}`).not.toMatch(/^(workspace|link|file|portal):/);
      if (!dependency.startsWith('@kis/')) continue;
      expect(names, `${name} needs ${dependency}, which is not published`).toContain(dependency);
      const published = tarballOf(dependency).version;
      // a dependency is the exact release; a peer (the CLI's optional emulator) a range holding it
      if (dependency in peers)
        expect(satisfies(published, range), `${dependency} ${range}`).toBe(true);
      else expect(range, `${dependency} in ${name}`).toBe(published);
    }
  });

  it.each(names)('%s ships LICENSE, README.md and CHANGELOG.md with an entry', (name) => {
    const { files, manifest } = tarballOf(name);
    const missing = ['LICENSE', 'README.md', 'CHANGELOG.md'].filter((f) => !files.has(f));
    expect(missing, `${name} does not ship ${missing.join(', ')}`).toEqual([]);
    expect(files.get('LICENSE')?.toString('utf8')).toMatch(/^MIT License/);
    // a package never versioned (0.0.0) gets its first entry from its pending changesets
    if (manifest.version === '0.0.0')
      expect(pending.get(name), `changesets for ${name}`).toBeDefined();
    else expect(files.get('CHANGELOG.md')?.toString('utf8')).toContain(`## ${manifest.version}`);
  });

  it.each(names)('%s ships every entry point and bin it declares, and no tests', (name) => {
    const { files, manifest } = tarballOf(name);
    const shipped = new Set(files.keys());
    const declared = declaredFiles(manifest);
    expect(declared.length, `${name} declares no entry point`).toBeGreaterThan(0);
    expect(declared.filter((file) => !holds(shipped, file))).toEqual([]);
    expect(unwantedFiles(shipped)).toEqual([]);
  });

  it.each(names)('%s ships no source map whose sources are missing', (name) => {
    const problems = mapsOfMissingSources(tarballOf(name).files);
    expect(problems.length, summarize(problems, 'maps of sources not shipped')).toBe(0);
  });

  it.each(names)('%s ships no sourceMappingURL naming a map it does not ship', (name) => {
    const problems = missingMaps(tarballOf(name).files);
    expect(problems.length, summarize(problems, 'files name a map not shipped')).toBe(0);
  });

  it('publint --strict reports nothing for any tarball', async () => {
    const report: string[] = [];
    for (const name of names) {
      const bytes = await readFile(tarballOf(name).tarball);
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const { messages, pkg } = await publint({
        pack: { tarball: tarball as ArrayBuffer },
        strict: true,
        level: 'suggestion',
      });
      for (const m of messages)
        report.push(`${name} ${m.type}: ${formatMessage(m, pkg, { color: false })}`);
      log(`publint ${name}: ${messages.length} message(s)`);
    }
    expect(report).toEqual([]);
  });

  it('@arethetypeswrong/cli (esm-only profile) finds no problem in any tarball', async () => {
    const require = createRequire(import.meta.url);
    const attwPackage = require.resolve('@arethetypeswrong/cli/package.json');
    const attwManifest = await readJson<{ bin: Record<string, string> }>(attwPackage);
    const attwBin = join(attwPackage, '..', attwManifest.bin.attw ?? 'dist/index.js');
    const failures: string[] = [];
    for (const name of names) {
      // files shipped as assets, not modules: attw resolves modules (and JSON) only
      const assets = entryPoints(tarballOf(name).manifest)
        .filter((e) => e.kind === 'asset')
        .map((e) => e.subpath);
      const result = await run(
        process.execPath,
        [
          attwBin,
          tarballOf(name).tarball,
          '--profile',
          'esm-only',
          '--format',
          'ascii',
          '--no-color',
          ...(assets.length > 0 ? ['--exclude-entrypoints', ...assets] : []),
        ],
        { cwd: work, env: consumerEnvironment() },
      );
      if (result.code !== 0) failures.push(`attw ${name}: ${describeResult(result)}`);
    }
    expect(failures).toEqual([]);
  });
});
