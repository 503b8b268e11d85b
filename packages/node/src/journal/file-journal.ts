/**
 * The JSONL file journal for `ingestMany` (Node only).
 *
 * Format: a header line `{"kis":"ingest-journal","v":1}`, then one line per acknowledged document:
 * `{"id":"…","hash":"…","status":"created","ccPairId":3,"at":"2024-…Z"}` (with `"fp":"…"` when
 * the item had a fingerprint), and one per image
 * uploaded for a document: `{"upload":"<sha256>","fileId":"…","name":"a.png"}`. Append-only; the
 * last line for an id wins. Each acknowledgement is appended with one `write` to a file opened with
 * O_APPEND before the document counts as done, so a process killed at any moment (SIGKILL)
 * keeps every acknowledgement it counted; `fsync: true` also survives power loss. A torn last
 * line (power loss mid-write) is dropped on open. The journal holds no secret.
 */

import { isAscii } from 'node:buffer';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import type { IngestJournal, JournalEntry, UploadEntry } from '../journal.js';

const HEADER = { kis: 'ingest-journal', v: 1 } as const;

/**
 * An acknowledgement as `record` writes it, with no escape in its strings. Such a line is kept as
 * it is, its fields read from it when asked (see `Acknowledgement`): a sync of 10,000 files loads
 * 10,000 lines, and an object or a match per line took most of the journal's loading time. Any
 * other line is parsed as JSON.
 */
const RECORD =
  /^\{"id":"[^"\\]*","hash":"[^"\\]*","status":"[a-z]+",(?:"ccPairId":(?:\d+|null),)?"at":"[^"\\]*"(?:,"fp":"[^"\\]*")?\}$/;
/** Where the id of a `RECORD` line starts, and its hash: after the id and `","hash":"`. */
const ID_AT = '{"id":"'.length;
const HASH_AFTER_ID = ID_AT + '","hash":"'.length;
const FP_FIELD = ',"fp":"';

/**
 * An id's last acknowledgement: a `RECORD` line (no quote can occur in its fields, so the first
 * quote after the hash ends it and a fingerprint is the last field), or its fields.
 */
type Acknowledgement = string | { hash: string; fp: string | undefined };

export interface FileJournalOptions {
  /** fsync after every acknowledgement (survives power loss; slower). Default false. */
  fsync?: boolean | undefined;
}

export class FileJournal implements IngestJournal {
  readonly path: string;
  private fd: number | undefined;
  private readonly acked = new Map<string, Acknowledgement>();
  private readonly uploads = new Map<string, string>();
  private readonly fsync: boolean;
  /** Lines dropped on open because the last one was torn. */
  readonly repaired: boolean;

  constructor(path: string, options: FileJournalOptions = {}) {
    this.path = path;
    this.fsync = options.fsync === true;
    const fd = openSync(path, 'a+');
    try {
      this.repaired = this.load(fd);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.fd = fd;
  }

  /** Read existing lines; returns true when a torn tail was cut off. */
  private load(fd: number): boolean {
    const size = fstatSync(fd).size;
    if (size === 0) {
      this.append(fd, `${JSON.stringify(HEADER)}\n`);
      return false;
    }
    // most journals are ASCII (ids are percent-encoded paths), read faster as Latin-1
    const bytes = readFileSync(fd);
    const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    const lastNewline = text.lastIndexOf('\n');
    const complete = text.slice(0, lastNewline + 1);
    const torn = lastNewline + 1 < text.length;
    const lines = complete.split('\n');
    const first = lines[0] ?? '';
    let header: unknown;
    try {
      header = JSON.parse(first);
    } catch {
      header = undefined;
    }
    if (
      typeof header !== 'object' ||
      header === null ||
      (header as { kis?: unknown }).kis !== HEADER.kis
    ) {
      if (lastNewline === -1 && torn) {
        // only a torn header was ever written: start over
        ftruncateSync(fd, 0);
        this.append(fd, `${JSON.stringify(HEADER)}\n`);
        return true;
      }
      throw new Error(
        `${this.path} is not a kis ingest journal (its first line is not ${JSON.stringify(HEADER)}); refusing to append to it`,
      );
    }
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      if (RECORD.test(line)) {
        this.acked.set(line.slice(ID_AT, line.indexOf('"', ID_AT)), line);
        continue;
      }
      let entry: Partial<JournalEntry> & { upload?: unknown; fileId?: unknown };
      try {
        entry = JSON.parse(line) as Partial<JournalEntry>;
      } catch {
        throw new Error(
          `${this.path}:${i + 1}: not valid JSON; the journal is damaged (remove that line to go on)`,
        );
      }
      if (typeof entry.id === 'string' && typeof entry.hash === 'string') {
        const fp = (entry as { fp?: unknown }).fp;
        this.acked.set(entry.id, { hash: entry.hash, fp: typeof fp === 'string' ? fp : undefined });
      } else if (typeof entry.upload === 'string' && typeof entry.fileId === 'string')
        this.uploads.set(entry.upload, entry.fileId);
    }
    if (torn) ftruncateSync(fd, Buffer.byteLength(complete, 'utf8'));
    return torn;
  }

  private append(fd: number, line: string): void {
    const buf = Buffer.from(line, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (this.fsync) fsyncSync(fd);
  }

  /** Number of documents acknowledged in the journal. */
  get size(): number {
    return this.acked.size;
  }

  has(id: string, hash: string): boolean {
    return this.hashOf(id) === hash;
  }

  /** Hash recorded for `id`, if any. */
  hashOf(id: string): string | undefined {
    const ack = this.acked.get(id);
    if (typeof ack !== 'string') return ack?.hash;
    const from = id.length + HASH_AFTER_ID;
    return ack.slice(from, ack.indexOf('"', from));
  }

  record(entry: JournalEntry): void {
    if (this.fd === undefined) throw new Error(`journal ${this.path} is closed`);
    const line = JSON.stringify({
      id: entry.id,
      hash: entry.hash,
      status: entry.status,
      ccPairId: entry.ccPairId,
      at: entry.at,
      ...(entry.fingerprint === undefined ? {} : { fp: entry.fingerprint }),
    });
    this.append(this.fd, `${line}\n`);
    this.acked.set(entry.id, { hash: entry.hash, fp: entry.fingerprint });
  }

  fingerprintOf(id: string): string | undefined {
    const ack = this.acked.get(id);
    if (typeof ack !== 'string') return ack?.fp;
    const at = ack.lastIndexOf(FP_FIELD);
    return at === -1 ? undefined : ack.slice(at + FP_FIELD.length, -2);
  }

  uploadOf(sha256: string): string | undefined {
    return this.uploads.get(sha256);
  }

  recordUpload(entry: UploadEntry): void {
    if (this.fd === undefined) throw new Error(`journal ${this.path} is closed`);
    const line = JSON.stringify({ upload: entry.sha256, fileId: entry.fileId, name: entry.name });
    this.append(this.fd, `${line}\n`);
    this.uploads.set(entry.sha256, entry.fileId);
  }

  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/**
 * Open (or create) a journal file. Existing acknowledgements are loaded; a torn last line is cut
 * off. Throws when the file exists but is not a kis journal.
 */
export function openJournal(path: string, options?: FileJournalOptions): FileJournal {
  if (typeof path !== 'string' || path === '')
    throw new TypeError('openJournal: path must be a non-empty string');
  return new FileJournal(path, options);
}
