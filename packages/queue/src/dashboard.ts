/**
 * `serveDashboard(options)`: bull-board for the queue, on hono and `@hono/node-server` (as the
 * emulator serves), listening on a loopback address only: the board can retry and remove jobs
 * and has no login, so it is for a browser on the same machine (or an SSH tunnel).
 */
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { checkConnection, createRedis, type QueueTarget, queueNames } from './connection.js';
import { QueueUsageError } from './errors.js';

export interface DashboardOptions extends QueueTarget {
  /** TCP port (default 0: a free one). */
  port?: number | undefined;
  /** Loopback address to listen on: `127.0.0.1` (default), `::1` or `localhost`. */
  host?: string | undefined;
  /** Show the board without its retry/remove buttons. */
  readOnly?: boolean | undefined;
}

export interface Dashboard {
  /** The board's address, e.g. `http://127.0.0.1:3000/`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function serveDashboard(options: DashboardOptions): Promise<Dashboard> {
  const { queue: name, prefix } = queueNames(options);
  checkConnection(options.connection);
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new QueueUsageError(
      `host must be a loopback address (127.0.0.1, ::1 or localhost), got ${JSON.stringify(host)}: the dashboard has no login`,
    );
  }
  const port = options.port ?? 0;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) {
    throw new QueueUsageError(`port must be 0-65535 (got ${JSON.stringify(port)})`);
  }
  // loaded here, not with the package: producers and workers never need them (~20 MB)
  const [
    { createBullBoard },
    { BullMQAdapter },
    { HonoAdapter },
    { serve },
    { serveStatic },
    { Hono },
  ] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/hono'),
    import('@hono/node-server'),
    import('@hono/node-server/serve-static'),
    import('hono'),
  ]);
  const redis = createRedis(options.connection, 'kis-dashboard');
  redis.on('error', () => undefined);
  const queue = new Queue(name, { connection: redis, prefix });
  queue.on('error', () => undefined);

  const board = new HonoAdapter(serveStatic);
  board.setBasePath('/');
  createBullBoard({
    queues: [new BullMQAdapter(queue, { readOnlyMode: options.readOnly === true })],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'kis queue' } },
  });
  const app = new Hono();
  app.route('/', board.registerPlugin());

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    port: address.port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.close().catch(() => undefined);
      redis.disconnect();
    },
  };
}
