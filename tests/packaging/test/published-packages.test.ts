/**
 * Published-package proof. Packs every public package with `pnpm pack` (which rewrites
 * `workspace:*` to real versions), installs the tarballs with npm into one fresh project in the
 * system temporary directory (no workspace links, none of our devDependencies), and uses them
 * there the way a user would: plain Node ESM imports, a strict TypeScript consumer, `npx kis`, and
 * `kis ingest` against the emulator started from its own tarball. publint and
 * @arethetypeswrong/cli check every tarball.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerEnv, describeResult, firstLine, log, type RunResult, run } from '../src/run.js';
import { readTarball } from '../src/tarball.js';

const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLIC_PACKAGES = ['spec', 'types', 'client', 'emulator', 'cli'] as const;
type PackageDir = (typeof PUBLIC_PACKAGES)[number];
/** What each package must ship besides package.json, README, LICENSE and CHANGELOG. */
const BUILT_OUTPUT: Record<PackageDir, string> = {
  spec: 'dist/openapi.json',
  types: 'src/schema.d.ts',
  client: 'dist/index.js',
  emulator: 'dist/index.js',
  cli: 'dist/index.js',
};
const NODE_HEADERS = existsSync('/usr/include/node/node.h') ? '/usr' : undefined;

interface PackageJson {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  bin?: Record<string, string>;
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface Packed {
  dir: PackageDir;
  tarball: string;
  bytes: Buffer;
  files: Map<string, Buffer>;
  manifest: PackageJson;
  workspaceManifest: PackageJson;
}

const packed = new Map<PackageDir, Packed>();
let work = '';
let project = '';
let env: NodeJS.ProcessEnv = {};
let emulator: ChildProcess | undefined;

function pkg(dir: PackageDir): Packed {
  const p = packed.get(dir);
  if (!p) throw new Error(`@kis/${dir} was not packed`);
  return p;
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** `node --input-type=module -e <source>` inside the consumer project. */
function nodeEval(source: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return run(process.execPath, ['--input-type=module', '-e', source], {
    cwd: project,
    env: { ...env, ...extraEnv },
  });
}

beforeAll(async () => {
  const started = performance.now();
  work = await mkdtemp(join(tmpdir(), 'kis-packaging-'));
  project = join(work, 'consumer');
  const tarballDir = join(work, 'tarballs');
  await mkdir(tarballDir);
  await mkdir(project);
  env = consumerEnv(workspaceRoot, NODE_HEADERS);
  log(`temporary directory ${work}`);

  for (const dir of PUBLIC_PACKAGES) {
    const pkgDir = join(workspaceRoot, 'packages', dir);
    if (!existsSync(join(pkgDir, BUILT_OUTPUT[dir]))) {
      throw new Error(
        `packages/${dir}/${BUILT_OUTPUT[dir]} is missing: build the public packages first ` +
          '(`pnpm turbo run build --filter=@kis/packaging-tests^...`; `turbo run test` does it)',
      );
    }
    const workspaceManifest = await readJson<PackageJson>(join(pkgDir, 'package.json'));
    const result = await run('pnpm', ['pack', '--pack-destination', tarballDir], {
      cwd: pkgDir,
      env: process.env,
    });
    if (result.code !== 0)
      throw new Error(`pnpm pack of @kis/${dir} failed: ${describeResult(result)}`);
    const name = `kis-${dir}-${workspaceManifest.version}.tgz`;
    const tarball = join(tarballDir, name);
    if (!existsSync(tarball)) {
      throw new Error(
        `pnpm pack did not write ${name}; found ${(await readdir(tarballDir)).join(', ')}`,
      );
    }
    const bytes = await readFile(tarball);
    const files = readTarball(bytes);
    const manifestFile = files.get('package/package.json');
    if (!manifestFile) throw new Error(`${name} has no package/package.json`);
    const manifest = JSON.parse(manifestFile.toString('utf8')) as PackageJson;
    packed.set(dir, { dir, tarball, bytes, files, manifest, workspaceManifest });
    log(`  ${name}: ${files.size} files, ${(bytes.length / 1024).toFixed(1)} KiB`);
  }

  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'kis-packaging-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  log(
    `installing the tarballs with npm (better-sqlite3 builds from source${
      env.npm_config_nodedir ? ` with nodedir=${env.npm_config_nodedir}` : ''
    }: about 2 minutes)`,
  );
  const install = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--foreground-scripts=false',
      '--loglevel=warn',
      ...PUBLIC_PACKAGES.map((dir) => pkg(dir).tarball),
      'typescript@5.9.3',
      '@types/node@20.19.43',
    ],
    { cwd: project, env, timeoutMs: 840_000, streamStderr: true },
  );
  if (install.code !== 0) throw new Error(`npm install failed: ${describeResult(install)}`);
  log(`set-up done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}, 900_000);

afterAll(async () => {
  if (emulator && emulator.exitCode === null && emulator.signalCode === null) {
    emulator.kill('SIGKILL');
  }
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  it.each(PUBLIC_PACKAGES)('@kis/%s has real versions, its files and release metadata', (dir) => {
    const { files, manifest, workspaceManifest } = pkg(dir);
    expect(manifest.name).toBe(`@kis/${dir}`);
    expect(manifest.version).toBe(workspaceManifest.version);
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(manifest.publishConfig?.access).toBe('public');

    const runtimeDeps = {
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
    };
    for (const [name, range] of Object.entries(runtimeDeps)) {
      expect(range, `${name} in @kis/${dir}`).not.toMatch(/^(workspace|link|file):/);
      if (name.startsWith('@kis/')) {
        const target = pkg(name.slice('@kis/'.length) as PackageDir).manifest;
        expect(range, `${name} in @kis/${dir}`).toBe(target.version);
      }
    }

    const names = [...files.keys()];
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      BUILT_OUTPUT[dir],
    ]) {
      expect(names, `@kis/${dir} ships ${required}`).toContain(`package/${required}`);
    }
    for (const target of Object.values(manifest.bin ?? {})) {
      expect(names, `bin ${target}`).toContain(`package/${target.replace(/^\.\//, '')}`);
    }
    expect(
      names.filter((n) => /\.test\.|\/test\/|\.tsbuildinfo$|\/node_modules\//.test(n)),
    ).toEqual([]);
    expect(files.get('package/LICENSE')?.toString('utf8')).toMatch(/^MIT License/);
    expect(files.get('package/CHANGELOG.md')?.toString('utf8')).toContain(`## ${manifest.version}`);
  });

  it('publint --strict reports nothing for any tarball', async () => {
    const report: string[] = [];
    for (const dir of PUBLIC_PACKAGES) {
      const { bytes } = pkg(dir);
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const { messages, pkg: manifest } = await publint({
        pack: { tarball: tarball as ArrayBuffer },
        strict: true,
        level: 'suggestion',
      });
      for (const m of messages) {
        report.push(`@kis/${dir} ${m.type}: ${formatMessage(m, manifest, { color: false })}`);
      }
      log(`publint @kis/${dir}: ${messages.length} message(s)`);
    }
    expect(report).toEqual([]);
  });

  it('@arethetypeswrong/cli (esm-only profile) finds no problem in any tarball', async () => {
    const require = createRequire(import.meta.url);
    const attwPackage = require.resolve('@arethetypeswrong/cli/package.json');
    const attwManifest = await readJson<{ bin: Record<string, string> }>(attwPackage);
    const attwBin = join(attwPackage, '..', attwManifest.bin.attw ?? 'dist/index.js');
    // files shipped as assets, not modules: attw resolves modules (and JSON) only
    const assets: Record<string, string[]> = { spec: ['./openapi.yaml', './reference.html'] };
    for (const dir of PUBLIC_PACKAGES) {
      const exclude = assets[dir] ? ['--exclude-entrypoints', ...(assets[dir] ?? [])] : [];
      const result = await run(
        process.execPath,
        [
          attwBin,
          pkg(dir).tarball,
          '--profile',
          'esm-only',
          '--format',
          'ascii',
          '--no-color',
          ...exclude,
        ],
        { cwd: work, env },
      );
      expect(result.code, `attw @kis/${dir}: ${describeResult(result)}`).toBe(0);
    }
  });
});

