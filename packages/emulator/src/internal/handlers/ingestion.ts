// Ingestion: one document per request, its listing, and its deletion. Ids are stored as the rule
// book says (`storedDocumentId`); the hash gate decides whether a push is written
// (document-upserts.ts); during a model switch a push also writes the new index; the profile
// decides the rest (see `profile.ts`).
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ANSWERS,
  DEFAULT_DOCUMENT_SOURCE,
  DocumentIdError,
  ingestionPairId,
  LIFECYCLE_ANSWERS,
  mayEditPair,
  PERMISSIONS,
  pushUpdatedAt,
  storedDocumentId,
  toRfc3339,
} from '@kis/rules';
import type { Caller } from '../access.js';
import { AnswerError, ValidationFailure } from '../errors.js';
import type { Handlers, Schemas } from '../op-types.js';
import type { ProfileBehaviour } from '../profile.js';
import type { DocumentWrite } from '../store/document-upserts.js';
import type { Store } from '../store/index.js';
import type { JsonObject } from '../store/json-columns.js';
import type { ValidationIssue } from '../validation.js';
import { documentListView } from '../views.js';
import { actorOf, known, scopedPair } from './actors.js';
import type { HandlerContext } from './context.js';

type IngestionRequest = Schemas['IngestionRequest'];
type IngestionDocument = Schemas['IngestionDocument'];
type Section = Schemas['Section'];

/** Fields of IngestionDocument stored in their own columns (the seed keeps the rest in `extra`). */
const DOCUMENT_COLUMNS = new Set([
  'id',
  'semantic_identifier',
  'title',
  'sections',
  'source',
  'metadata',
  'doc_updated_at',
  'chunk_count',
  'primary_owners',
  'secondary_owners',
  'from_ingestion_api',
]);

/** The extra fields deployed servers keep (the others are read and dropped). */
const DEPLOYED_KEPT_EXTRAS = ['doc_created_at', 'file_id'] as const;

function sectionText(section: Section): string | null | undefined {
  return 'text' in section ? section.text : undefined;
}

function firstLink(sections: readonly Section[]): string | null {
  for (const section of sections) {
    if (typeof section.link === 'string' && section.link !== '') return section.link;
  }
  return null;
}

/** Deployed servers skip a document with neither a title nor any text (Python's `strip()`). */
function isEmptyDocument(document: IngestionDocument): boolean {
  const blank = (s: string | null | undefined) => s == null || s.trim() === '';
  return (
    blank(document.title) &&
    blank(document.semantic_identifier) &&
    document.sections.every((s) => blank(sectionText(s)))
  );
}

function extraFields(document: IngestionDocument, behaviour: ProfileBehaviour): JsonObject {
  const extra: JsonObject = {};
  if (behaviour.dropIngestionExtras) {
    for (const key of DEPLOYED_KEPT_EXTRAS) {
      const value = document[key];
      if (value == null) continue;
      extra[key] = key === 'doc_created_at' ? toRfc3339(String(value)) : value;
    }
    return extra;
  }
  for (const [k, v] of Object.entries(document)) if (!DOCUMENT_COLUMNS.has(k)) extra[k] = v;
  return extra;
}

