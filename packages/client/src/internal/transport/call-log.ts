/** What a call says at `debug` (each request and answer) and `info` (each retry), redacted. */
import type { RetryEvent } from '../../request-options.js';
import type { PreparedCall, TransportSetup } from './setup.js';

/** Logs the request; when it was sent (0 when debug is off: nothing to time). */
export function logRequest(setup: TransportSetup, call: PreparedCall, retry: number): number {
  if (!setup.log.enabled('debug')) return 0;
  setup.log.log('debug', `→ ${call.method} ${call.url}${retry ? ` (retry ${retry})` : ''}`, {
    headers: setup.redactor.headers(call.headers),
  });
  return performance.now();
}

export function logAnswer(
  setup: TransportSetup,
  call: PreparedCall,
  response: Response,
  started: number,
): void {
  if (started === 0) return;
  const ms = Math.round(performance.now() - started);
  setup.log.log('debug', `← ${response.status} ${call.method} ${call.url} in ${ms} ms`, {
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}

export function logRetry(
  setup: TransportSetup,
  call: PreparedCall,
  event: RetryEvent,
  maxRetries: number,
): void {
  const after = event.status ?? (event.error === 'timeout' ? 'a time-out' : 'a connection failure');
  setup.log.log(
    'info',
    `retrying ${call.method} ${call.url} in ${Math.round(event.delayMs)} ms after ${after} (retry ${event.retry} of ${maxRetries})`,
  );
}
