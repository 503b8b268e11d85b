// The API calls' way in when the emulator plays a loaded or faulty server: a bounded capacity
// with a queue, faults drawn per ingestion call, and the counters of `/_emulator/stats`.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { Capacity } from './capacity.js';
import { drawFault, type FaultPlan } from './faults.js';
import { API_PREFIX } from './routes.js';
import type { EmulatorStats } from './stats.js';

export interface LoadOptions {
  faults: FaultPlan | undefined;
  random: () => number;
  capacity: Capacity | undefined;
  stats: EmulatorStats;
  /** Aborted when the emulator closes: stalled answers end with it. */
  closing: AbortSignal;
}

const INGESTION_PATH = `${API_PREFIX}/svc-api/ingestion`;

function refused(status: 429 | 503, message: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 429) headers['retry-after'] = '0';
  return new Response(JSON.stringify({ detail: message }), { status, headers });
}

/** Cuts the connection without an answer, as a crashing worker or a proxy reset would. */
function reset(c: { env: HttpBindings }): Response {
  c.env.incoming.socket.destroy();
  return new Response(null, { status: 500 }); // never reaches the client
}

export function loadMiddleware(
  options: LoadOptions,
): MiddlewareHandler<{ Bindings: HttpBindings }> {
  const { faults, random, capacity, stats, closing } = options;
  const counted = (response: Response): Response => {
    stats.status(response.status);
    return response;
  };
  return async (c, next) => {
    if (capacity !== undefined && !(await capacity.enter())) {
      stats.refusedQueueFull++;
      return counted(refused(503, 'Service Unavailable: the server is at capacity'));
    }
    const arrivedAt = performance.now();
    try {
      const ingestion = c.req.method === 'POST' && c.req.path === INGESTION_PATH;
      if (ingestion) stats.ingestionRequests++;
      const fault = ingestion && faults !== undefined ? drawFault(faults, random) : undefined;
      if (fault !== undefined) stats.fault(fault);
      if (fault === '503') return counted(refused(503, 'Service Unavailable'));
      if (fault === '429') return counted(refused(429, 'Too Many Requests'));
      if (fault === 'reset') return reset(c);
      if (fault === 'slow' && faults !== undefined) {
        const stalled = await sleep(faults.slowMs, false, { signal: closing }).catch(() => true);
        if (stalled) return reset(c); // closed meanwhile: the answer never comes
      }
      await next();
      if (fault === 'reset-after-store') {
        c.res = reset(c);
        return;
      }
      stats.status(c.res.status);
      if (ingestion && c.res.status === 200) {
        const answer = (await c.res.clone().json()) as { document_id?: unknown };
        if (typeof answer.document_id === 'string')
          stats.acknowledge(answer.document_id, arrivedAt);
      }
    } finally {
      capacity?.leave();
    }
  };
}
