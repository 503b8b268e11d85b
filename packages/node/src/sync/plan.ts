/**
 * The plan of a sync: the pair's listing says what the server has, the source says what should
 * be there, the journal's content hashes prove what is unchanged (README, "Sync").
 */

import { createHash } from 'node:crypto';
import type { IngestItem, IngestionDocumentInput, KisClient } from '@kis/client';
import {
  contentHash,
  fingerprintMatcher,
  type IngestJournal,
  isIngestItem as isItem,
  pairFingerprint,
  prepareIngestion,
  ImageUploads as RunUploads,
} from '@kis/client';
import { normalizeDocumentId } from '@kis/rules';
import type { IncrementalSource, SyncItem, SyncOptions, SyncPlan, SyncPlanEntry } from './types.js';

/** The content hash's SHA-256, with node:crypto (the client's bulk runs under Node use the same). */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** An item of the source with what the plan learnt about it. */
export interface PlannedItem extends SyncPlanEntry {
  item: SyncItem;
  /** Position in the source. */
  order: number;
  /** The document, when the plan had to build it (kept so the run does not build it again). */
  document?: IngestionDocumentInput | undefined;
  /** The item's fingerprint, if it has one (read once, when the item is added). */
  fingerprint: string | undefined;
  /** Proven unchanged by the journal. */
  unchanged: boolean;
}

export interface Planned {
  plan: SyncPlan;
  /** Creates and updates, in source order. */
  toSend: PlannedItem[];
}

/** The stored id of a document, or undefined when it is not a valid one (the run says why). */
function storedIdOf(document: IngestionDocumentInput, ccPairId: number): string | undefined {
  try {
    return prepareIngestion(document, ccPairId, false).documentId;
  } catch {
    return undefined;
  }
}

/** The stored id of an item, when it can be known without building its document. */
function itemIdOf(item: IngestItem & { id?: unknown }, ccPairId: number): string | undefined {
  const { id } = item;
  if (typeof id === 'string' && id !== '') {
    try {
      return normalizeDocumentId(id);
    } catch {
      return undefined;
    }
  }
  return item.document ? storedIdOf(item.document, ccPairId) : undefined;
}

/**
 * `owns` as a predicate over stored ids: prefixes are given as the caller writes ids and compared
 * in their stored form (`normalizeDocumentId`: `docs/` matches `docs%2Fa.md`).
 */
export function ownership(owns: SyncOptions['owns']): (id: string) => boolean {
  if (typeof owns === 'function') return owns;
  if (!Array.isArray(owns) || owns.length === 0 || owns.some((p) => typeof p !== 'string' || !p)) {
    throw new TypeError('sync: owns must be non-empty id prefixes or a function (id) => boolean');
  }
  const stored = owns.map((prefix) => normalizeDocumentId(prefix));
  return (id) => stored.some((prefix) => id.startsWith(prefix));
}

/** The most deletions `maxDelete` allows out of `owned`. */
export function deleteLimit(maxDelete: SyncOptions['maxDelete'], owned: number): number {
  const value = maxDelete ?? '50%';
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0)
      throw new TypeError('sync: maxDelete must be an integer ≥ 0 or "P%"');
    return value;
  }
  const share = /^(\d+(?:\.\d+)?)%$/.exec(String(value));
  if (!share)
    throw new TypeError(
      `sync: maxDelete must be an integer ≥ 0 or "P%", got ${JSON.stringify(value)}`,
    );
  return Math.floor((owned * Number(share[1])) / 100);
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The pair an item goes to: its own, else the sync's. */
function pairOf(item: SyncItem, ccPairId: number): number | null {
  return isItem(item) && item.ccPairId !== undefined ? item.ccPairId : ccPairId;
}

/**
 * True when the journal holds the content hash of the item's document as built now: the item is
 * read (loaded) and its request body hashed. Keeps the document it built for the run otherwise.
 */
async function provenByContent(
  entry: PlannedItem,
  ccPairId: number,
  journal: IngestJournal,
  uploads: RunUploads,
  signal: AbortSignal,
): Promise<boolean> {
  const { item } = entry;
  let document: IngestionDocumentInput;
  try {
    document = isItem(item)
      ? ((item.load
          ? await item.load({ imageFileId: (f) => uploads.fileId(f), signal })
          : item.document) as IngestionDocumentInput)
      : item;
    const { body } = prepareIngestion(document, pairOf(item, ccPairId), false);
    if (await journal.has(entry.documentId, await contentHash(body, sha256))) return true;
  } catch {
    return false; // the run builds it again and reports why it fails
  }
  entry.document = document;
  return false;
}

