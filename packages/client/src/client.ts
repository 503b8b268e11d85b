/**
 * `createKisClient({ baseUrl, apiKey })`: the typed client. Every operation goes through one
 * openapi-fetch client (`kis.api`) on one transport (auth, retries, time-outs, redacted logging);
 * resource methods throw typed errors. The same client works against servers that follow the seed
 * and deployed servers, with no option to set: where their routes differ it finds the served one
 * (README, "Servers").
 */
import createClient from 'openapi-fetch';
import { DEFAULT_BACKOFF } from './internal/backoff.js';
import { startIngestRun } from './internal/bulk/start.js';
import { type CallContext, createCall } from './internal/call.js';
import { fetchSender } from './internal/fetch-sender.js';
import type { Sender } from './internal/http.js';
import { ingestDocument } from './internal/ingest-document.js';
import { ingestionOutcome } from './internal/ingestion-outcome.js';
import { ingestionPairSetup } from './internal/ingestion-pair.js';
import { onFirstUse } from './internal/on-first-use.js';
import { fail, validateOptions } from './internal/options.js';
import { OutgoingRequest } from './internal/outgoing-request.js';
import { createRedactor } from './internal/redact.js';
import { releaseMemory } from './internal/release.js';
import { connectorsResource } from './internal/resources/connectors.js';
import { credentialsResource } from './internal/resources/credentials.js';
import { documentsResource } from './internal/resources/documents.js';
import { filesResource } from './internal/resources/files.js';
import { apiKeysResource, identityResource } from './internal/resources/identity.js';
import { ingestionResource } from './internal/resources/ingestion.js';
import { pairsResource } from './internal/resources/pairs.js';
import { serverVersion } from './internal/resources/version.js';
import { setupConnector } from './internal/setup-connector.js';
import { createTransport, type TransportFetch } from './internal/transport.js';
import { type Sha256, webSha256 } from './journal.js';
import type { KisClient, KisClientOptions } from './kis-client.js';
import { LevelLogger, logLevelFromEnv } from './logging.js';
import type { RequestOptions } from './request-options.js';
import type { paths } from './types.js';

/** The most the server's release is waited for (it says how to read `already_existed`). */
const RELEASE_TIMEOUT_MS = 15_000;

/** The verification and scoping resources, a chunk of their own. */
const scoping = () => import('./internal/resources/scoping.js');

/** Create a client (browser-safe: sends with `options.fetch`, else `globalThis.fetch`). */
export function createKisClient(options: KisClientOptions): KisClient {
  return createKisClientWith(options);
}

/** The sender: `options.fetch`, else the default one given (Node), else `globalThis.fetch`. */
function senderFor(options: KisClientOptions, defaultSender?: () => Sender): Sender {
  const custom = options.fetch;
  if (custom === undefined && defaultSender) return defaultSender();
  const baseFetch = custom ?? globalThis.fetch;
  if (typeof baseFetch !== 'function') fail('fetch', 'given: no global fetch here');
  return fetchSender((input, init) => baseFetch(input, init));
}

/** openapi-fetch on the transport, each call's controls handed over by `fetch`. */
function apiOn(baseUrl: string, transport: TransportFetch, controls?: RequestOptions) {
  return createClient<paths>({
    baseUrl,
    fetch: (request) => transport(request, controls && { ...controls }),
    Request: OutgoingRequest,
  });
}

/** What a runtime's entry point gives the client (index.node.ts: undici and node:crypto). */
export interface Platform {
  /** The sender when `options.fetch` is not given; without one, `globalThis.fetch`. */
  defaultSender?: (() => Sender) | undefined;
  /**
   * The sender of the calls made one at a time when `options` ask for another than the default
   * one (Node: node:http for `callsOn`); ingestion runs keep the default one.
   */
  callSender?: ((options: KisClientOptions) => Sender | undefined) | undefined;
  /** SHA-256 for content hashes; without one, Web Crypto's. */
  sha256?: Sha256 | undefined;
}

/**
 * The contexts every call of a client goes through, built once per client: `calls` for the calls
 * made one at a time (resources, `ingestDocument`), `runs` for bulk runs. Both are the same unless
 * `callsOn` chose another sender for single calls; runs keep the default one.
 */
