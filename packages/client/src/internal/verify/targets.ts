/**
 * What a verification checks, one document at a time: from the pair's listing (its id and
 * title), or from a source (a document, an `ingestMany` item read when its text is needed, or an
 * item with only an id, as a journal gives it). Nothing is read before a check needs it.
 */
import { normalizeDocumentId } from '@kis/rules';
import type { IngestInput, IngestTools } from '../../ingest.js';
import type { IngestedDocumentSummary, IngestionDocumentInput } from '../../types.js';
import type { EngineParts } from './parts.js';

/** A document as a check reads it. */
export interface ReadDocument {
  documentId: string;
  title: string | undefined;
  /** Its text sections' text, joined (undefined: none). */
  text: string | undefined;
}

export interface Target {
  ref: string | undefined;
  /** The stored id, when known without reading the item. */
  documentId: string | undefined;
  title: string | undefined;
  /** Reads the document (a file's extraction); undefined when there is nothing to read. */
  read: (() => Promise<ReadDocument>) | undefined;
  /** The item, for a repair; undefined for the pair's own listing. */
  item: IngestInput | undefined;
  /** The item names another pair than the one verified. */
  otherPair: boolean;
}

/** Reads sent to `load` in a verification: nothing is uploaded (an image keeps a placeholder). */
const TOOLS: IngestTools = {
  imageFileId: async () => 'kis-verify-no-upload',
  signal: new AbortController().signal,
};

function textOf(document: IngestionDocumentInput): string | undefined {
  const parts: string[] = [];
  for (const section of document.sections ?? []) {
    const text = (section as { text?: unknown }).text;
    if (typeof text === 'string' && text !== '') parts.push(text);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function readDocument(
  parts: EngineParts,
  document: IngestionDocumentInput,
  ccPairId: number,
): ReadDocument {
  return {
    documentId: parts.prepareIngestion(document, ccPairId, false).documentId,
    title: document.title ?? document.semantic_identifier,
    text: textOf(document),
  };
}

/** A document of the pair's listing. */
export function listedTarget(entry: IngestedDocumentSummary): Target {
  return {
    ref: undefined,
    documentId: entry.document_id,
    title: entry.semantic_id,
    read: undefined,
    item: undefined,
    otherPair: false,
  };
}

/** An item of a source, checked against pair `ccPairId`. */
export function sourceTarget(parts: EngineParts, input: IngestInput, ccPairId: number): Target {
  const { isItem } = parts;
  const base = { item: input, title: undefined };
  if (
    !isItem(input) &&
    typeof input === 'object' &&
    input !== null &&
    !('semantic_identifier' in input)
  ) {
    // an item with only an id (a journal's)
    const { id, ref } = input as { id?: unknown; ref?: unknown };
    return {
      ...base,
      ref: typeof ref === 'string' ? ref : undefined,
      documentId: typeof id === 'string' && id !== '' ? normalizeDocumentId(id) : undefined,
      read: undefined,
      otherPair: false,
    };
  }
  if (!isItem(input)) {
    const document = input;
    return {
      ...base,
      ref: undefined,
      documentId: undefined,
      read: async () => readDocument(parts, document, ccPairId),
      otherPair: false,
    };
  }
  // a file item's `load` is a method of its object: called on the item
  const { document, load } = input;
  const id =
    typeof input.id === 'string' && input.id !== '' ? normalizeDocumentId(input.id) : undefined;
  const pair = input.ccPairId;
  return {
    ...base,
    ref: input.ref,
    documentId: id,
    read:
      document !== undefined
        ? async () => readDocument(parts, document, ccPairId)
        : load !== undefined
          ? async () => readDocument(parts, await load.call(input, TOOLS), ccPairId)
          : undefined,
    otherPair: pair !== undefined && pair !== null && pair !== ccPairId,
  };
}

/** An item whose id the rule book refuses: its check reports it unreadable. */
export function unreadableTarget(input: IngestInput, error: unknown): Target {
  const ref = (input as { ref?: unknown }).ref;
  return {
    ref: typeof ref === 'string' ? ref : undefined,
    documentId: undefined,
    title: undefined,
    read: () => Promise.reject(error),
    item: input,
    otherPair: false,
  };
}
