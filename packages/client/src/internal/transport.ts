/**
 * The transport: the `fetch` that openapi-fetch calls for every operation. Around a `Sender` that
 * puts one request on the wire (fetch in browsers, undici under Node) it adds the bearer header,
 * a time-out per attempt, the caller's cancellation, retries with backoff, the retry-count header
 * and logging, and answers with a `ReadResponse`. It holds no global state: one per client, and
 * nothing of a request outlives its answer (its timer is cleared, its abort unregistered).
 *
 * Its parts, in the order a call meets them (`transport/`): `setup.ts` (the settings), `prepare.ts`
 * (headers, body, signal), `call-loop.ts` (attempts until one is final), `attempt.ts` (one attempt
 * under its time-out), `retry-decision.ts` (again, after how long, or the final error), `call-log.ts`.
 */
import type { CallControl } from '../request-options.js';
import { callUntilFinal } from './transport/call-loop.js';
import { prepareCall } from './transport/prepare.js';
import { type TransportConfig, transportSetup } from './transport/setup.js';

export type { TransportConfig } from './transport/setup.js';

/** openapi-fetch's `fetch`, taking the call's controls as a second argument. */
export type TransportFetch = (request: Request, control?: CallControl) => Promise<Response>;

export function createTransport(config: TransportConfig): TransportFetch {
  const setup = transportSetup(config);
  return async (request, control) =>
    callUntilFinal(setup, await prepareCall(setup, request, control));
}
