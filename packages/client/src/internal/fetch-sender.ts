/** The browser-safe sender: the platform's `fetch` (or the one given), each answer read whole. */
import type { Received, Sender } from './http.js';

export function fetchSender(fetch: typeof globalThis.fetch): Sender {
  return (url, init) => {
    const controller = new AbortController();
    const received = (async (): Promise<Received> => {
      const response = await fetch(url, { ...init, redirect: 'follow', signal: controller.signal });
      const { status, statusText, headers } = response;
      const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer());
      return { status, statusText, headers, body: body?.length === 0 ? null : body };
    })();
    return { received, abort: (reason) => controller.abort(reason) };
  };
}
