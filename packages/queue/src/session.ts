/** A short session on a queue for the operating calls (status, retry, clean): connect, act, close. */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  checkConnection,
  createRedis,
  describeConnection,
  type QueueTarget,
  queueNames,
} from './connection.js';
import { RunStore } from './run-store.js';

export interface QueueSession {
  queue: Queue;
  store: RunStore;
  redis: Redis;
}

/** Runs `act` with the queue; a Redis that does not answer within `timeoutMs` is an error. */
export async function withQueue<T>(
  target: QueueTarget,
  act: (session: QueueSession) => Promise<T>,
  timeoutMs = 10_000,
): Promise<T> {
  const { queue: name, prefix } = queueNames(target);
  checkConnection(target.connection);
  const redis = createRedis(target.connection, 'kis-queue');
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  const queue = new Queue(name, { connection: redis, prefix });
  queue.on('error', () => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const reachable =
      redis.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            redis.once('ready', () => resolve());
            timer = setTimeout(
              () =>
                reject(
                  new Error(
                    `cannot reach Redis at ${describeConnection(target.connection)}${lastError ? `: ${lastError.message}` : ''}`,
                  ),
                ),
              timeoutMs,
            );
          });
    await reachable;
    return await act({ queue, store: new RunStore(redis, prefix, name), redis });
  } finally {
    clearTimeout(timer);
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}
