/**
 * The plan of a sync: the pair's listing says what the server has, the source says what should
 * be there, the journal's content hashes prove what is unchanged (README, "Sync").
 */
import { normalizeDocumentId } from '@kis/spec/rules';
import type { KisClient } from '../../client.js';
import { contentHash, type IngestJournal } from '../../journal.js';
import type { SyncItem, SyncOptions, SyncPlan, SyncPlanEntry } from '../../sync.js';
import type { IngestionDocumentInput } from '../../types.js';
import { prepareIngestion } from '../bulk/prepare.js';
import { isItem } from '../bulk/source.js';
import { RunUploads } from '../bulk/uploads.js';

/** An item of the source with what the plan learnt about it. */
export interface PlannedItem extends SyncPlanEntry {
  item: SyncItem;
  /** Position in the source. */
  order: number;
  /** The document, when the plan had to build it (kept so the run does not build it again). */
  document?: IngestionDocumentInput | undefined;
}

export interface Planned {
  plan: SyncPlan;
  /** Creates and updates, in source order. */
  toSend: PlannedItem[];
}

/** The stored id of an item, when it can be known without building the document. */
function idOf(item: SyncItem, ccPairId: number): string | undefined {
  try {
    if (isItem(item)) {
      const { id } = item as { id?: unknown };
      if (typeof id === 'string' && id !== '') return normalizeDocumentId(id);
      return item.document
        ? prepareIngestion(item.document, ccPairId, false).documentId
        : undefined;
    }
    return prepareIngestion(item, ccPairId, false).documentId;
  } catch {
    return undefined;
  }
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
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** True when the journal proves the document unchanged (same content hash acknowledged). */
async function provenUnchanged(
  entry: PlannedItem,
  ccPairId: number,
  journal: IngestJournal,
  uploads: RunUploads,
  signal: AbortSignal,
): Promise<boolean> {
  const { item } = entry;
  // a matching fingerprint proves it without reading the item (README, "Sync")
  const fingerprint = isItem(item) ? item.fingerprint : undefined;
  if (fingerprint !== undefined && journal.fingerprintOf) {
    if ((await journal.fingerprintOf(entry.documentId)) === fingerprint) return true;
  }
  let document: IngestionDocumentInput;
  try {
    document = isItem(item)
      ? ((item.load
          ? await item.load({ imageFileId: (f) => uploads.fileId(f), signal })
          : item.document) as IngestionDocumentInput)
      : item;
    const pair = isItem(item) && item.ccPairId !== undefined ? item.ccPairId : ccPairId;
    const { body } = prepareIngestion(document, pair, false);
    if (await journal.has(entry.documentId, await contentHash(body))) return true;
  } catch {
    return false; // the run builds it again and reports why it fails
  }
  entry.document = document;
  return false;
}

export async function planSync(
  kis: KisClient,
  source: Iterable<SyncItem> | AsyncIterable<SyncItem>,
  options: SyncOptions,
): Promise<Planned> {
  const { ccPairId, journal } = options;
  const owns = ownership(options.owns);
  const listing = await kis.ingestion.listConnectorDocuments(ccPairId, {
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const onServer = new Set(listing.map((d) => d.document_id));
  const entries: PlannedItem[] = [];
  const unknown: SyncPlanEntry[] = [];
  const seen = new Set<string>();
  let index = 0;
  for await (const item of source) {
    const ref = isItem(item) ? item.ref : undefined;
    const documentId = idOf(item, ccPairId);
    if (documentId === undefined) {
      unknown.push({ documentId: '', ref: ref ?? `item ${index}` });
      entries.push({ documentId: '', ref, item, order: index });
    } else {
      seen.add(documentId);
      entries.push({ documentId, ref, item, order: index });
    }
    index++;
  }
  const create: PlannedItem[] = [];
  const existing = entries.filter((e) => e.documentId !== '' && onServer.has(e.documentId));
  const unchangedSet = new Set<PlannedItem>();
  if (journal !== undefined) {
    const uploads = new RunUploads(
      () => Promise.reject(new Error('no upload in a plan')),
      journal,
      true,
    );
    const signal = options.signal ?? new AbortController().signal;
    await eachLimited(existing, options.planConcurrency ?? 8, async (e) => {
      if (await provenUnchanged(e, ccPairId, journal, uploads, signal)) unchangedSet.add(e);
    });
  }
  const update: PlannedItem[] = [];
  const unchanged: PlannedItem[] = [];
  for (const e of entries) {
    if (e.documentId === '' || !onServer.has(e.documentId)) create.push(e);
    else if (unchangedSet.has(e)) unchanged.push(e);
    else update.push(e);
  }
  const ownedIds = listing.map((d) => d.document_id).filter(owns);
  const toDelete = ownedIds.filter((id) => !seen.has(id)).map((documentId) => ({ documentId }));
  let refused: string | undefined;
  let pruneBlocked: string | undefined;
  if (options.prune) {
    const limit = deleteLimit(options.maxDelete, ownedIds.length);
    if (toDelete.length > limit && options.force !== true) {
      refused = `the prune would delete ${toDelete.length} of the ${ownedIds.length} documents this source owns, more than the limit of ${limit} (maxDelete ${options.maxDelete ?? '50%'}); check the source (an empty or unmounted folder?), or force it`;
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
      owned: ownedIds.length,
      refused,
      pruneBlocked,
    },
    toSend: [...create, ...update].sort((a, b) => a.order - b.order),
  };
}
