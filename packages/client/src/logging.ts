/**
 * Logging. Levels, from quiet to chatty: `off`, `error`, `warn`, `info`, `debug`. The level comes
 * from the `logLevel` option, else from the `KIS_LOG` environment variable (read only where a
 * `process` global exists, so the module stays browser-safe), else `warn`.
 *
 * - `error`: a workflow could not finish (e.g. `setupConnector` left a connector unassociated).
 * - `warn`: things the caller cannot see otherwise: bulk ingestion slowed down after 429/503, a
 *   callback threw.
 * - `info`: a retry is scheduled (reason, delay, attempt); a request failed for good (the caller
 *   also gets the typed error).
 * - `debug`: every request and answer (method, URL, status, time, redacted headers).
 *
 * Every line is redacted: the API key and `authorization` values never reach the logger.
 */

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything with console-like methods; `console` is the default. */
export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * Read `KIS_LOG` when a Node-like `process.env` exists; undefined in browsers or when unset.
 * Throws a `TypeError` naming the variable when it holds an unknown level.
 */
export function logLevelFromEnv(): LogLevel | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const raw = env?.KIS_LOG?.trim().toLowerCase();
  if (!raw) return undefined;
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new TypeError(
    `KIS_LOG must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(env?.KIS_LOG)})`,
  );
}

/** Internal logger: level check first (cheap), then redaction, then the user's logger. */
export class LevelLogger {
  readonly level: LogLevel;
  private readonly rank: number;
  constructor(
    level: LogLevel,
    private readonly sink: Logger,
    private readonly redactText: (s: string) => string,
    private readonly redactValue: <T>(v: T) => T,
  ) {
    this.level = level;
    this.rank = RANK[level];
  }
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return this.rank >= RANK[level];
  }
  log(level: Exclude<LogLevel, 'off'>, message: string, fields?: Record<string, unknown>): void {
    if (this.rank < RANK[level]) return;
    const line = `[kis] ${this.redactText(message)}`;
    try {
      if (fields) this.sink[level](line, this.redactValue(fields));
      else this.sink[level](line);
    } catch {
      // a throwing logger must not break a request
    }
  }
}
