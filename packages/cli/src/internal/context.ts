import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  createKisClient,
  insecureHttpRefusal,
  type KisClient,
  type KisClientOptions,
  type Logger,
  type LogLevel,
} from '@kis/client';
import { UsageError } from './errors.js';
import { type Io, Output } from './output.js';
import type { Secrets } from './secrets.js';
import { cliVersion } from './version.js';

/** The global options, as commander parses them (on every command). */
export interface GlobalOptions {
  baseUrl?: string;
  allowInsecureHttp?: boolean;
  apiKey?: string;
  apiKeyFile?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
}

/**
 * Checks a base URL: http(s), and (unless `requireApi` is false) its path ends with the `/api`
 * prefix. Returns it normalised.
 */
export function checkBaseUrl(value: string, from: string, requireApi = true): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${from}: "${value}" is not a URL; expected the API root including /api, e.g. http://localhost:8080/api`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${from}: "${value}" must be an http:// or https:// URL`);
  }
  if (url.search || url.hash) {
    throw new UsageError(`${from}: "${value}" must not have a query or fragment`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (requireApi && !/(^|\/)api$/.test(path)) {
    const suggestion = `${url.origin}${path}/api`;
    throw new UsageError(
      `${from}: "${value}" lacks the /api prefix; the base URL includes it, e.g. ${suggestion}`,
    );
  }
  return `${url.origin}${path}`;
}

/** Everything a command needs: output, options, and (lazily) the API client. */
export class Context {
  readonly io: Io;
  readonly out: Output;
  readonly options: GlobalOptions;
  readonly secrets: Secrets;
  private connectionPromise: Promise<Connection> | undefined;
  private apiKeyPromise: Promise<string> | undefined;
  private clientPromise: Promise<KisClient> | undefined;
  private asGivenPromise: Promise<KisClient> | undefined;

  constructor(io: Io, options: GlobalOptions, secrets: Secrets) {
    this.io = io;
    this.options = options;
    this.secrets = secrets;
    // --no-color works like NO_COLOR.
    const outIo = options.color === false ? { ...io, env: { ...io.env, NO_COLOR: '1' } } : io;
    this.out = new Output(outIo, {
      json: options.json === true,
      quiet: options.quiet === true,
      verbose: options.verbose === true,
    });
  }

  /** Base URL and API key from the flags or the environment; usage errors when missing or bad. */
  connection(): Promise<Connection> {
    this.connectionPromise ??= this.resolveConnection();
    return this.connectionPromise;
  }

  /**
   * The base URL from the flags or the environment, checked, or undefined when none is given: for
   * what only names the server (a queue producer's journal) and never calls it.
   */
  configuredBaseUrl(): string | undefined {
    const rawBase = this.options.baseUrl ?? this.io.env.KIS_BASE_URL;
    if (rawBase === undefined || rawBase.trim() === '') return undefined;
    return checkBaseUrl(
      rawBase.trim(),
      this.options.baseUrl !== undefined ? '--base-url' : 'KIS_BASE_URL',
      true,
    );
  }

  private async resolveConnection(requireApi = true): Promise<Connection> {
    const { env } = this.io;
    const rawBase = this.options.baseUrl ?? env.KIS_BASE_URL;
    if (rawBase === undefined || rawBase.trim() === '') {
      throw new UsageError(
        'missing base URL: pass --base-url or set KIS_BASE_URL (the API root including /api, e.g. http://localhost:8080/api)',
      );
    }
    const baseUrl = checkBaseUrl(
      rawBase.trim(),
      this.options.baseUrl !== undefined ? '--base-url' : 'KIS_BASE_URL',
      requireApi,
    );
    const refusal = this.allowsInsecureHttp() ? undefined : insecureHttpRefusal(baseUrl);
    if (refusal !== undefined) throw new UsageError(refusal);
    const apiKey = await this.apiKey();
    return { baseUrl, apiKey };
  }

  /** --allow-insecure-http or KIS_ALLOW_INSECURE_HTTP=1: the key may go over plain http. */
  private allowsInsecureHttp(): boolean {
    return this.options.allowInsecureHttp === true || this.io.env.KIS_ALLOW_INSECURE_HTTP === '1';
  }

  /** The API key from --api-key, --api-key-file or KIS_API_KEY; usage errors when missing or bad. */
  apiKey(): Promise<string> {
    this.apiKeyPromise ??= this.resolveApiKey();
    return this.apiKeyPromise;
  }

  private async resolveApiKey(): Promise<string> {
    const { env } = this.io;
    let apiKey: string | undefined;
    if (this.options.apiKey !== undefined && this.options.apiKeyFile !== undefined) {
      throw new UsageError('--api-key and --api-key-file: give only one of them');
    }
    if (this.options.apiKey !== undefined) {
      apiKey = this.options.apiKey.trim();
      if (apiKey === '') throw new UsageError('--api-key: expected a non-empty API key');
    } else if (this.options.apiKeyFile !== undefined) {
      const path = this.options.apiKeyFile;
      let text: string;
      try {
        text = await readFile(resolve(this.io.cwd, path), 'utf8');
      } catch (error) {
        // @kis/node's wording of file errors, loaded on this error only
        const { fsReason } = await import('@kis/node');
        throw new UsageError(`--api-key-file: cannot read file "${path}": ${fsReason(error)}`);
      }
      apiKey = text.trim();
      if (apiKey === '' || /\s/.test(apiKey)) {
        throw new UsageError(
          `--api-key-file: "${path}" must hold the API key alone (one line, no spaces)`,
        );
      }
    } else {
      apiKey = env.KIS_API_KEY?.trim();
      if (!apiKey) {
        throw new UsageError(
          'missing API key: pass --api-key, --api-key-file FILE or set KIS_API_KEY',
        );
      }
    }
    this.secrets.add(apiKey);
    // it goes into a header: anything else could never be sent (the key itself is not shown)
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      const from =
        this.options.apiKey !== undefined
          ? '--api-key'
          : this.options.apiKeyFile !== undefined
            ? `--api-key-file "${this.options.apiKeyFile}"`
            : 'KIS_API_KEY';
      throw new UsageError(
        `${from}: expected an API key of printable ASCII characters without spaces`,
      );
    }
    return apiKey;
  }

  /** The client for this command (created on first use). */
  client(): Promise<KisClient> {
    this.clientPromise ??= this.connection().then((c) => this.createClient(c));
    return this.clientPromise;
  }

  /**
   * A client for work that sends nothing (`kis ingest --dry-run`): the configured connection when
   * there is one, else a placeholder, so that no server and no key are needed.
   */
  offlineClient(): Promise<KisClient> {
    return this.connection().then(
      (c) => this.createClient(c),
      () => this.createClient({ baseUrl: 'https://offline.invalid/api', apiKey: 'offline' }),
    );
  }

  /**
   * A client for the base URL as given, with or without the `/api` prefix: for `kis doctor`,
   * which reports a missing prefix (and what the server answers instead) itself.
   */
  clientAsGiven(): Promise<KisClient> {
    this.asGivenPromise ??= this.resolveConnection(false).then((c) => this.createClient(c));
    return this.asGivenPromise;
  }

  private async createClient(connection: Connection): Promise<KisClient> {
    return createKisClient(this.clientOptions(connection));
  }

  /**
   * The client options of this command line (key, allowance, logging to stderr, user agent), for
   * what makes its own clients (`kis worker`: the queue's workers).
   */
  clientOptions({ baseUrl, apiKey }: Connection): KisClientOptions {
    const out = this.out;
    const level: LogLevel = this.options.verbose ? 'debug' : 'off';
    const line = (message: string, fields?: Record<string, unknown>) => {
      const extra = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      return `${message}${extra}`;
    };
    const logger: Logger = {
      error: (m, f) => out.debug(line(m, f)),
      warn: (m, f) => out.debug(line(m, f)),
      info: (m, f) => out.debug(line(m, f)),
      debug: (m, f) => out.debug(line(m, f)),
    };
    return {
      baseUrl,
      apiKey,
      allowInsecureHttp: this.allowsInsecureHttp(),
      logLevel: level,
      logger,
      headers: { 'user-agent': `kis-cli/${cliVersion()}` },
      // a command makes a few calls and exits: undici is loaded only for an ingestion run
      callsOn: 'node:http',
    };
  }
}
