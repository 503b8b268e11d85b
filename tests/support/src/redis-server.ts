/**
 * A private `redis-server` for a test (queue mode's suites): a free loopback port, a temporary directory, AOF on; ready
 * once PING answers. `stop()` ends it (SIGTERM, so it writes its AOF), `start()` starts it again
 * on the same port and directory (to test a restart), `close()` stops it and removes the
 * directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until.js';

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket: true when Redis answers PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'kis-redis-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn(
      process.env.REDIS_SERVER ?? 'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = proc;
    let failed: Error | undefined;
    proc.once('error', (error) => {
      failed = new Error(
        `cannot start redis-server (${error.message}); install it, e.g. apt-get install redis-server`,
      );
    });
    await until(
      async () => {
        if (failed) throw failed;
        return ping(port);
      },
      `redis-server on port ${port}`,
      10_000,
      25,
    );
  };

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
