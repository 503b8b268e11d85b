/**
 * The consumer project (every tarball, installed with npm outside the workspace, by the global
 * set-up) used as a user would: plain Node ESM imports of every entry point, a strict TypeScript
 * consumer of the published declarations, `npx kis`, and `kis ingest` against the emulator
 * started from its own tarball. The API key never appears in any output.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningEmulator, startInstalledEmulator } from '../src/emulator-process.js';
import { entryPoints } from '../src/entry-points.js';
import { consumerEnvironment } from '../src/environment.js';
import { openTarball } from '../src/pack.js';
import { describeResult, log, nodeEval, type RunResult, run } from '../src/run.js';
import '../src/setup-context.js';

const { consumer, tarballs, work, workspaceRoot } = inject('packaging');
const project = consumer.project;
const env = consumerEnvironment();
const fixture = fileURLToPath(new URL('../fixtures/consumer.ts', import.meta.url));
let emulator: RunningEmulator | undefined;

beforeAll(() => {
  if (consumer.failure !== undefined) {
    throw new Error(`npm install of the consumer project failed: ${consumer.failure}`);
  }
});

afterAll(() => emulator?.kill());

describe('the consumer project, every tarball installed with npm', () => {
  it('imports every entry point of every package in plain Node ESM, from the project', async () => {
    const entries = [];
    for (const t of tarballs) entries.push(...entryPoints((await openTarball(t.tarball)).manifest));
    const loaded = entries.filter((e) => e.kind !== 'types');
    log(`entry points: ${loaded.map((e) => `${e.specifier} (${e.kind})`).join(', ')}`);
    const result = await nodeEval(
      project,
      env,
      `
      import { readFile } from 'node:fs/promises';
      const out = [];
      for (const { specifier, kind } of ${JSON.stringify(loaded)}) {
        const url = import.meta.resolve(specifier);
        const value =
          kind === 'module' ? await import(specifier)
          : kind === 'json' ? (await import(specifier, { with: { type: 'json' } })).default
          : { bytes: (await readFile(new URL(url))).length };
        out.push({ specifier, url, keys: Object.keys(value).length });
      }
      console.log(JSON.stringify(out));
    `,
    );
    expect(result.code, describeResult(result)).toBe(0);
    const out = JSON.parse(result.stdout) as { specifier: string; url: string; keys: number }[];
    expect(out.map((o) => o.specifier)).toEqual(loaded.map((e) => e.specifier));
    for (const { specifier, url, keys } of out) {
      const path = fileURLToPath(url);
      expect(path.startsWith(join(project, 'node_modules')), `${specifier} → ${path}`).toBe(true);
      expect(path.startsWith(workspaceRoot), `${specifier} → ${path}`).toBe(false);
      expect(keys, `${specifier} exports something`).toBeGreaterThan(0);
    }
    // under Node, the "node" export condition picks the undici build of the same API
    expect(out.find((o) => o.specifier === '@kis/client')?.url).toMatch(
      /\/@kis\/client\/dist\/index\.node\.js$/,
    );
  });

  it('behaves as documented when imported by name', async () => {
    const result = await nodeEval(
      project,
      env,
      `
      import spec from '@kis/spec/openapi.json' with { type: 'json' };
      import { createKisClient, KisError, NotFoundError } from '@kis/client';
      import { apply, folderSource, jsonlSource, openJournal, plan, readUploadFile, sync } from '@kis/node';
      import { startEmulator } from '@kis/emulator';
      import { deriveDocumentId, normalizeDocumentId } from '@kis/rules';
      import { run, ExitCode } from '@kis/cli';
      import { enqueue, startWorker } from '@kis/queue';
      const kis = createKisClient({ baseUrl: 'http://127.0.0.1:9/api/', apiKey: 'k' });
      let optionError = '';
      try { createKisClient({ baseUrl: 'http://127.0.0.1:9/api', apiKey: '' }); }
      catch (e) { optionError = e.constructor.name + ': ' + e.message; }
      console.log(JSON.stringify({
        openapi: spec.openapi,
        operations: Object.values(spec.paths).flatMap((p) => Object.values(p)).map((o) => o.operationId).filter(Boolean).length,
        baseUrl: kis.baseUrl,
        derived: deriveDocumentId('Hello World!'),
        notFoundIsKisError: new NotFoundError('x', { status: 404 }) instanceof KisError,
        optionError,
        functions: [apply, folderSource, jsonlSource, openJournal, plan, readUploadFile, sync, startEmulator, run, enqueue, startWorker].map((f) => typeof f),
        quoted: normalizeDocumentId("a b!'"),
        exitUsage: ExitCode.Usage,
      }));
    `,
    );
    expect(result.code, describeResult(result)).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out.openapi).toMatch(/^3\.1\./);
    expect(out.operations).toBeGreaterThanOrEqual(10);
    expect(out.baseUrl).toBe('http://127.0.0.1:9/api');
    expect(out.derived).toBe('ingestion_api_Hello_World%21');
    expect(out.notFoundIsKisError).toBe(true);
    expect(out.optionError).toMatch(/^TypeError: .*apiKey/);
    expect(out.functions).toEqual(Array(11).fill('function'));
    expect(out.quoted).toBe('a_b%21%27');
    expect(out.exitUsage).toBe(2);
  });

  /** Write a strict tsconfig for consumer.ts and run the project's own tsc on it. */
  async function typecheckConsumer(file: string, skipLibCheck: boolean): Promise<RunResult> {
    await copyFile(fixture, join(project, 'consumer.ts'));
    const compilerOptions = {
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
    };
    await writeFile(
      join(project, file),
      `${JSON.stringify({ compilerOptions, include: ['consumer.ts'] }, null, 2)}\n`,
    );
    return run(
      process.execPath,
      [join(project, 'node_modules/typescript/bin/tsc'), '-p', file, '--pretty', 'false'],
      { cwd: project, env, timeoutMs: 200_000 },
    );
  }

  it('type-checks a strict TypeScript consumer against the published declarations', async () => {
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

    emulator = await startInstalledEmulator({
      project,
      env,
      dbPath: join(work, 'consumer-emulator.db'),
      adminKey: apiKey,
    });
    const kisEnv = { ...env, KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: apiKey };
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
      project,
      kisEnv,
      `
      import { createKisClient } from '@kis/client';
      const kis = createKisClient({ baseUrl: process.env.KIS_BASE_URL, apiKey: process.env.KIS_API_KEY });
      const docs = await kis.ingestion.listConnectorDocuments(1);
      console.log(JSON.stringify(docs.map((d) => d.document_id).sort()));
    `,
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

    const state = (await (await fetch(`${emulator.url}/_emulator/state?full=1`)).json()) as {
      documents: { sections: { text?: string }[] }[];
    };
    const texts = state.documents.flatMap((d) => d.sections.map((s) => s.text ?? '')).join('\n');
    for (const text of [
      'Hello from the packed kis',
      'The published packages work.',
      'Rendered text',
      'Ada',
    ]) {
      expect(texts).toContain(text);
    }

    expect(await emulator.stop()).toBe(0);
    for (const output of [
      ingest.stdout,
      ingest.stderr,
      listed.stdout,
      listed.stderr,
      cliList.stdout,
      cliList.stderr,
      emulator.output(),
    ]) {
      expect(output.includes(apiKey), 'the API key never appears in output').toBe(false);
    }
  });
});
