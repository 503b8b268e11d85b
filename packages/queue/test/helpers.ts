/** Shared test set-up: a corpus on disk, an emulator, run counts read back from Redis. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { startRedis, type TestRedis } from '@kis/test-support';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { QueueWorker } from '../src/index.js';

export { until } from '@kis/test-support';

export const KEY = 'kis-queue-test-admin-key-0123456789';

/** A temporary folder; `remove()` deletes it. */
export function tempDir(tag: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `kis-queue-${tag}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What the tests of a describe block share: a private redis-server (started before them, closed
 * after them) and a corpus folder `tag` (removed after them); the emulator a test sets and the
 * workers it pushes are closed after that test.
 */
export function queueSetup(tag: string) {
  const shared = {
    redis: undefined as unknown as TestRedis,
    emulator: undefined as unknown as Emulator,
    corpus: tempDir(tag),
    workers: [] as QueueWorker[],
  };
  beforeAll(async () => {
    shared.redis = await startRedis();
  });
  afterEach(async () => {
    for (const w of shared.workers.splice(0)) await w.close();
    await shared.emulator?.close();
  });
  afterAll(async () => {
    await shared.redis?.close();
    shared.corpus.remove();
  });
  return shared;
}

/** Writes `count` small Markdown files under `dir/sub`; their paths relative to `dir`. */
export function writeFiles(dir: string, count: number, sub = 'docs'): string[] {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const rel = `${sub}/${String(Math.floor(i / 10)).padStart(2, '0')}/note-${i}.md`;
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, `# Note ${i}\n\nBody of note ${i}.\n`);
    paths.push(rel);
  }
  return paths;
}

/** A JSONL file of `count` documents with ids `${tag}-<n>` (and a blank line now and then). */
export function writeJsonl(path: string, count: number, tag: string): void {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(
      JSON.stringify({
        id: `${tag}-${i}`,
        semantic_identifier: `Document ${i}`,
        sections: [{ text: `Body of document ${i}.` }],
        source: 'file',
        metadata: {},
      }),
    );
    if (i % 17 === 5) lines.push('');
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}
