/**
 * Files per second for each file kind: a folder of generated files of one kind (kind-fixtures.ts)
 * through `kis ingest` with default flags into the emulator, and the same files through
 * `extractFile` alone, one after the other in this process (what one core extracts).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { extractFile } from '@kis/node';
import { writeTree } from '@kis/test-support';
import { type DocumentKind, documentKinds, KIND_FIXTURES } from './kind-fixtures.js';
import { countDocuments, runIngest } from './processes.js';

export interface KindFigures {
  kind: DocumentKind;
  extension: string;
  files: number;
  /** Mean size of a file. */
  bytes_per_file: number;
  /** `kis ingest`: the run's own time (its summary's `elapsed_ms`), and the wall time. */
  ingest: { elapsed_ms: number; wall_ms: number; files_per_sec: number };
  /** `extractFile` of each file in turn, in this process. */
  extract: { elapsed_ms: number; files_per_sec: number };
}

/** Writes `count` files of each kind under `root/<kind>/` and measures each kind in turn. */
export async function measureKinds(
  root: string,
  count: number,
  baseUrl: string,
  onKind: (figures: KindFigures) => void,
): Promise<KindFigures[]> {
  const all: KindFigures[] = [];
  let stored = 0;
  for (const { kind, extension } of documentKinds()) {
    const dir = join(root, kind);
    const files: Record<string, string | Buffer> = {};
    for (let i = 0; i < count; i++) files[`${kind}-${i}${extension}`] = KIND_FIXTURES[kind](i);
    await writeTree(dir, files);
    const bytes = Object.values(files).reduce((sum, f) => sum + Buffer.byteLength(f), 0);

    const extract = await extractAll(dir);
    const { summary, wallMs } = await runIngest([kind], { cwd: root, baseUrl, expected: count });
    stored += count;
    const held = await countDocuments(baseUrl);
    if (held !== stored) throw new Error(`${kind}: the emulator holds ${held} of ${stored}`);
    const elapsed = summary.elapsed_ms ?? wallMs;
    const figures: KindFigures = {
      kind,
      extension,
      files: count,
      bytes_per_file: Math.round(bytes / count),
      ingest: {
        elapsed_ms: Math.round(elapsed),
        wall_ms: Math.round(wallMs),
        files_per_sec: round((count * 1000) / elapsed),
      },
      extract: { elapsed_ms: Math.round(extract), files_per_sec: round((count * 1000) / extract) },
    };
    onKind(figures);
    all.push(figures);
  }
  return all;
}

/** Extracts every file of `dir` in turn; the time it took (ms), its library already loaded. */
async function extractAll(dir: string): Promise<number> {
  const paths = (await readdir(dir)).map((name) => join(dir, name));
  // the kind's extraction library loads on first use: once per run, not per file
  if (paths[0] !== undefined) await extractFile(paths[0]);
  const started = performance.now();
  for (const path of paths) await extractFile(path);
  return performance.now() - started;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
