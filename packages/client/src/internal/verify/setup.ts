/**
 * What a verification reads once before its documents: whether each key may search, the model
 * switch in progress, the pair's listed ids, and who should see the pair's documents. A refused
 * key or a server without these routes throws (the run stops); what is only unknown becomes a
 * note and skipped checks.
 */
import { isRouteNotFound, switchKeepsPushed } from '@kis/rules';
import { APIError, AuthenticationError, PermissionDeniedError } from '../../errors.js';
import type { DocumentListing, KisClient } from '../../kis-client.js';
import type { ModelSwitchState, VerifyCheck, VerifyOptions } from '../../verify-types.js';
import { type Audience, audienceOf, readAccessFacts } from './audience.js';
import { IdSet } from './id-set.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether `client` may use admin search: a harmless query, its refusal read as "no". */
async function maySearch(
  client: KisClient,
  who: string,
  consequence: string,
  notes: string[],
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    await client.search.admin('kis verify probe', { signal });
    return true;
  } catch (error) {
    if (AuthenticationError.isInstance(error)) throw error;
    const refused =
      PermissionDeniedError.isInstance(error) ||
      (APIError.isInstance(error) && isRouteNotFound(error.status ?? 0, error.body));
    if (!refused) throw error;
    const status = APIError.isInstance(error) ? ` (${error.status})` : '';
    notes.push(`${who} may not use admin search${status}: ${consequence}`);
    return false;
  }
}

/** The model switch in progress, if any, and whether the pair's pushed documents need a re-push. */
async function modelSwitch(
  kis: KisClient,
  options: VerifyOptions,
  notes: string[],
): Promise<ModelSwitchState | null> {
  let settings: Awaited<ReturnType<KisClient['searchSettings']['secondary']>>;
  try {
    settings = await kis.searchSettings.secondary({ signal: options.signal });
  } catch (error) {
    if (AuthenticationError.isInstance(error)) throw error;
    notes.push(`whether an embedding-model switch runs could not be read (${message(error)})`);
    return null;
  }
  if (settings === null) return null;
  const portFlow = settings.use_port_flow ?? true;
  const repushed =
    options.repushed?.indexName === settings.index_name ? options.repushed.at : undefined;
  return {
    indexName: settings.index_name,
    modelName: settings.model_name,
    switchover: settings.switchover_type ?? null,
    portFlow,
    needsRepush: !switchKeepsPushed(portFlow) && repushed === undefined,
    repushedAt: repushed,
  };
}

/** The ids of a listing, 8 bytes each. */
function idsOf(listing: DocumentListing): IdSet {
  const ids = new IdSet(listing.count);
  for (const doc of listing) ids.add(doc.document_id);
  return ids;
}

/**
 * The pair's listing: the documents to check without a source; with one, what `present` checks
 * against, unless the key may not read it (then `present` is skipped and said).
 */
async function pairListing(
  kis: KisClient,
  options: VerifyOptions,
  checks: ReadonlySet<VerifyCheck>,
  notes: string[],
): Promise<DocumentListing | undefined> {
  const { source, ccPairId, signal } = options;
  if (source !== undefined && !checks.has('present')) return undefined;
  try {
    return await kis.ingestion.connectorDocuments(ccPairId, { signal });
  } catch (error) {
    if (source === undefined || !PermissionDeniedError.isInstance(error)) throw error;
    notes.push(`this key may not list pair ${ccPairId}'s documents (403): present is not checked`);
    return undefined;
  }
}

export interface Setup {
  keySearches: boolean;
  asSearches: boolean;
  modelSwitch: ModelSwitchState | null;
  /** The pair's listing, the documents to check without a source (with one, only its ids stay). */
  listing: DocumentListing | undefined;
  /** What `present` is checked against (document-checks.ts). */
  listed: IdSet | 'listing' | undefined;
  key: Audience;
  asAudience: Audience | undefined;
  notes: string[];
}

const everyone: Audience = { expects: () => true, unknown: undefined };

export async function setUp(
  kis: KisClient,
  options: VerifyOptions,
  checks: ReadonlySet<VerifyCheck>,
): Promise<Setup> {
  const { ccPairId, signal } = options;
  const notes: string[] = [];
  const as = options.as;
  const keySearches =
    checks.has('findable') &&
    (await maySearch(kis, 'this key', 'findable is not checked', notes, signal));
  const asSearches =
    as !== undefined && checks.has('visible') && as !== kis
      ? await maySearch(
          as,
          'the other key',
          'what it sees is read from document-size-info alone',
          notes,
          signal,
        )
      : keySearches;
  const switched = await modelSwitch(kis, options, notes);
  const listing = await pairListing(kis, options, checks, notes);
  const listed: Setup['listed'] =
    options.source === undefined ? 'listing' : listing === undefined ? undefined : idsOf(listing);
  const needsKey = checks.has('indexed') || checks.has('findable');
  const needsAs = checks.has('visible') && as !== undefined;
  let key = everyone;
  let asAudience: Audience | undefined;
  if (needsKey || needsAs) {
    const facts = await readAccessFacts(kis, ccPairId);
    notes.push(...facts.notes);
    // other pairs' listings, shared by both keys' audiences
    const sets = new Map<number, Promise<IdSet | undefined>>();
    const listingOf = (pairId: number) => {
      let set = sets.get(pairId);
      if (set === undefined) {
        set = kis.ingestion.connectorDocuments(pairId, { signal }).then(idsOf, () => undefined);
        sets.set(pairId, set);
      }
      return set;
    };
    if (needsKey) key = await audienceOf(kis, facts, ccPairId, listingOf);
    if (key.unknown !== undefined) {
      notes.push(
        `which documents this key should see is unknown (${key.unknown}): a 404 is read as "no chunks"`,
      );
    }
    if (needsAs && as !== undefined) {
      asAudience = as === kis && needsKey ? key : await audienceOf(as, facts, ccPairId, listingOf);
    }
  }
  // an unknown expectation of this key is read as "should see": docs status reads 404 so too
  const keyAudience: Audience =
    key.unknown === undefined
      ? key
      : { expects: (id) => key.expects(id) ?? true, unknown: key.unknown };
  return {
    keySearches,
    asSearches,
    modelSwitch: switched,
    // with a source only the ids stay: the listing's bytes go (10 MB for 100,000 documents)
    listing: options.source === undefined ? listing : undefined,
    listed,
    key: keyAudience,
    asAudience,
    notes,
  };
}