/** How many items of a synchronous source the plan reads between two turns of the event loop. */
const TURN_EVERY = 256;

/**
 * A turn of the event loop, not only of the microtask queue: I/O in flight (the listing's
 * request and answer) makes progress meanwhile. `setImmediate` where there is one (Node).
 */
const turn = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/**
 * Marks the entries the journal proves unchanged, among those on the server that reading the
 * source did not prove (a journal that answers at once was asked then). An asynchronous journal
 * is asked for their fingerprints, and the others are read and hashed, `planConcurrency` at a
 * time.
 */
async function proveUnchanged(
  unproven: readonly PlannedItem[],
  ccPairId: number,
  journal: IngestJournal,
  read: SourceEntries,
  options: SyncOptions,
): Promise<void> {
  const { fingerprintsAsked, pending } = read;
  const uploads = new RunUploads(
    () => Promise.reject(new Error('no upload in a plan')),
    journal,
    true,
  );
  const signal = options.signal ?? new AbortController().signal;
  await eachLimited(unproven, options.planConcurrency ?? 8, async (entry) => {
    const { fingerprint } = entry;
    const matcher = fingerprintMatcher(journal);
    if (!fingerprintsAsked && fingerprint !== undefined && matcher) {
      const matched =
        entry === pending?.entry ? pending.matched : matcher(entry.documentId, fingerprint);
      if (await matched) {
        entry.unchanged = true;
        return;
      }
    }
    if (await provenByContent(entry, ccPairId, journal, uploads, signal)) entry.unchanged = true;
  });
}

/** The entries of a source, in its order, and those of its items whose id cannot be known. */
interface SourceEntries {
  entries: PlannedItem[];
  unknown: SyncPlanEntry[];
  /** The ids of the entries. */
  seen: Set<string>;
  /** Whether the journal answered each fingerprint at once while the source was read. */
  fingerprintsAsked: boolean;
  /** The first answer of an asynchronous journal, for the entry it was asked for. */
  pending: PendingFingerprint | undefined;
}

interface PendingFingerprint {
  entry: PlannedItem;
  matched: PromiseLike<boolean>;
}

/**
 * Reads the source into entries. A journal that answers at once is asked for each item's
 * fingerprint meanwhile (README, "Sync"): an unchanged item then costs no second pass. Stops
 * early when `stop()` turns true (the listing failed).
 */
async function readSource(
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  ccPairId: number,
  journal: IngestJournal | undefined,
  stop: () => boolean,
): Promise<SourceEntries> {
  const entries: PlannedItem[] = [];
  const unknown: SyncPlanEntry[] = [];
  const seen = new Set<string>();
  let matches = fingerprintMatcher(journal);
  let pending: PendingFingerprint | undefined;
  const add = (item: SyncItem) => {
    const order = entries.length;
    let ref: string | undefined;
    let fingerprint: string | undefined;
    let documentId: string | undefined;
    if (isItem(item)) {
      ref = item.ref;
      // as the run records it: with the pair the item goes to
      fingerprint =
        item.fingerprint === undefined
          ? undefined
          : pairFingerprint(item.fingerprint, pairOf(item, ccPairId));
      documentId = itemIdOf(item, ccPairId);
    } else documentId = storedIdOf(item, ccPairId);
    documentId ??= '';
    let unchanged = false;
    let later: PromiseLike<boolean> | undefined;
    if (documentId === '') unknown.push({ documentId, ref: ref ?? `item ${order}` });
    else {
      seen.add(documentId);
      if (fingerprint !== undefined && matches !== undefined) {
        const matched = matches(documentId, fingerprint);
        if (typeof matched === 'boolean') unchanged = matched;
        else later = matched;
      }
    }
    // every field set at once: one object shape for the thousands of entries of a folder
    const entry: PlannedItem = {
      documentId,
      ref,
      item,
      order,
      document: undefined,
      fingerprint,
      unchanged,
    };
    entries.push(entry);
    if (later !== undefined) {
      // an asynchronous journal: this answer is awaited, the others asked, after the listing (a
      // failure is thrown there, if this entry is on the server at all)
      later.then(undefined, () => {});
      pending = { entry, matched: later };
      matches = undefined;
    }
  };
  if (typeof (source as AsyncIterable<SyncItem>)[Symbol.asyncIterator] === 'function') {
    for await (const item of source) {
      if (stop()) break;
      add(item);
    }
  } else {
    // read without a promise per item (a folder walk: thousands of them), with a turn of the
    // event loop now and then so that the listing asked for meanwhile is sent and answered; an
    // item given as a promise is awaited, as `for await` would
    let read = 0;
    for (const item of source as Iterable<SyncItem>) {
      if (++read % TURN_EVERY === 0) await turn();
      if (stop()) break;
      add(isThenable(item) ? ((await item) as SyncItem) : item);
    }
  }
  return { entries, unknown, seen, fingerprintsAsked: matches !== undefined, pending };
}

