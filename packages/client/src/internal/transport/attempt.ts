/** One attempt on the wire under its own time-out; its timer and abort registration end with it. */
import { APIUserAbortError } from '../../errors.js';
import { onAbort } from '../abort.js';
import { attemptFailure } from '../error-parse.js';
import type { Attempted, SendInit } from '../http.js';
import { ReadResponse } from '../read-response.js';
import type { Redactor } from '../redact.js';
import type { PreparedCall, TransportSetup } from './setup.js';

/** The error of a call its caller cancelled, with the reason they gave. */
export function abortError(
  call: PreparedCall,
  signal: AbortSignal | null | undefined,
  redactor: Redactor,
): APIUserAbortError {
  const reason: unknown = signal?.reason;
  const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new APIUserAbortError(
    redactor.text(`${call.method} ${call.url} was aborted by the caller${why}.`),
  );
}

export async function attemptOnce(
  setup: TransportSetup,
  call: PreparedCall,
  timeoutMs: number,
): Promise<Attempted> {
  const { registry } = call.control;
  const cancel = registry?.signal ?? call.signal;
  const init: SendInit = { method: call.method, headers: call.headers, body: call.body };
  const sent = setup.send(call.url, init);
  let timedOut = false;
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          sent.abort(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  const unlink = onAbort(
    () => sent.abort(abortError(call, cancel, setup.redactor)),
    registry,
    call.signal,
  );
  try {
    // the answer counts once all of it has arrived: a body that stalls or is cut off fails
    // this attempt (retried like any other), never a later read
    const received = await sent.received;
    const response = new ReadResponse(received.body, {
      status: received.status,
      statusText: received.statusText,
      headers: received.headers,
    });
    return { response };
  } catch (err) {
    if (cancel?.aborted) return { kind: 'abort', error: abortError(call, cancel, setup.redactor) };
    return attemptFailure(err, call.method, call.url, timeoutMs, timedOut, setup.redactor);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    unlink();
  }
}
