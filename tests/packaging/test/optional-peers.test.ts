/**
 * Optional peers left out, as a user who installs only what they need: @kis/cli without
 * @kis/emulator and @kis/queue, and @kis/node without its extraction libraries. The projects are the ones the
 * global set-up installed each package into, alone; the emulator runs from the consumer project
 * ("elsewhere", as a user would run `npx @kis/emulator`).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningEmulator, startInstalledEmulator } from '../src/emulator-process.js';
import { consumerEnvironment } from '../src/environment.js';
import type { PackageInstall } from '../src/install-sizes.js';
import { minimalPdf } from '../src/minimal-pdf.js';
import { describeResult, nodeEval, run } from '../src/run.js';
import '../src/setup-context.js';

const { consumer, installs, work } = inject('packaging');
const env = consumerEnvironment();
const apiKey = `kis-packaging-${randomUUID()}`;
let emulator: RunningEmulator | undefined;

/** The project `name` was installed into alone (a failed install fails the test). */
function projectOf(name: string): string {
  const install: PackageInstall | undefined = installs.find((i) => i.name === name);
  if (!install) throw new Error(`${name} is not a public package of the workspace`);
  if (install.failure !== undefined)
    throw new Error(`npm install of ${name} failed: ${install.failure}`);
  return install.project;
}

function installedNames(name: string): string[] {
  return installs.find((i) => i.name === name)?.tree?.packages.map((p) => p.name) ?? [];
}

/** The text of every section the emulator holds. */
async function storedTexts(): Promise<string> {
  if (!emulator) throw new Error('the emulator is not running');
  const state = (await (await fetch(`${emulator.url}/_emulator/state?full=1`)).json()) as {
    documents: { sections: { text?: string }[] }[];
  };
  return state.documents.flatMap((d) => d.sections.map((s) => s.text ?? '')).join('\n');
}

beforeAll(async () => {
  if (consumer.failure !== undefined) {
    throw new Error(
      `npm install of the consumer project (the emulator) failed: ${consumer.failure}`,
    );
  }
  emulator = await startInstalledEmulator({
    project: consumer.project,
    env,
    dbPath: join(work, 'optional-peers-emulator.db'),
    adminKey: apiKey,
  });
});

afterAll(async () => {
  if (!emulator) return;
  const code = await emulator.stop();
  const output = emulator.output();
  emulator = undefined;
  expect(code, output).toBe(0);
  expect(output.includes(apiKey), 'the API key never appears in output').toBe(false);
});

