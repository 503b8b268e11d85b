/**
 * A document made ready to send: validated (optionally) and with its id fixed before the first
 * attempt (the caller's id, else the raw form of the id the server would derive), so every
 * attempt and every re-run is an upsert of the same document.
 */
import { deriveDocumentId, normalizeDocumentId, rawDerivedId } from '@kis/rules';
import { DocumentValidationError } from '../../errors.js';
import type { LevelLogger } from '../../logging.js';
import type { IngestionDocumentInput, IngestionRequestInput } from '../../types.js';
import { assertIngestionRequest } from '../validate.js';

/** A request body ready to send, with the id the server will store it under. */
export interface PreparedIngestion {
  body: IngestionRequestInput;
  documentId: string;
}

export function prepareIngestion(
  document: IngestionDocumentInput,
  ccPairId: number | null | undefined,
  validate: boolean,
  context: { label?: string | undefined; log?: LevelLogger | undefined } = {},
): PreparedIngestion {
  const withPair = (d: IngestionDocumentInput): IngestionRequestInput =>
    ccPairId === null || ccPairId === undefined
      ? { document: d }
      : { document: d, cc_pair_id: ccPairId };
  const { log } = context;
  const note = log?.enabled('debug')
    ? (source: string) =>
        log.log('debug', `source "${source}" is not a value this client knows; sending it as given`)
    : undefined;
  if (validate) assertIngestionRequest(withPair(document), context.label, note);
  else if (typeof document !== 'object' || document === null) {
    throw new DocumentValidationError(
      `Invalid ingestion request${context.label ? ` (${context.label})` : ''}: document: must be object`,
      [{ path: 'document', message: 'must be object', keyword: 'type' }],
    );
  }
  if (typeof document.id === 'string' && document.id !== '') {
    return { body: withPair(document), documentId: normalizeDocumentId(document.id) };
  }
  const si = document.semantic_identifier;
  return {
    body: withPair({ ...document, id: rawDerivedId(si) }),
    documentId: deriveDocumentId(si),
  };
}
