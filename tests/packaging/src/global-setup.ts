/**
 * Vitest global set-up of the packaging suite: packs every public package of the workspace,
 * installs each tarball (with the @kis/* tarballs it needs) into its own empty project with npm,
 * measures what each install put on disk (test-results/install-sizes.json), then makes the
 * consumer project that holds every package. The test files read what it provides
 * (`inject('packaging')`); the temporary directory is removed at the end of the run.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { consumerEnvironment, workspaceRoot } from './environment.js';
import { type PackageInstall, sizeTableText, writeSizeTable } from './install-sizes.js';
import { measureInstalledTree } from './installed-tree.js';
import { addedCount, createProject, npmInstall } from './npm-project.js';
import { openTarball, type PackedTarball, pack } from './pack.js';
import { declaredFiles } from './package-files.js';
import { describeResult, log, run } from './run.js';
import type { PackagingSetup } from './setup-context.js';
import { type PackageJson, publishedPackages, readJson, workspaceClosure } from './workspace.js';

const resultsDir = fileURLToPath(new URL('../test-results/', import.meta.url));
/** The package whose install compiles SQLite (~2 minutes on 2 cores): its project becomes the consumer, so the build runs once. */
const CONSUMER_BASE = '@kis/emulator';
/** Installed as a cautious user of a command line does: no install script may be needed. */
const IGNORE_SCRIPTS = new Set(['@kis/cli']);
/** What the consumer adds to the tarballs: the compiler for its strict type check. */
const CONSUMER_EXTRAS = ['typescript@5.9.3', '@types/node@20.19.43'];
const NATIVE_INSTALL_MS = 840_000;
const INSTALL_MS = 300_000;

/** Fail early, with the fix, when a package's entry points have not been built. */
async function assertBuilt(paths: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const path of paths) {
    const manifest = await readJson<PackageJson>(join(path, 'package.json'));
    for (const file of declaredFiles(manifest)) {
      if (!file.includes('*') && !existsSync(join(path, file))) missing.push(join(path, file));
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `not built: ${missing.join(', ')}; build the public packages first ` +
        '(`pnpm turbo run build --filter=@kis/packaging-tests^...`; `turbo run test` does it)',
    );
  }
}

/** Install one package's tarball closure into its own project and measure it. */
async function installAlone(
  tarball: PackedTarball,
  closure: readonly PackedTarball[],
  project: string,
  env: NodeJS.ProcessEnv,
): Promise<PackageInstall> {
  const ignoreScripts = IGNORE_SCRIPTS.has(tarball.name);
  const native = tarball.name === CONSUMER_BASE;
  await createProject(project, `size-of-${tarball.name.replace(/^@/, '').replace('/', '-')}`);
  if (native)
    log(`installing ${tarball.name}: better-sqlite3 builds from source (about 2 minutes)`);
  const result = await npmInstall(
    project,
    closure.map((t) => t.tarball),
    {
      env,
      ignoreScripts,
      timeoutMs: native ? NATIVE_INSTALL_MS : INSTALL_MS,
      streamStderr: native,
    },
  );
  const install: PackageInstall = {
    name: tarball.name,
    version: tarball.version,
    project,
    tarballs: closure.map((t) => t.name),
    ignoreScripts,
    tarballBytes: tarball.bytes,
  };
  if (result.code !== 0) return { ...install, failure: describeResult(result) };
  const added = addedCount(result);
  const tree = await measureInstalledTree(project);
  log(
    `  ${tarball.name}: ${tree.packages.length} packages, ${(tree.diskBytes / 1e6).toFixed(2)} MB on disk`,
  );
  return { ...install, tree, ...(added === undefined ? {} : { npmAdded: added }) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), 'kis-packaging-'));
  const removeWork = () => rm(work, { recursive: true, force: true });
  try {
    log(`temporary directory ${work}`);
    const env = consumerEnvironment();
    const published = await publishedPackages(workspaceRoot);
    log(`public packages of the workspace: ${published.map((p) => p.name).join(', ')}`);
    await assertBuilt(published.map((p) => p.path));

    const tarballDir = join(work, 'tarballs');
    await mkdir(tarballDir);
    const tarballs: PackedTarball[] = [];
    for (const pkg of published) tarballs.push(await pack(pkg, tarballDir));
    const byName = new Map(tarballs.map((t) => [t.name, t]));
    const manifests = new Map<string, PackageJson>();
    for (const t of tarballs) manifests.set(t.name, (await openTarball(t.tarball)).manifest);

    const consumer = join(work, 'consumer');
    const projectOf = (name: string) =>
      name === CONSUMER_BASE
        ? consumer
        : join(work, 'alone', name.replace(/^@/, '').replace('/', '-'));
    // the slow one first: a failure there is seen early
    const order = [...tarballs].sort(
      (a, b) => Number(b.name === CONSUMER_BASE) - Number(a.name === CONSUMER_BASE),
    );
    const installs: PackageInstall[] = [];
    for (const tarball of order) {
      const closure = workspaceClosure(tarball.name, manifests).map((name) => byName.get(name)!);
      installs.push(await installAlone(tarball, closure, projectOf(tarball.name), env));
    }
    installs.sort((a, b) => a.name.localeCompare(b.name));
    const npm = await run('npm', ['--version'], { cwd: work, env });
    const sizesFile = await writeSizeTable(resultsDir, installs, {
      node: process.version,
      npm: npm.stdout.trim(),
    });
    log(`installed size of each package, alone in an empty project (${sizesFile}):`);
    for (const line of sizeTableText(installs)) log(`  ${line}`);

    const base = installs.find((i) => i.name === CONSUMER_BASE);
    let consumerFailure = base?.failure;
    if (!base) {
      consumerFailure = `${CONSUMER_BASE} is not a public package of the workspace`;
    } else if (consumerFailure === undefined) {
      log('adding every other tarball, TypeScript and @types/node to the consumer project');
      const result = await npmInstall(
        consumer,
        [...tarballs.map((t) => t.tarball), ...CONSUMER_EXTRAS],
        { env, timeoutMs: NATIVE_INSTALL_MS, streamStderr: true },
      );
      if (result.code !== 0) consumerFailure = describeResult(result);
    }
    const provided: PackagingSetup = {
      workspaceRoot,
      work,
      tarballs,
      installs,
      consumer: {
        project: consumer,
        ...(consumerFailure === undefined ? {} : { failure: consumerFailure }),
      },
      sizesFile,
    };
    project.provide('packaging', provided);
    log(`set-up done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    await removeWork();
    throw error;
  }
  return removeWork;
}
