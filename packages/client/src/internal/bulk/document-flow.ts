/**
 * One document's way through a run: load (an item's loader), prepare (id fixed, validated), the
 * journal's content check, a dry run's answer, sending (sender.ts), and the journal's record of
 * the acknowledgement, durable before the document counts as done.
 */
import { KisError } from '../../errors.js';
import type { IngestInput, IngestItem, IngestManyOptions, IngestResult } from '../../ingest.js';
import { contentHash, type IngestJournal, type JournalEntry, type Sha256 } from '../../journal.js';
import type { LevelLogger } from '../../logging.js';
import type { IngestionDocumentInput } from '../../types.js';
import type { CallContext } from '../call.js';
import { errorOf } from './error-of.js';
import { type PreparedIngestion, prepareIngestion } from './prepare.js';
import type { RunControl } from './run-control.js';
import type { RunRelease } from './run-release.js';
import type { DocumentSender } from './sender.js';
import type { SlotHold } from './slots.js';
import { isItem } from './source.js';
import { hasUpdatedAt, updatedAtFor, withUpdatedAt } from './updated-at.js';
import type { RunUploads } from './uploads.js';

/** What every result of a document carries. */
type Base = Pick<IngestResult, 'index' | 'ref' | 'ccPairId'>;

export class DocumentFlow {
  private readonly log: LevelLogger;
  private readonly sha256: Sha256;
  private readonly journal: IngestJournal | undefined;
  private readonly runPair: number | null | undefined;
  private readonly validate: boolean;
  private readonly dryRun: boolean;

  constructor(
    ctx: CallContext,
    private readonly control: RunControl,
    private readonly sender: DocumentSender,
    private readonly uploads: RunUploads,
    private readonly release: RunRelease,
    options: IngestManyOptions,
  ) {
    this.log = ctx.log;
    this.sha256 = ctx.sha256;
    this.journal = options.journal;
    this.runPair = options.ccPairId;
    this.validate = options.validate !== false;
    this.dryRun = options.dryRun === true;
  }

  /** The pair a document goes to: its item's, else the run's (null: the server's default). */
  pairOf(item: IngestItem | undefined): number | null {
    const pair = item && item.ccPairId !== undefined ? item.ccPairId : this.runPair;
    return pair ?? null;
  }

  /** The result of a document the journal already holds. */
  skipped(input: IngestInput, index: number, documentId: string): IngestResult {
    const item = isItem(input) ? input : undefined;
    const ccPairId = this.pairOf(item);
    return { index, ref: item?.ref, ccPairId, documentId, status: 'skipped', attempts: 0 };
  }

  /**
   * Loads, checks and sends one document. `known`: the journal's later answer to the fingerprint
   * check; `fingerprint`: what the journal records with the acknowledgement (both from the loop).
   */
  async run(
    input: IngestInput,
    index: number,
    slot: SlotHold,
    known: Promise<string | undefined> | undefined,
    fingerprint: string | undefined,
  ): Promise<IngestResult> {
    if (known !== undefined) {
      const skipped = await known;
      if (skipped !== undefined) return this.skipped(input, index, skipped);
    }
    const item = isItem(input) ? input : undefined;
    const ccPairId = this.pairOf(item);
    const base: Base = { index, ref: item?.ref, ccPairId };
    let prepared: PreparedIngestion;
    try {
      const document = (item ? await this.load(item) : input) as IngestionDocumentInput;
      const label = base.ref ?? `item ${index}`;
      prepared = prepareIngestion(document, ccPairId, this.validate, { label, log: this.log });
    } catch (err) {
      return this.unprepared(base, err);
    }
    const { body, documentId } = prepared;
    const journal = this.journal;
    let hash: string | undefined;
    if (journal) {
      hash = await contentHash(body, this.sha256);
      if (await journal.has(documentId, hash)) {
        return { ...base, documentId, status: 'skipped', attempts: 0 };
      }
    }
    if (this.dryRun) return { ...base, documentId, status: 'valid', attempts: 0 };
    // a document without a time gets one before its first attempt: retries send the same
    const stamped = hasUpdatedAt(body) ? undefined : this.stamp(documentId, hash);
    const updatedAt = typeof stamped === 'object' ? await stamped : stamped;
    const sending =
      updatedAt === undefined ? prepared : { body: withUpdatedAt(body, updatedAt), documentId };
    const sent = await this.sender.send(sending, slot);
    const result = { ...base, documentId: sent.documentId ?? documentId, attempts: sent.attempts };
    if (sent.error) {
      return { ...result, status: sent.aborted ? 'aborted' : 'failed', error: sent.error };
    }
    const told = this.release.outcome(sent.alreadyExisted === true);
    const status = typeof told === 'string' ? told : await told;
    if (journal && hash !== undefined) {
      const entry = acknowledged(documentId, hash, status, ccPairId, fingerprint, updatedAt);
      try {
        await journal.record(entry);
      } catch (err) {
        return { ...result, status: 'failed', error: unrecorded(result.documentId, status, err) };
      }
    }
    return { ...result, status };
  }

  /** The `doc_updated_at` of a document sent without one, from the journal's last (updated-at.ts). */
  private stamp(documentId: string, hash: string | undefined): string | Promise<string> {
    const journal = this.journal;
    if (journal?.stampOf === undefined || hash === undefined) {
      return updatedAtFor(undefined, new Date(), false);
    }
    const last = journal.stampOf(documentId, hash);
    // a journal may answer at once; any thenable it returns is awaited (not only a native Promise)
    return last !== undefined && 'then' in last
      ? Promise.resolve(last).then((known) => updatedAtFor(known, new Date(), true))
      : updatedAtFor(last, new Date(), true);
  }

  /** The item's document, built by its loader when it has one. */
  private async load(item: IngestItem): Promise<IngestionDocumentInput> {
    if (item.load === undefined) return item.document as IngestionDocumentInput;
    return item.load({
      imageFileId: (file) => this.uploads.fileId(file),
      signal: this.control.registry.signal,
    });
  }

  /** A document that could not be loaded or is invalid; or aborted, when the run's end cut it. */
  private unprepared(base: Base, err: unknown): IngestResult {
    // a load cut short by the run's end (its upload aborted) is not the document's failure
    if (this.control.cancelled) {
      const error = this.control.stopError();
      return { ...base, documentId: null, status: 'aborted', attempts: 0, error };
    }
    return { ...base, documentId: null, status: 'failed', attempts: 0, error: errorOf(err) };
  }
}

/** The journal's entry for an acknowledged document. */
function acknowledged(
  id: string,
  hash: string,
  status: JournalEntry['status'],
  ccPairId: number | null,
  fingerprint: string | undefined,
  updatedAt: string | undefined,
): JournalEntry {
  return {
    id,
    hash,
    status,
    ccPairId,
    at: new Date().toISOString(),
    ...(fingerprint === undefined ? {} : { fingerprint }),
    ...(updatedAt === undefined ? {} : { updatedAt }),
  };
}

/** A document stored by the server that the journal could not record. */
function unrecorded(documentId: string, status: string, err: unknown): KisError {
  return new KisError(
    `The server stored document ${documentId} (${status}) but the journal could not record it: ${errorOf(err).message}. A re-run will send it again (an upsert).`,
    { cause: err },
  );
}
