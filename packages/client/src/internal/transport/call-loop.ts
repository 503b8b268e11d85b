/**
 * A call from its first attempt to its answer: attempts until one is final (retry-decision.ts),
 * waiting between them, with the retry-count header, logging and the caller's cancellation.
 */

import { sleep } from '../backoff.js';
import { errorFromResponse } from '../error-parse.js';
import { abortError, attemptOnce } from './attempt.js';
import { logAnswer, logRequest, logRetry } from './call-log.js';
import { finalError, nextRetry } from './retry-decision.js';
import type { PreparedCall, TransportSetup } from './setup.js';

/** An HTML page is never the API's answer (a login page, a proxy, a base URL without /api). */
async function refuseHtml(
  setup: TransportSetup,
  call: PreparedCall,
  response: Response,
): Promise<void> {
  const type = response.headers.get('content-type');
  if (type === null || !/\btext\/html\b|application\/xhtml/i.test(type)) return;
  const text = await response.text();
  const { method, url } = call;
  throw errorFromResponse(response, text, { method, url, redactor: setup.redactor });
}

export async function callUntilFinal(setup: TransportSetup, call: PreparedCall): Promise<Response> {
  const { control } = call;
  const cancel = control.registry?.signal ?? call.signal;
  const maxRetries = Math.max(0, control.maxRetries ?? setup.maxRetries);
  const timeoutMs = control.timeoutMs ?? setup.timeoutMs;
  for (let retry = 0; ; retry++) {
    if (cancel?.aborted) throw abortError(call, cancel, setup.redactor);
    call.headers['x-kis-retry-count'] = String(retry);
    const started = logRequest(setup, call, retry);
    const result = await attemptOnce(setup, call, timeoutMs);
    const response = result.response;
    if (response) {
      logAnswer(setup, call, response, started);
      control.onStatus?.(response.status);
      if (response.status >= 200 && response.status < 300) await refuseHtml(setup, call, response);
    }
    const event = nextRetry(setup, call, result, retry, maxRetries);
    if (event === undefined) {
      if (response) return response;
      const error = finalError(call, result, retry);
      if (result.kind !== 'abort') setup.log.log('info', error.message);
      throw error;
    }
    logRetry(setup, call, event, maxRetries);
    control.onRetry?.(event);
    try {
      await sleep(event.delayMs, cancel ?? undefined, control.registry);
    } catch {
      throw abortError(call, cancel, setup.redactor);
    }
  }
}
