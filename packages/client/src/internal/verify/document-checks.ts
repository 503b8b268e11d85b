/**
 * The checks of one document, in order, each call with the client's retries: present (the pair's
 * listing), indexed (`document-size-info`, read as "no chunks" only when this key should see the
 * document: a 404 also means "not visible"), findable (admin search, first 10, hidden marked),
 * and visible (what the `as` key sees against what its pairs grant it). What stops the whole run
 * (a refused key, a server without these routes) is thrown as `FatalCheck`.
 */
import { isRouteNotFound } from '@kis/rules';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
} from '../../errors.js';
import type { KisClient } from '../../kis-client.js';
import type { VerifyCheck, VerifyReason, VerifyResult } from '../../verify-types.js';
import type { Audience } from './audience.js';
import { distinctivePhrase, titleQuery } from './findable-query.js';
import type { IdSet } from './id-set.js';
import type { ReadDocument, Target } from './targets.js';

/** Where a document must rank to count as findable. */
export const FINDABLE_RANK = 10;

/** An error no document can get past: the run stops with it. */
export class FatalCheck extends Error {
  constructor(readonly error: unknown) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** Why checks were not made, counted for the summary's notes. */
export type SkipReason = 'not-visible-to-key' | 'as-unknown' | 'other-pair' | 'no-query';

export interface CheckContext {
  kis: KisClient;
  as: KisClient | undefined;
  ccPairId: number;
  checks: ReadonlySet<VerifyCheck>;
  /**
   * The pair's listed ids (a source's verification), `listing` when the documents come from the
   * listing itself, undefined when the key may not read it.
   */
  listed: IdSet | 'listing' | undefined;
  key: Audience;
  asAudience: Audience | undefined;
  keySearches: boolean;
  asSearches: boolean;
  signal: AbortSignal | undefined;
  skipped(reason: SkipReason): void;
}

/** True for what stops the run rather than failing one document. */
function isFatal(error: unknown): boolean {
  if (AuthenticationError.isInstance(error) || PermissionDeniedError.isInstance(error)) return true;
  if (APIUserAbortError.isInstance(error)) return true;
  if (APIConnectionError.isInstance(error)) return !APITimeoutError.isInstance(error);
  if (!APIError.isInstance(error)) return false;
  return error.status === 501 || isRouteNotFound(error.status ?? 0, error.body);
}

/** Runs a call; a fatal failure is thrown as `FatalCheck`, others are returned. */
async function attempt<T>(call: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    if (isFatal(error)) throw new FatalCheck(error);
    return { error };
  }
}