describe('installed from the tarballs into a fresh project', () => {
  it('resolves every package from the project and imports it in plain Node ESM', async () => {
    const result = await nodeEval(`
      import spec from '@kis/spec/openapi.json' with { type: 'json' };
      import { createKisClient, deriveDocumentId, KisError, NotFoundError } from '@kis/client';
      import { openJournal, readUploadFile } from '@kis/client/node';
      import { startEmulator } from '@kis/emulator';
      import { normalizeDocumentId } from '@kis/spec/rules';
      import { run, ExitCode } from '@kis/cli';
      const kis = createKisClient({ baseUrl: 'http://127.0.0.1:9/api/', apiKey: 'k' });
      let optionError = '';
      try { createKisClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: '' }); }
      catch (e) { optionError = e.constructor.name + ': ' + e.message; }
      console.log(JSON.stringify({
        resolved: ['@kis/spec/openapi.json', '@kis/client', '@kis/client/node', '@kis/emulator', '@kis/cli']
          .map((s) => import.meta.resolve(s)),
        openapi: spec.openapi,
        operations: Object.values(spec.paths).flatMap((p) => Object.values(p)).map((o) => o.operationId).filter(Boolean).length,
        baseUrl: kis.baseUrl,
        derived: deriveDocumentId('Hello World!'),
        notFoundIsKisError: new NotFoundError('x', { status: 404 }) instanceof KisError,
        optionError,
        functions: [openJournal, readUploadFile, startEmulator, run].map((f) => typeof f),
        quoted: normalizeDocumentId("a b!'"),
        exitUsage: ExitCode.Usage,
      }));
    `);
    expect(result.code, describeResult(result)).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    for (const url of out.resolved as string[]) {
      expect(url.startsWith('file://')).toBe(true);
      const path = fileURLToPath(url);
      expect(path.startsWith(join(project, 'node_modules'))).toBe(true);
      expect(path.startsWith(workspaceRoot)).toBe(false);
    }
    // under Node, the "node" export condition picks the node:http build of the same API
    expect((out.resolved as string[])[1]).toMatch(/\/@kis\/client\/dist\/index\.node\.js$/);
    expect(out.openapi).toMatch(/^3\.1\./);
    expect(out.operations).toBeGreaterThanOrEqual(10);
    expect(out.baseUrl).toBe('http://127.0.0.1:9/api');
    expect(out.derived).toBe('ingestion_api_Hello_World%21');
    expect(out.notFoundIsKisError).toBe(true);
    expect(out.optionError).toMatch(/^TypeError: .*apiKey/);
    expect(out.functions).toEqual(['function', 'function', 'function', 'function']);
    expect(out.quoted).toBe('a_b%21%27');
    expect(out.exitUsage).toBe(2);
  });

  /** Write a strict tsconfig for consumer.ts and run the project's own tsc on it. */
  async function typecheckConsumer(file: string, skipLibCheck: boolean): Promise<RunResult> {
    await writeFile(
      join(project, file),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noUncheckedIndexedAccess: true,
            exactOptionalPropertyTypes: true,
            verbatimModuleSyntax: true,
            noUnusedLocals: true,
            resolveJsonModule: true,
            skipLibCheck,
            noEmit: true,
            types: ['node'],
          },
          include: ['consumer.ts'],
        },
        null,
        2,
      )}\n`,
    );
    return run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', file, '--pretty', 'false'],
      { cwd: project, env },
    );
  }

  it('type-checks a strict TypeScript consumer against the published declarations', async () => {
    await writeFile(
      join(project, 'consumer.ts'),
      `import {
  type ConnectorCreateRequest,
  createKisClient,
  DocumentValidationError,
  type IngestionDocument,
  type IngestSummary,
  type KisClient,
  KisError,
  NotFoundError,
} from '@kis/client';
import { type FileJournal, openJournal } from '@kis/client/node';
import type { components, paths } from '@kis/types';
import { type Emulator, startEmulator } from '@kis/emulator';
import { ExitCode, run } from '@kis/cli';

