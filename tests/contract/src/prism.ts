// Starts and stops Prism (mock or validating proxy) on a free loopback port for the contract tests.
// Readiness is polled over HTTP, never waited for with a sleep.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const bundlePath: string = require.resolve('@kis/spec/openapi.json');

function prismBin(): string {
  const pkg = require.resolve('@stoplight/prism-cli/package.json');
  return join(dirname(pkg), 'dist', 'index.js');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface PrismHandle {
  url: string;
  /** Everything Prism printed: the proxy's violation reports are read from here. */
  output(): string;
  stop(): Promise<void>;
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`prism exited with code ${child.exitCode} before it was ready:\n${output()}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`prism did not become ready at ${url} within 60 s:\n${output()}`);
}

/** Starts Prism; with `logPath`, everything it prints is also appended to that file. */
export async function startPrism(
  mode: 'mock' | 'proxy',
  options: { upstream?: string; logPath?: string } = {},
): Promise<PrismHandle> {
  const { upstream, logPath } = options;
  if (logPath) writeFileSync(logPath, '');
  const port = await freePort();
  const args =
    mode === 'mock'
      ? [prismBin(), 'mock', bundlePath, '-h', '127.0.0.1', '-p', String(port)]
      : [
          prismBin(),
          'proxy',
          bundlePath,
          upstream ?? '',
          '--errors',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
        ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const collect = (chunk: Buffer) => {
    log += chunk;
    if (logPath) appendFileSync(logPath, chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const output = () => log;
  await waitUntilReady(url, child, output);
  return {
    url,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
