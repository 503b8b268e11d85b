/**
 * Resume support for bulk ingestion. A journal remembers which documents the server acknowledged
 * (HTTP 200) with which content; a re-run skips those with the same content hash and re-sends the
 * rest. The client only defines the interface (browser-safe); `@kis/node` has the JSONL file
 * implementation (`openJournal(path)`).
 */

/** One acknowledged document. Holds no secret: id, content hash, outcome and time only. */
export interface JournalEntry {
  /** Document id as the server stores it (see `deriveDocumentId`). */
  id: string;
  /** `contentHash` of the request body that was acknowledged. */
  hash: string;
  /** What the server did. */
  status: 'created' | 'updated';
  /** The `cc_pair_id` the document was sent with (null for the server default). */
  ccPairId: number | null;
  /** ISO timestamp of the acknowledgement. */
  at: string;
  /** The item's `fingerprint` (e.g. a file's size and mtime), when it had one. */
  fingerprint?: string | undefined;
  /**
   * The `doc_updated_at` the run sent for a document that had none (whole seconds): sent again
   * with the same content, so the server's hash gate skips it (see `stampOf`).
   */
  updatedAt?: string | undefined;
}

/** The `doc_updated_at` a run sent with an id's last acknowledgement, for a document with none. */
export interface JournalStamp {
  updatedAt: string;
  /** True when that acknowledgement was of the content hash asked about. */
  sameContent: boolean;
}

/** One image uploaded for a run's documents: its content's SHA-256 and the server's file id. */
export interface UploadEntry {
  sha256: string;
  fileId: string;
  /** File name at upload, for people reading the journal. */
  name: string;
}

/** Storage of acknowledgements; implement it to keep the journal elsewhere (a DB, KV store...). */
export interface IngestJournal {
  /** True when `id` was acknowledged with exactly this content hash. */
  has(id: string, hash: string): boolean | Promise<boolean>;
  /**
   * Store an acknowledgement durably. `ingestMany` counts a document done only after this
   * returns (or its promise resolves), so a crash can never lose an acknowledged document.
   */
  record(entry: JournalEntry): void | Promise<void>;
  /**
   * Optional: the file id an image with this content was uploaded as. With it (and
   * `recordUpload`), a resumed run reuses uploads instead of uploading again, so its documents'
   * bodies (and content hashes) match the first run's.
   */
  uploadOf?(sha256: string): string | undefined | Promise<string | undefined>;
  /** Optional: store an upload durably (see `uploadOf`). */
  recordUpload?(entry: UploadEntry): void | Promise<void>;
  /**
   * Optional: whether `id`'s last acknowledgement was recorded with this fingerprint. With it (or
   * `fingerprintOf`), `sync` counts an item whose `fingerprint` matches as unchanged without
   * building its document.
   */
  hasFingerprint?(id: string, fingerprint: string): boolean | Promise<boolean>;
  /** Optional: the fingerprint recorded with `id`'s last acknowledgement (see `hasFingerprint`). */
  fingerprintOf?(id: string): string | undefined | Promise<string | undefined>;
  /**
   * Optional: the `doc_updated_at` recorded with `id`'s last acknowledgement (`updatedAt`), and
   * whether that was of content `hash`. With it, a document sent without a time goes again with
   * the time its content was first acknowledged, which servers skip as unchanged, and with a
   * later one when its content changed (README, "doc_updated_at").
   */
  stampOf?(id: string, hash: string): JournalStamp | undefined | Promise<JournalStamp | undefined>;
}

/**
 * What a journal records as an item's fingerprint: the item's own (`IngestItem.fingerprint`)
 * and the pair it was sent to, so a journal shared by pairs never takes one pair's
 * acknowledgement for another's. `ingestMany` records it; `sync` compares with it.
 */
export function pairFingerprint(fingerprint: string, ccPairId: number | null): string {
  return `${fingerprint}@${ccPairId ?? 'default'}`;
}

/** Whether an id's last acknowledgement carries a fingerprint, answered at once or later. */
export type FingerprintMatcher = (
  id: string,
  fingerprint: string,
) => boolean | PromiseLike<boolean>;

/**
 * The journal's fingerprint check: `hasFingerprint`, else a comparison with `fingerprintOf`;
 * undefined for a journal with neither.
 */
export function fingerprintMatcher(
  journal: IngestJournal | undefined,
): FingerprintMatcher | undefined {
  if (journal?.hasFingerprint) return journal.hasFingerprint.bind(journal);
  const fingerprintOf = journal?.fingerprintOf?.bind(journal);
  if (fingerprintOf === undefined) return undefined;
  return (id, fingerprint) => {
    const recorded = fingerprintOf(id);
    return typeof recorded === 'string' || recorded === undefined
      ? recorded === fingerprint
      : recorded.then((r) => r === fingerprint);
  };
}

/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` members dropped (like
 * `JSON.stringify`). Two bodies with the same content always give the same text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const s = JSON.stringify(value);
    return s === undefined ? 'null' : s;
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : canonicalJson(v))).join(',')}]`;
  }
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === 'function') return canonicalJson(toJSON.call(value));
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(k)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** SHA-256 (hex) of a text's UTF-8 bytes: Web Crypto's (asynchronous), or Node's (at once). */
export type Sha256 = (text: string) => string | Promise<string>;

/** SHA-256 with Web Crypto, in browsers and Node alike. */
export const webSha256: Sha256 = (text) => sha256Hex(new TextEncoder().encode(text));

/**
 * SHA-256 (hex) of the canonical JSON of an ingestion request body (document and `cc_pair_id`):
 * the content hash a journal records. `sha256` defaults to Web Crypto; under Node the client's
 * bulk runs use node:crypto, which answers at once and allocates a fraction of the memory.
 */
export async function contentHash(
  requestBody: unknown,
  sha256: Sha256 = webSha256,
): Promise<string> {
  return sha256(canonicalJson(requestBody));
}

/** SHA-256 (hex) of bytes, with Web Crypto (browsers and Node alike). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('hashing needs Web Crypto (globalThis.crypto.subtle)');
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as BufferSource));
  let out = '';
  for (const b of digest) out += HEX[b];
  return out;
}