type Source = components['schemas']['DocumentSource'];
type IngestPath = paths['/svc-api/ingestion']['post'];

export async function consume(): Promise<IngestSummary> {
  const emulator: Emulator = await startEmulator({ port: 0, dbPath: ':memory:' });
  const kis: KisClient = createKisClient({ baseUrl: emulator.baseUrl, apiKey: emulator.adminKey });
  const source: Source = 'file';
  const connector: ConnectorCreateRequest = {
    name: 'docs',
    source,
    input_type: 'poll',
    access_type: 'public',
    connector_specific_config: { file_locations: [] },
  };
  const { ccPairId } = await kis.setupConnector({ connector });
  const doc: IngestionDocument = {
    semantic_identifier: 'Hello',
    sections: [{ text: 'Hi', link: null }],
    metadata: {},
  };
  const one: { documentId: string; alreadyExisted: boolean } = await kis.ingestDocument(doc);
  const listed = await kis.ingestion.list();
  const first = listed[0];
  // @ts-expect-error noUncheckedIndexedAccess: an element of a list may be undefined
  const firstId: string = first.document_id;
  const raw = await kis.api.GET('/svc-api/ingestion');
  const body: IngestPath['requestBody'] = { content: { 'application/json': { document: doc } } };
  // @ts-expect-error semantic_identifier is a string
  await kis.ingestion.ingest({ document: { semantic_identifier: 1, sections: [], metadata: {} } });
  // @ts-expect-error not a path of the API
  await kis.api.GET('/no/such/path');
  // the config is typed by its source (never called: a compile-time check)
  const typedConfig = () =>
    kis.connectors.create({
      name: 'Jira KIS',
      source: 'jira',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: {
        jira_base_url: 'https://jira.example.com',
        // @ts-expect-error a misspelled key of the issue-tracker config
        projekt_key: 'KIS',
      },
    });
  try {
    await kis.ingestion.delete('missing');
  } catch (error) {
    if (NotFoundError.isInstance(error)) console.log(error.status satisfies number | undefined);
    if (error instanceof DocumentValidationError) console.log(error.field);
    if (error instanceof KisError) console.log(error.requestId);
  }
  const journal: FileJournal = openJournal('journal.jsonl');
  const run1 = kis.ingestMany([doc], { ...(ccPairId === null ? {} : { ccPairId }), journal, concurrency: 2 });
  for await (const result of run1) console.log(result.status, result.documentId);
  const summary = await run1.done();
  journal.close();
  const code: number = await run(['--help']);
  console.log(one.documentId, firstId, raw.data?.length, body, code === ExitCode.Ok, typedConfig);
  await emulator.close();
  return summary;
}
`,
    );
    // skipLibCheck: true, as `tsc --init` and most projects have it: the consumer's own code is
    // checked against the published types, and every @ts-expect-error must meet a real error.
    const result = await typecheckConsumer('tsconfig.json', true);
    expect(result.code, describeResult(result)).toBe(0);
  });

  it('the published declaration files compile themselves (skipLibCheck: false)', async () => {
    const result = await typecheckConsumer('tsconfig.libcheck.json', false);
    expect(result.code, describeResult(result)).toBe(0);
  });

  it('runs `npx kis --help` from the installed bin', async () => {
    const result = await run('npx', ['--no', '--', 'kis', '--help'], { cwd: project, env });
    expect(result.code, describeResult(result)).toBe(0);
    for (const command of ['connector', 'credential', 'upload', 'ingest', 'docs', 'emulator']) {
      expect(result.stdout).toContain(command);
    }
  });

  it('`kis ingest` sends a folder to the emulator started from its own tarball', async () => {
    const apiKey = `kis-packaging-${randomUUID()}`;
    const docs = join(project, 'docs');
    await mkdir(join(docs, 'guide'), { recursive: true });
    await writeFile(join(docs, 'hello.txt'), 'Hello from the packed kis\n');
    await writeFile(join(docs, 'guide', 'intro.md'), '# Intro\n\nThe published packages work.\n');
    await writeFile(
      join(docs, 'page.html'),
      '<html><head><title>A page</title></head><body><p>Rendered text</p></body></html>',
    );
    await writeFile(join(docs, 'table.csv'), 'name,role\nAda,engineer\n');

    log('starting the installed kis-emulator on a free port');
    emulator = spawn(
      process.execPath,
      [
        join(project, 'node_modules/.bin/kis-emulator'),
        '--port',
        '0',
        '--db',
        join(work, 'emulator.db'),
        '--json',
      ],
      {
        cwd: project,
        env: { ...env, KIS_EMULATOR_ADMIN_KEY: apiKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let emulatorOutput = '';
    emulator.stdout?.on('data', (c: Buffer) => {
      emulatorOutput += c.toString('utf8');
    });
    emulator.stderr?.on('data', (c: Buffer) => {
      emulatorOutput += c.toString('utf8');
    });
    const ready = JSON.parse(await firstLine(emulator, 'kis-emulator', 30_000)) as {
      base_url: string;
      url: string;
      admin_key: string | null;
    };
    log(`  emulator ready at ${ready.base_url}`);
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(ready.admin_key).toBeNull();
    const kisEnv = { ...env, KIS_BASE_URL: ready.base_url, KIS_API_KEY: apiKey };

    const ingest = await run(
      'npx',
      ['--no', '--', 'kis', '--json', 'ingest', 'docs', '--cc-pair', '1'],
      {
        cwd: project,
        env: kisEnv,
      },
    );
    expect(ingest.code, describeResult(ingest)).toBe(0);
    const lines = ingest.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const summary = lines.at(-1)?.summary as Record<string, number> | undefined;
    expect(summary, ingest.stdout).toMatchObject({ created: 4, failed: 0 });

    const expectedIds = [
      'docs%2Fguide%2Fintro.md',
      'docs%2Fhello.txt',
      'docs%2Fpage.html',
      'docs%2Ftable.csv',
    ];
    const listed = await nodeEval(
      `
      import { createKisClient } from '@kis/client';
      const kis = createKisClient({ baseUrl: process.env.KIS_BASE_URL, apiKey: process.env.KIS_API_KEY });
      const docs = await kis.ingestion.listConnectorDocuments(1);
      console.log(JSON.stringify(docs.map((d) => d.document_id).sort()));
    `,
      { KIS_BASE_URL: ready.base_url, KIS_API_KEY: apiKey },
    );
    expect(listed.code, describeResult(listed)).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(expectedIds);

    const cliList = await run(
      'npx',
      ['--no', '--', 'kis', '--json', 'docs', 'list', '--cc-pair', '1'],
      {
        cwd: project,
        env: kisEnv,
      },
    );
    expect(cliList.code, describeResult(cliList)).toBe(0);
    for (const id of expectedIds) expect(cliList.stdout).toContain(id);

    const state = (await (await fetch(`${ready.url}/_emulator/state?full=1`)).json()) as {
      documents: { id?: string; document_id?: string; sections: { text?: string }[] }[];
    };
    const texts = state.documents.flatMap((d) => d.sections.map((s) => s.text ?? '')).join('\n');
    expect(texts).toContain('Hello from the packed kis');
    expect(texts).toContain('The published packages work.');
    expect(texts).toContain('Rendered text');
    expect(texts).toContain('Ada');

    const exited = new Promise<number | null>((resolve) => emulator?.once('exit', resolve));
    emulator.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const output of [
      ingest.stdout,
      ingest.stderr,
      cliList.stdout,
      cliList.stderr,
      emulatorOutput,
    ]) {
      expect(output.includes(apiKey), 'the API key never appears in output').toBe(false);
    }
  });
});
