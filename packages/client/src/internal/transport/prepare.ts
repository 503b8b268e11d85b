/** A request as openapi-fetch or a caller's middleware gives it, made ready for every attempt. */
import type { CallControl } from '../../request-options.js';
import type { SentBody } from '../http.js';
import { OutgoingRequest } from '../outgoing-request.js';
import type { PreparedCall, TransportSetup } from './setup.js';

/** Headers the sender sets itself (a length that does not match the body fails the request). */
const OWN_HEADERS = ['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade'];

/** A body as given to the client's own requests: anything but a stream, which cannot be sent twice. */
export function sentBodyOf(body: OutgoingRequest['sentBody']): SentBody | null {
  if (body === null || typeof body === 'string' || body instanceof Blob) return body;
  if (body instanceof FormData || body instanceof URLSearchParams) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    // a copy: the caller's view may be over a larger or a shared buffer
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
  }
  throw new TypeError(
    'request bodies must be sent whole (a stream cannot be sent again on a retry)',
  );
}

/** A standard Request's body (from a caller's middleware), read once for every attempt. */
async function bytesOf(request: Request): Promise<Uint8Array<ArrayBuffer> | null> {
  return request.body === null ? null : new Uint8Array(await request.arrayBuffer());
}

/** The call's headers (defaults, the request's, the control's; the key last), body and signal. */
export async function prepareCall(
  setup: TransportSetup,
  request: Request,
  given: CallControl | undefined,
): Promise<PreparedCall> {
  const own = request instanceof OutgoingRequest;
  const headers: Record<string, string> = {};
  for (const [k, v] of setup.defaultHeaders) headers[k] = v;
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const control = given ?? {};
  if (control.headers) {
    for (const [k, v] of Object.entries(control.headers)) headers[k.toLowerCase()] = v;
  }
  for (const h of OWN_HEADERS) delete headers[h];
  headers.authorization = setup.authorization;
  return {
    url: request.url,
    method: request.method,
    headers,
    body: own ? sentBodyOf(request.sentBody) : await bytesOf(request),
    control,
    signal: control.signal ?? (own ? request.givenSignal : request.signal),
  };
}
