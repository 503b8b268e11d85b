/**
 * Request bodies as undici sends them: strings and bytes as they are; forms, blobs and URL-encoded
 * parameters exactly as `fetch` encodes them (a standard Response does the encoding), each with
 * the content type fetch would give it.
 */
import type { SentBody } from '../internal/http.js';

export interface EncodedBody {
  data: string | Uint8Array<ArrayBuffer> | null;
  /** The content type `fetch` would give the body, if any. */
  type?: string | undefined;
}

/** A string or bytes as they are (undefined for a body that needs encoding: see `encodeBody`). */
export function plainBody(body: SentBody | null): EncodedBody | undefined {
  if (body === null) return { data: null };
  if (typeof body === 'string') return { data: body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { data: body };
  return undefined;
}

/** A form, blob or URL-encoded parameters as fetch encodes them. */
export async function encodeBody(body: Blob | FormData | URLSearchParams): Promise<EncodedBody> {
  const encoded = new Response(body);
  return {
    data: new Uint8Array(await encoded.arrayBuffer()),
    type: encoded.headers.get('content-type') ?? undefined,
  };
}
