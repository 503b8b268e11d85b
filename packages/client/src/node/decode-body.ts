/**
 * Answer bodies with their content codings undone (gzip, deflate, br), as fetch decodes them:
 * codings are undone last applied first, a body cut short is decoded as far as it goes, and a
 * coding fetch does not know leaves the body as it came.
 */
import {
  brotliDecompressSync,
  constants,
  gunzipSync,
  inflateRawSync,
  inflateSync,
  type ZlibOptions,
} from 'node:zlib';

const ZLIB: ZlibOptions = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

const DECODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => gunzipSync(b, ZLIB),
  'x-gzip': (b) => gunzipSync(b, ZLIB),
  br: (b) => brotliDecompressSync(b, BROTLI),
  deflate: (b) => {
    // fetch accepts zlib-wrapped and raw deflate alike
    try {
      return inflateSync(b, ZLIB);
    } catch {
      return inflateRawSync(b, ZLIB);
    }
  },
};

/** The body's bytes as an answer's body (its own buffer), decoded by `coding` when given. */
export function decodeBody(
  coding: string | undefined,
  raw: Buffer,
): Uint8Array<ArrayBuffer> | null {
  if (raw.length === 0) return null;
  let out = raw;
  if (coding) {
    const steps = coding
      .toLowerCase()
      .split(',')
      .map((c) => c.trim())
      .reverse();
    if (steps.every((c) => DECODERS[c] !== undefined)) {
      for (const c of steps) out = (DECODERS[c] as (b: Buffer) => Buffer)(out);
    }
  }
  // a Buffer may be a slice of a shared pool: the answer gets bytes of its own
  return new Uint8Array(out);
}
