/**
 * The API key travels in a header on every request: over plain `http://` anyone on the network
 * path can read it. The client refuses such a base URL unless it points at this machine, where
 * nothing leaves it (README, Options: `allowInsecureHttp`).
 */

/** Host names that always mean this machine (RFC 6761 reserves `localhost` and its subdomains). */
const LOOPBACK_NAME = /^(localhost|.+\.localhost)$/i;

/** True for 127.0.0.0/8, ::1 and the IPv4-mapped form of a 127.x address. */
function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Whether a base URL's host is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAME.test(hostname) || isLoopbackAddress(hostname);
}

/**
 * Why the key may not be sent to `baseUrl` (one sentence naming the host and the override), or
 * undefined when it may: https, or plain http to this machine.
 */
export function insecureHttpRefusal(baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return `refusing to send the API key over plain http to ${url.host}: anyone on the network path could read it. Use https://${url.host}${url.pathname}, or, on a network you trust, allow it explicitly (allowInsecureHttp: true; the kis CLI: --allow-insecure-http or KIS_ALLOW_INSECURE_HTTP=1).`;
}