export function callContexts(
  options: KisClientOptions,
  platform: Platform = {},
): { calls: CallContext; runs: CallContext } {
  const { defaultSender, callSender, sha256 = webSha256 } = platform;
  validateOptions(options);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const redactor = createRedactor(options.apiKey);
  const level = options.logLevel ?? logLevelFromEnv() ?? 'warn';
  const log = new LevelLogger(level, options.logger ?? console, redactor.text, redactor.value);
  const timeoutMs = options.timeoutMs ?? 120_000;
  // asked once per client, on the calls' sender; bounded: a run's first result waits for it, and
  // a server without the route answers at once
  const release = releaseMemory(() =>
    serverVersion(calls, { timeoutMs: Math.min(timeoutMs, RELEASE_TIMEOUT_MS), maxRetries: 1 }),
  );
  const on = (send: Sender): CallContext => {
    const transport = createTransport({
      send,
      apiKey: options.apiKey,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      headers: options.headers ?? {},
      log,
      redactor,
    });
    return {
      baseUrl,
      api: apiOn(baseUrl, transport),
      call: createCall(baseUrl, transport, redactor, log),
      transport,
      routes: {},
      release,
      log,
      redactor,
      timeoutMs,
      sha256,
    };
  };
  const runs = on(senderFor(options, defaultSender));
  const callSend = options.fetch === undefined ? callSender?.(options) : undefined;
  const calls = callSend === undefined ? runs : on(callSend);
  return { calls, runs };
}

/** The context of a client's calls made one at a time (`callContexts`). */
export function callContext(options: KisClientOptions, platform: Platform = {}): CallContext {
  return callContexts(options, platform).calls;
}

/** `createKisClient` on a runtime's sender and hashing (`Platform`). */
export function createKisClientWith(options: KisClientOptions, platform: Platform = {}): KisClient {
  const { calls: ctx, runs } = callContexts(options, platform);
  const { baseUrl, api, transport, log, redactor } = ctx;
  const connectors = connectorsResource(ctx);
  const credentials = credentialsResource(ctx);
  const files = filesResource(ctx);
  const ingestion = {
    ...ingestionResource(ctx),
    // the listing read one document at a time loads with the verification calls
    ...onFirstUse(async () => (await scoping()).listingResource(ctx), ['connectorDocuments']),
  };
  const identity = identityResource(ctx);
  const pairs = pairsResource(ctx);
  const searchSettings = onFirstUse(
    async () => (await scoping()).searchSettingsResource(ctx),
    ['secondary', 'switchInProgress', 'all', 'reindexProgress', 'reindexErrors'],
  );
  return {
    baseUrl,
    api,
    apiWith: (opts) => apiOn(baseUrl, transport, opts),
    connectors,
    credentials,
    pairs,
    files,
    ingestion,
    documents: documentsResource(ctx),
    // verification and scoping: loaded on first use, like the doctor (most apps only ingest)
    search: onFirstUse(async () => (await scoping()).searchResource(ctx), ['admin']),
    searchSettings,
    documentSets: onFirstUse(
      async () => (await scoping()).documentSetsResource(ctx),
      ['list', 'create', 'update', 'delete', 'waitUntilSynced', 'waitUntilGone'],
    ),
    userGroups: onFirstUse(
      async () => (await scoping()).userGroupsResource(ctx),
      [
        'list',
        'create',
        'update',
        'addUsers',
        'rename',
        'shareDocumentSets',
        'setManager',
        'delete',
        'waitUntilSynced',
        'waitUntilGone',
      ],
    ),
    identity,
    apiKeys: apiKeysResource(ctx),
    version: (opts) => serverVersion(ctx, opts),
    ingestionOutcome: async (answer) =>
      ingestionOutcome(answer.already_existed, await ctx.release()),
    // loaded on first use: a diagnosis, with the rule book's access tables, that most apps never run
    doctor: async (opts) =>
      (await import('./internal/doctor.js')).runDoctor(
        ctx,
        { credentials, ingestion, identity, pairs, searchSettings },
        opts,
      ),
    setupConnector: (input, opts) =>
      setupConnector({ connectors, credentials, log, redactor }, input, opts),
    setupIngestionPair: async (input, opts) =>
      setupConnector({ connectors, credentials, log, redactor }, ingestionPairSetup(input), opts),
    ingestDocument: (document, opts) => ingestDocument(ctx, document, opts),
    // runs send on the default sender, whatever sends the calls made one at a time
    ingestMany: (source, opts) => startIngestRun(runs, source, opts),
  };
}
