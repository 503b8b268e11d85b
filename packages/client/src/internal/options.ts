/** Checks of `createKisClient`'s options: a TypeError naming the option, before anything is sent. */
import type { KisClientOptions } from '../kis-client.js';
import { LOG_LEVELS } from '../logging.js';
import { insecureHttpRefusal } from './insecure-http.js';

export function fail(what: string, expected: string, ...got: unknown[]): never {
  const shown = got.length > 0 ? ` (got ${JSON.stringify(got[0]) ?? String(got[0])})` : '';
  throw new TypeError(`createKisClient: ${what} must be ${expected}${shown}`);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function validateOptions(o: KisClientOptions): void {
  if (typeof o !== 'object' || o === null) fail('options', 'an object with baseUrl and apiKey');
  if (!isHttpUrl(o.baseUrl)) {
    fail('baseUrl', 'an absolute http(s) URL such as "https://kis.example.com/api"', o.baseUrl);
  }
  const refusal = o.allowInsecureHttp === true ? undefined : insecureHttpRefusal(o.baseUrl);
  if (refusal !== undefined) throw new TypeError(`createKisClient: ${refusal}`);
  // a header value: visible ASCII (bearer tokens are), else every request would fail to send
  if (typeof o.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(o.apiKey.trim())) {
    fail('apiKey', 'a non-empty string of printable ASCII characters');
  }
  const r = o.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0)) fail('maxRetries', 'an integer ≥ 0', r);
  const t = o.timeoutMs;
  if (t !== undefined && !(typeof t === 'number' && t > 0))
    fail('timeoutMs', 'a positive number of ms', t);
  if (o.logLevel !== undefined && !LOG_LEVELS.includes(o.logLevel)) {
    fail('logLevel', `one of ${LOG_LEVELS.join(', ')}`, o.logLevel);
  }
  if (o.fetch !== undefined && typeof o.fetch !== 'function') fail('fetch', 'a function');
  if (o.callsOn !== undefined && o.callsOn !== 'undici' && o.callsOn !== 'node:http') {
    fail('callsOn', '"undici" or "node:http"', o.callsOn);
  }
}
