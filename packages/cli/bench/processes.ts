/** What `pnpm bench:cli` runs as processes: `kis emulator`, and `kis ingest` as a user runs it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (this file is in its bench/ folder). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(PACKAGE_ROOT, 'bin', 'kis.js');
export const KEY = 'kis-bench-admin-key-0123456789';

export interface EmulatorProcess {
  baseUrl: string;
  child: ChildProcess;
}

/** Starts `kis emulator` as its own process (so it does not share an event loop with the run). */
export async function startEmulatorProcess(latencyMs: number): Promise<EmulatorProcess> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      '--json',
      'emulator',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--latency-ms',
      String(latencyMs),
    ],
    {
      env: { ...process.env, KIS_API_KEY: KEY, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  const ready = JSON.parse(chunk.toString('utf8').split('\n')[0] ?? '{}') as { base_url: string };
  return { baseUrl: ready.base_url, child };
}

export async function stopEmulator({ child }: EmulatorProcess): Promise<void> {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** How many documents the emulator holds. */
export async function countDocuments(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/svc-api/ingestion`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await res.json()) as unknown[]).length;
}

/** The `{"summary": …}` of a `kis --json ingest` run. */
export type IngestSummary = Record<string, number>;

/**
 * `kis --json --quiet ingest ARGS…` in `cwd` against `baseUrl`: its summary and the wall time
 * (process start-up included). Throws unless every one of `expected` documents was created.
 */
export async function runIngest(
  args: readonly string[],
  options: { cwd: string; baseUrl: string; expected: number },
): Promise<{ summary: IngestSummary; wallMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, '--json', '--quiet', 'ingest', ...args], {
    cwd: options.cwd,
    env: { ...process.env, KIS_API_KEY: KEY, KIS_BASE_URL: options.baseUrl, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number];
  const wallMs = performance.now() - started;
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}').summary as IngestSummary;
  if (code !== 0 || summary.created !== options.expected) {
    throw new Error(`kis ingest ${args.join(' ')} exited ${code} with ${JSON.stringify(summary)}`);
  }
  return { summary, wallMs };
}
