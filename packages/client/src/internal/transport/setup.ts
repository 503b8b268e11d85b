/** What every part of the transport reads: the client's settings, fixed when it is created. */
import type { LevelLogger } from '../../logging.js';
import type { CallControl } from '../../request-options.js';
import type { BackoffOptions } from '../backoff.js';
import type { Sender, SentBody } from '../http.js';
import type { Redactor } from '../redact.js';

export interface TransportConfig {
  send: Sender;
  apiKey: string;
  maxRetries: number;
  timeoutMs: number;
  backoff: BackoffOptions;
  headers: Record<string, string>;
  log: LevelLogger;
  redactor: Redactor;
  random?: () => number;
}

/** The config with what is derived from it once: the bearer header, lower-cased headers. */
export interface TransportSetup extends TransportConfig {
  authorization: string;
  defaultHeaders: readonly (readonly [string, string])[];
  random: () => number;
}

export function transportSetup(config: TransportConfig): TransportSetup {
  return {
    ...config,
    authorization: `Bearer ${config.apiKey}`,
    defaultHeaders: Object.entries(config.headers).map(([k, v]) => [k.toLowerCase(), v] as const),
    random: config.random ?? Math.random,
  };
}

/** One call, ready for the wire and for its retries. */
export interface PreparedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: SentBody | null;
  control: CallControl;
  signal: AbortSignal | null;
}
