/**
 * Request bodies whose `source` may be a value the spec does not list. The spec's
 * `DocumentSource` is a closed enumeration, but servers newer than the spec accept values it
 * lacks, so the client sends such a value as given.
 */
import type {
  IngestionDocument,
  IngestionRequest,
  IngestionRequestInput,
  KnownOrNewSource,
} from '../types.js';

/** `body` as the spec's body type `Spec`, its `source` possibly a value the spec does not list. */
export function sentAsGiven<Spec extends { source?: unknown }>(
  body: Omit<Spec, 'source'> & { source?: KnownOrNewSource | null | undefined },
): Spec {
  return body as Spec;
}

/** An ingestion body as the spec's `IngestionRequest`, its document's `source` possibly new. */
export function ingestionAsGiven(body: IngestionRequestInput): IngestionRequest {
  return { ...body, document: sentAsGiven<IngestionDocument>(body.document) };
}