describe('@kis/cli installed without @kis/emulator and @kis/queue', () => {
  it('`kis emulator` exits non-zero with one line naming `npx @kis/emulator`', async () => {
    const project = projectOf('@kis/cli');
    expect(installedNames('@kis/cli')).not.toContain('@kis/emulator');
    const result = await run('npx', ['--no', '--', 'kis', 'emulator', '--port', '0'], {
      cwd: project,
      env: { ...env, KIS_API_KEY: apiKey },
    });
    expect(result.code, describeResult(result)).not.toBe(0);
    expect(result.signal).toBeNull();
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    expect(lines, describeResult(result)).toHaveLength(1);
    expect(lines[0]).toContain('npx @kis/emulator');
    expect(lines[0]?.includes(apiKey), 'the API key never appears in output').toBe(false);
  });

  it('`kis worker` and `--queue` exit 2 with one line naming `npm i @kis/queue`', async () => {
    const project = projectOf('@kis/cli');
    expect(installedNames('@kis/cli')).not.toContain('@kis/queue');
    for (const args of [
      ['worker', '--queue', 'redis://127.0.0.1:1/0'],
      ['ingest', '.', '--queue', 'redis://127.0.0.1:1/0'],
    ]) {
      const result = await run('npx', ['--no', '--', 'kis', ...args], {
        cwd: project,
        env: { ...env, KIS_API_KEY: apiKey },
      });
      expect(result.code, describeResult(result)).toBe(2);
      const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
      expect(lines, describeResult(result)).toHaveLength(1);
      expect(lines[0]).toContain('npm i @kis/queue');
    }
  });

  it('`kis ingest` of a folder works against an emulator run from elsewhere', async () => {
    const project = projectOf('@kis/cli');
    const docs = join(project, 'cli-docs');
    await mkdir(join(docs, 'guide'), { recursive: true });
    await writeFile(join(docs, 'hello.txt'), 'Hello from a CLI without the emulator\n');
    await writeFile(join(docs, 'guide', 'intro.md'), '# Intro\n\nNo SQLite was compiled.\n');
    await writeFile(join(docs, 'table.csv'), 'name,role\nGrace,admiral\n');
    const ingest = await run(
      'npx',
      ['--no', '--', 'kis', '--json', 'ingest', 'cli-docs', '--cc-pair', '1'],
      {
        cwd: project,
        env: { ...env, KIS_BASE_URL: emulator?.baseUrl, KIS_API_KEY: apiKey },
      },
    );
    expect(ingest.code, describeResult(ingest)).toBe(0);
    const last = JSON.parse(ingest.stdout.trim().split('\n').at(-1) ?? '{}') as {
      summary?: Record<string, number>;
    };
    expect(last.summary, ingest.stdout).toMatchObject({ created: 3, failed: 0 });
    const texts = await storedTexts();
    for (const text of [
      'Hello from a CLI without the emulator',
      'No SQLite was compiled.',
      'Grace',
    ]) {
      expect(texts).toContain(text);
    }
    expect(`${ingest.stdout}${ingest.stderr}`.includes(apiKey)).toBe(false);
  });
});

describe('@kis/node installed without its optional extraction libraries', () => {
  it('a .pdf fails alone with one line naming "unpdf"; the .txt beside it is stored', async () => {
    const project = projectOf('@kis/node');
    expect(installedNames('@kis/node')).not.toContain('unpdf');
    const docs = join(project, 'node-docs');
    await mkdir(docs, { recursive: true });
    await writeFile(join(docs, 'notes.txt'), 'Plain text needs no optional library\n');
    await writeFile(join(docs, 'paper.pdf'), minimalPdf('A PDF nobody can read here'));
    const result = await nodeEval(
      project,
      { ...env, KIS_BASE_URL: emulator?.baseUrl, KIS_API_KEY: apiKey },
      `
      import { createKisClient } from '@kis/client';
      import { folderSource } from '@kis/node';
      const kis = createKisClient({ baseUrl: process.env.KIS_BASE_URL, apiKey: process.env.KIS_API_KEY });
      const ingest = kis.ingestMany(folderSource(['node-docs']), { ccPairId: 1 });
      const results = [];
      for await (const r of ingest) results.push({ ref: r.ref, status: r.status, error: r.error?.message });
      const { created, failed } = await ingest.done();
      console.log(JSON.stringify({ results, created, failed }));
    `,
    );
    expect(result.code, describeResult(result)).toBe(0);
    const out = JSON.parse(result.stdout) as {
      results: { ref: string; status: string; error?: string }[];
      created: number;
      failed: number;
    };
    expect(out).toMatchObject({ created: 1, failed: 1 });
    const pdf = out.results.find((r) => r.ref.endsWith('paper.pdf'));
    expect(pdf?.status, result.stdout).toBe('failed');
    expect(pdf?.error).toMatch(/paper\.pdf/);
    expect(pdf?.error).toMatch(/"unpdf"/);
    expect(pdf?.error).not.toContain('\n');
    expect(out.results.find((r) => r.ref.endsWith('notes.txt'))?.status).toBe('created');
    const texts = await storedTexts();
    expect(texts).toContain('Plain text needs no optional library');
    expect(texts).not.toContain('A PDF nobody can read here');
    expect(`${result.stdout}${result.stderr}`.includes(apiKey)).toBe(false);
  });
});