/** The document's chunks as `client` sees them: 0 for a 404 (no chunks, or not visible). */
async function chunksOf(client: KisClient, id: string, signal: AbortSignal | undefined) {
  return attempt(async () => {
    try {
      return (await client.documents.sizeInfo(id, { signal })).num_chunks;
    } catch (error) {
      if (NotFoundError.isInstance(error) && !isRouteNotFound(404, error.body)) return 0;
      throw error;
    }
  });
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A result being filled in. */
class Outcome {
  readonly result: VerifyResult;
  constructor(target: Target) {
    this.result = {
      documentId: target.documentId ?? '',
      ref: target.ref,
      ok: true,
      reasons: [],
      checks: {},
      ...(target.item === undefined ? {} : { item: target.item }),
    };
  }
  pass(check: VerifyCheck): void {
    this.result.checks[check] = 'passed';
  }
  skip(check: VerifyCheck): void {
    this.result.checks[check] ??= 'skipped';
  }
  fail(check: VerifyCheck, reason: VerifyReason, detail?: string): void {
    this.result.checks[check] = 'failed';
    this.result.ok = false;
    if (!this.result.reasons.includes(reason)) this.result.reasons.push(reason);
    if (detail !== undefined) this.result.detail = detail;
  }
  skipRest(checks: ReadonlySet<VerifyCheck>): VerifyResult {
    for (const check of checks) this.skip(check);
    return this.result;
  }
}

/**
 * The queries to try, best first. With the source's text, a distinctive phrase of it alone: titles
 * are often shared (a document found among equals by its title proves little), and the index must
 * hold the text the source has now. Without it (a pair's listing, a journal), the title, then a
 * phrase of the first chunk the index holds.
 */
function* queries(
  ctx: CheckContext,
  id: string,
  read: ReadDocument | undefined,
  title: string | undefined,
): Generator<string | (() => Promise<string | undefined>), void, undefined> {
  const phrase = read?.text === undefined ? undefined : distinctivePhrase(read.text);
  if (phrase !== undefined) {
    yield phrase;
    return;
  }
  const named = titleQuery(read?.title ?? title);
  if (named !== undefined) yield named;
  if (read?.text === undefined) {
    // no text at hand (a pair's listing, a journal): the index's first chunk gives one
    yield async () => {
      const chunk = await attempt(() => ctx.kis.documents.chunkInfo(id, 0, { signal: ctx.signal }));
      return 'value' in chunk ? distinctivePhrase(chunk.value.content) : undefined;
    };
  }
}

/** Where `client`'s search ranks the document for each query until it is in the first 10. */
async function search(
  client: KisClient,
  ctx: CheckContext,
  id: string,
  tries: Iterable<string | (() => Promise<string | undefined>)>,
): Promise<{
  rank: number | undefined;
  hidden: boolean;
  query: string | undefined;
  error?: unknown;
}> {
  let best: { rank: number | undefined; hidden: boolean; query: string | undefined } = {
    rank: undefined,
    hidden: false,
    query: undefined,
  };
  for (const next of tries) {
    const query = typeof next === 'string' ? next : await next();
    if (query === undefined || query === best.query) continue;
    const answer = await attempt(() => client.search.admin(query, { signal: ctx.signal }));
    if ('error' in answer) return { ...best, query, error: answer.error };
    const rank = answer.value.findIndex((d) => d.document_id === id);
    const hit = answer.value[rank];
    best = {
      rank: rank >= 0 && (best.rank === undefined || rank < best.rank) ? rank : best.rank,
      hidden: best.hidden || hit?.hidden === true,
      query,
    };
    if (best.rank !== undefined && best.rank < FINDABLE_RANK) break;
  }
  return best;
}

/** Reads the target's document when it has one to read; undefined on failure (said in `outcome`). */
async function readTarget(
  target: Target,
  outcome: Outcome,
): Promise<ReadDocument | undefined | false> {
  if (target.read === undefined) return undefined;
  try {
    return await target.read();
  } catch (error) {
    outcome.result.detail = describe(error);
    return false;
  }
}

/**
 * Every check asked of one document. Never rejects but with `FatalCheck`. Why its checks were
 * skipped is counted once per document.
 */
export async function checkDocument(shared: CheckContext, target: Target): Promise<VerifyResult> {
  const skips = new Set<SkipReason>();
  try {
    return await checkAll({ ...shared, skipped: (reason) => skips.add(reason) }, target);
  } finally {
    for (const reason of skips) shared.skipped(reason);
  }
}

async function checkAll(ctx: CheckContext, target: Target): Promise<VerifyResult> {
  const { checks } = ctx;
  const outcome = new Outcome(target);
  const { result } = outcome;
  if (target.otherPair) {
    ctx.skipped('other-pair');
    return outcome.skipRest(checks);
  }
  let read: ReadDocument | undefined;
  if (target.documentId === undefined) {
    const got = await readTarget(target, outcome);
    if (!got) {
      outcome.fail(
        [...checks][0] ?? 'present',
        'unreadable',
        result.detail ?? 'the item gives no document id',
      );
      return outcome.skipRest(checks);
    }
    read = got;
    result.documentId = got.documentId;
  }
  const id = result.documentId;
  if (checks.has('present')) {
    if (ctx.listed === undefined)
      outcome.skip('present'); // said once, in the set-up's notes
    else if (ctx.listed !== 'listing' && !ctx.listed.mark(id)) {
      outcome.fail('present', 'missing');
      return outcome.skipRest(checks);
    } else outcome.pass('present');
  }
  const keySees = ctx.key.expects(id);
  const needsChunks =
    checks.has('indexed') ||
    checks.has('findable') ||
    (checks.has('visible') && ctx.as === ctx.kis);
  let chunks: number | undefined;
  if (needsChunks) {
    const got = await chunksOf(ctx.kis, id, ctx.signal);
    if ('error' in got) {
      outcome.fail(
        checks.has('indexed') ? 'indexed' : 'findable',
        'failed-call',
        describe(got.error),
      );
      return outcome.skipRest(checks);
    }
    chunks = got.value;
    result.chunks = chunks;
  }
  const indexed = chunks !== undefined && chunks > 0;
  const unseen = !indexed && keySees === false;
  if (checks.has('indexed')) {
    if (indexed) outcome.pass('indexed');
    else if (unseen) {
      ctx.skipped('not-visible-to-key');
      outcome.skip('indexed');
    } else outcome.fail('indexed', 'unindexed');
  }
  let foundBy: string | undefined;
  if (checks.has('findable')) {
    if (!ctx.keySearches) {
      outcome.skip('findable'); // said once, in the set-up's notes
    } else if (unseen) {
      ctx.skipped('not-visible-to-key');
      outcome.skip('findable');
    } else {
      if (read === undefined) {
        const got = await readTarget(target, outcome);
        if (got === false) {
          outcome.fail('findable', 'unreadable', result.detail);
          return outcome.skipRest(checks);
        }
        read = got;
      }
      // without chunks, one query says whether a hidden document explains the 404 (OpenSearch)
      const all = [...queries(ctx, id, read, target.title)];
      const found = await search(ctx.kis, ctx, id, indexed ? all : all.slice(0, 1));
      if (found.query !== undefined) result.query = found.query;
      if (found.rank !== undefined) result.rank = found.rank;
      if (found.error !== undefined) outcome.fail('findable', 'failed-call', describe(found.error));
      else if (found.hidden) {
        if (!indexed) {
          result.reasons = result.reasons.filter((r) => r !== 'unindexed');
          if (checks.has('indexed')) outcome.pass('indexed');
        }
        outcome.fail('findable', 'hidden');
      } else if (!indexed) outcome.skip('findable');
      else if (found.rank !== undefined && found.rank < FINDABLE_RANK) {
        outcome.pass('findable');
        foundBy = found.query;
      } else if (found.query === undefined) {
        ctx.skipped('no-query');
        outcome.skip('findable');
      } else outcome.fail('findable', 'unfindable');
    }
  }
  if (checks.has('visible'))
    await checkVisible(ctx, outcome, id, indexed || keySees === false, foundBy);
  return result;
}

/** The `as` key sees the document exactly when one of its pairs grants that key. */
async function checkVisible(
  ctx: CheckContext,
  outcome: Outcome,
  id: string,
  mayHaveChunks: boolean,
  query: string | undefined,
): Promise<void> {
  const { result } = outcome;
  const expected = ctx.asAudience?.expects(id);
  if (ctx.as === undefined || expected === undefined) {
    ctx.skipped('as-unknown');
    outcome.skip('visible');
    return;
  }
  // a document without chunks for a key that should see it is unindexed: nobody sees it
  if (!mayHaveChunks && result.reasons.includes('unindexed')) {
    outcome.skip('visible');
    return;
  }
  let seen: boolean;
  if (ctx.as === ctx.kis && result.chunks !== undefined) seen = result.chunks > 0;
  else {
    const got = await chunksOf(ctx.as, id, ctx.signal);
    if ('error' in got) {
      outcome.fail('visible', 'failed-call', describe(got.error));
      return;
    }
    seen = got.value > 0;
  }
  if (!seen && ctx.asSearches && query !== undefined) {
    const found = await search(ctx.as, ctx, id, [query]);
    seen = found.rank !== undefined;
  }
  if (expected && !seen) outcome.fail('visible', 'not-visible');
  else if (!expected && seen) outcome.fail('visible', 'unexpectedly-visible');
  else outcome.pass('visible');
}