/**
 * The ids the source holds: those read, or for a source that read only what changed since its
 * last run (`IncrementalSource`), its whole key set, streamed (ids only), in stored form.
 */
async function presentIds(
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  read: Set<string>,
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const keys = (source as Partial<IncrementalSource>).presentIds?.();
  if (keys === undefined) return read;
  let n = 0;
  for await (const id of keys) {
    if (++n % TURN_EVERY === 0 && signal?.aborted) throw signal.reason;
    try {
      read.add(normalizeDocumentId(id));
    } catch {
      // an id the rule book refuses is not on the server either
    }
  }
  return read;
}

export async function planSync(
  kis: KisClient,
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  options: SyncOptions,
): Promise<Planned> {
  const { ccPairId, journal } = options;
  await journal?.refresh?.();
  const owns = ownership(options.owns);
  // The listing is asked for first and the source read while the server answers, rather than
  // one after the other. When the listing fails the source is left (nothing more is read) and
  // the listing's error is thrown, as it would be before reading anything.
  const listed = kis.ingestion.listConnectorDocuments(ccPairId, {
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let listingFailed = false;
  listed.then(undefined, () => {
    listingFailed = true; // thrown by the `await listed` below
  });
  let read: SourceEntries;
  try {
    read = await readSource(source, ccPairId, journal, () => listingFailed);
  } catch (error) {
    await listed; // its failure first, as when the listing came before the source
    throw error;
  }
  const { entries, unknown } = read;
  // an incremental source read only what changed: what it still has is its key set
  const seen = await presentIds(source, read.seen, options.signal);
  const listing = await listed;
  const onServer = new Set<string>();
  for (const d of listing) onServer.add(d.document_id);
  const create: PlannedItem[] = [];
  let unchanged: PlannedItem[] = [];
  const unproven: PlannedItem[] = [];
  for (const e of entries) {
    if (e.documentId === '' || !onServer.has(e.documentId)) create.push(e);
    else if (e.unchanged) unchanged.push(e);
    else unproven.push(e);
  }
  let update = unproven;
  if (journal !== undefined && unproven.length > 0) {
    await proveUnchanged(unproven, ccPairId, journal, read, options);
    update = unproven.filter((e) => !e.unchanged);
    if (update.length < unproven.length) {
      unchanged = [...unchanged, ...unproven.filter((e) => e.unchanged)].sort(
        (a, b) => a.order - b.order,
      );
    }
  }
  let owned = 0;
  const toDelete: SyncPlanEntry[] = [];
  for (const { document_id: id } of listing) {
    if (!owns(id)) continue;
    owned++;
    if (!seen.has(id)) toDelete.push({ documentId: id });
  }
  let refused: string | undefined;
  let pruneBlocked: string | undefined;
  if (options.prune) {
    const limit = deleteLimit(options.maxDelete, owned);
    if (toDelete.length > limit && options.force !== true) {
      refused = `the prune would delete ${toDelete.length} of the ${owned} documents this source owns, more than the limit of ${limit} (maxDelete ${options.maxDelete ?? '50%'}); check the source (an empty or unmounted folder?), or force it`;
    } else if (unknown.length > 0) {
      pruneBlocked = `${unknown.length} item(s) of the source have no known id (${unknown[0]?.ref}…): nothing is deleted, as they may be among the owned documents`;
    }
  }
  const entry = ({ documentId, ref }: SyncPlanEntry): SyncPlanEntry =>
    ref === undefined ? { documentId } : { documentId, ref };
  return {
    plan: {
      create: create.filter((e) => e.documentId !== '').map(entry),
      update: update.map(entry),
      unchanged: unchanged.map(entry),
      delete: toDelete,
      unknown,
      owned,
      refused,
      pruneBlocked,
    },
    toSend: update.length === 0 ? create : [...create, ...update].sort((a, b) => a.order - b.order),
  };
}