function unknownImageIssues(store: Store, sections: readonly Section[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  sections.forEach((section, i) => {
    const fileId = 'image_file_id' in section ? section.image_file_id : undefined;
    if (typeof fileId === 'string' && !store.files.has(fileId)) {
      issues.push({
        loc: ['body', 'document', 'sections', i, 'image_file_id'],
        msg: `Value error, no uploaded file has file_id '${fileId}'; upload the image first with POST /user/file/upload and use the file_id it returns`,
        type: 'value_error',
        input: fileId,
      });
    }
  });
  return issues;
}

export interface PreparedIngestion {
  doc: DocumentWrite;
  pairId: number;
  /** Not stored: the server skips it and answers as for an existing document. */
  skipped: boolean;
}

/**
 * Turns a validated IngestionRequest into the document to store: the stored id (derived when
 * missing), the pair (`cc_pair_id` missing, null or 0: the default), the default source and
 * `doc_updated_at`, and the profile's checks, in deployed servers' order.
 */
export function prepareIngestion(
  ctx: Pick<HandlerContext, 'store' | 'profile' | 'behaviour'>,
  request: IngestionRequest,
  now: Date,
  fromIngestionApi: boolean,
): PreparedIngestion {
  const { store, profile, behaviour } = ctx;
  const document = request.document;
  let id: string;
  try {
    id = storedDocumentId(document.id, document.semantic_identifier);
  } catch (error) {
    if (error instanceof DocumentIdError) {
      throw new AnswerError(ANSWERS.invalidDocumentId(error.message));
    }
    throw error;
  }
  const pairId = ingestionPairId(request.cc_pair_id);
  if (store.pairs.get(pairId) === undefined) {
    throw new AnswerError(ANSWERS.unknownPair(profile, pairId));
  }
  if (behaviour.checkImageFileIds) {
    const issues = unknownImageIssues(store, document.sections);
    if (issues.length > 0) throw new ValidationFailure(issues);
  }
  const doc: DocumentWrite = {
    id,
    semantic_identifier: document.semantic_identifier,
    title: document.title ?? null,
    source: document.source ?? DEFAULT_DOCUMENT_SOURCE,
    link: firstLink(document.sections),
    sections: document.sections,
    metadata: document.metadata,
    primary_owners: document.primary_owners ?? null,
    secondary_owners: document.secondary_owners ?? null,
    doc_updated_at: pushUpdatedAt(
      document.doc_updated_at == null ? undefined : toRfc3339(document.doc_updated_at),
      now,
    ),
    chunk_count: behaviour.dropIngestionExtras ? null : (document.chunk_count ?? null),
    extra: extraFields(document, behaviour),
    from_ingestion_api: fromIngestionApi,
  };
  return { doc, pairId, skipped: behaviour.skipEmptyDocuments && isEmptyDocument(document) };
}

/**
 * The main line's check before a delete: the caller must be able to edit every pair holding the
 * document; with none left, nobody can, admins included (`ingestion.py:237-299`,
 * `db/connector_credential_pair.py:480-492`).
 */
function checkEditsEveryPair(ctx: HandlerContext, caller: Caller, pairIds: readonly number[]) {
  const refusal = LIFECYCLE_ANSWERS.documentPairsNotEditable(ctx.kind);
  if (refusal === undefined) return;
  const actor = actorOf(ctx, caller, PERMISSIONS.manageConnectors);
  const editable =
    pairIds.length > 0 &&
    pairIds.every((id) => {
      const pair = ctx.store.pairs.get(id);
      return pair !== undefined && mayEditPair(actor, scopedPair(pair));
    });
  if (!editable) throw new AnswerError(refusal);
}

export function ingestionHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'ingestDocument' | 'listIngestedDocuments' | 'deleteIngestedDocument' | 'listConnectorDocuments'
> {
  const { store, profile, behaviour } = ctx;
  return {
    async ingestDocument({ body }) {
      const { doc, pairId, skipped } = prepareIngestion(ctx, body, ctx.now(), true);
      if (ctx.latencyMs > 0) await sleep(ctx.latencyMs);
      if (skipped) return { status: 200, body: { document_id: doc.id, already_existed: true } };
      const fails = ctx.indexFaults.draw(doc.id);
      const result = await store.documents.upsertGrouped(doc, pairId, fails);
      // during a model switch the new index is written too, with no hash gate
      const future = store.futureSettingsId();
      const stored =
        future === undefined || result.failed ? undefined : store.documents.get(doc.id);
      if (future !== undefined && stored !== undefined) ctx.writer.writeInto(future, stored);
      return {
        status: 200,
        body: { document_id: doc.id, already_existed: result.already_existed },
      };
    },

    listIngestedDocuments() {
      return {
        status: 200,
        body: store.documents.listIngested().map((d) => documentListView(d, behaviour)),
      };
    },

    // Checks in servers' order: the document, its ingestion flag, then (main line) edit rights
    // on every pair holding it. It leaves every index and every pair.
    deleteIngestedDocument({ params, rawParams, caller }) {
      const decoded = params.document_id;
      let id = decoded;
      let doc = store.documents.get(decoded);
      const raw = rawParams.document_id;
      if (
        doc === undefined &&
        behaviour.retryRawDocumentId &&
        raw !== undefined &&
        raw !== decoded
      ) {
        // A stored id is percent-encoded; the seed profile accepts it given as-is too.
        doc = store.documents.get(raw);
        id = raw;
      }
      if (doc === undefined) throw new AnswerError(ANSWERS.documentUnknown(profile, decoded));
      if (!doc.from_ingestion_api) {
        throw new AnswerError(ANSWERS.documentNotIngested(profile, id));
      }
      checkEditsEveryPair(ctx, known(caller), doc.cc_pair_ids);
      store.documents.delete(id);
      return { status: 200, body: null };
    },

    listConnectorDocuments({ params }) {
      const pairId = params.cc_pair_id;
      if (store.pairs.get(pairId) === undefined) {
        throw new AnswerError(ANSWERS.pairDocumentsUnknown(profile, pairId));
      }
      return {
        status: 200,
        body: store.documents.listOfPair(pairId).map((d) => documentListView(d, behaviour)),
      };
    },
  };
}
