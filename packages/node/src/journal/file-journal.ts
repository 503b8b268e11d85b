/**
 * The JSONL file journal for `ingestMany` and `sync` (README, "Journal").
 *
 * Format: a header line `{"kis":"ingest-journal","v":1}`, then one line per acknowledged document:
 * `{"id":"…","hash":"…","status":"created","ccPairId":3,"at":"2024-…Z"}` (with `"fp":"…"` when
 * the item had a fingerprint, and `"upd":"…"`, the `doc_updated_at` the run sent for a document
 * that had none, reused when the same content goes again), and one per image uploaded for a document:
 * `{"upload":"<sha256>","fileId":"…","name":"a.png"}`, and a source's state for its next run (an SQL
 * source's cursor, a git source's last commit): `{"state":"<key>","value":{…},"at":"…"}`.
 * Append-only; the last line for an id (or a state's key) wins.
 * Each acknowledgement is appended with one `write` to a file opened with O_APPEND before the
 * document counts as done, so a process killed at any moment (SIGKILL) keeps every acknowledgement
 * it counted; `fsync: true` also survives power loss. A torn last line (power loss mid-write) is
 * cut off on open. The journal holds no secret.
 *
 * In memory it keeps 24 bytes per document the file held when it was opened (ack-index.ts), read
 * in chunks: a journal of millions of documents opens in seconds without holding its text. What
 * this process acknowledges goes to the file only, so a run's memory does not grow with its
 * documents (`has` answers false for them: at worst a document is sent again, an upsert);
 * `refresh()` takes in what was written since (`sync` calls it before planning, e.g. between
 * `--watch` passes). Uploads, one per distinct image, are kept.
 */
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import type { IngestJournal, JournalEntry, JournalStamp, UploadEntry } from '@kis/client';
import type { SourceState, SourceStateStore } from '../sources/source-state.js';
import { AckIndex } from './ack-index.js';
import { eachLine } from './line-reader.js';
import { JOURNAL_HEADER, type JournalLine, readJournalLine } from './lines.js';

export interface FileJournalOptions {
  /** fsync after every acknowledgement (survives power loss; slower). Default false. */
  fsync?: boolean | undefined;
}

export class FileJournal implements IngestJournal, SourceStateStore {
  readonly path: string;
  private fd: number | undefined;
  private readonly acked = new AckIndex();
  private readonly uploads = new Map<string, string>();
  /** Each source's last state, by key: a handful of small records. */
  private readonly states = new Map<string, unknown>();
  private readonly fsync: boolean;
  /** True when a torn last line was cut off on open. */
  readonly repaired: boolean;
  /** Where the lines taken into memory end, and how many there were (for error messages). */
  private indexedTo = 0;
  private lines = 0;

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

  /** Reads the existing lines; returns true when a torn tail was cut off. */
  private load(fd: number): boolean {
    if (fstatSync(fd).size === 0) {
      this.append(fd, `${JSON.stringify(JOURNAL_HEADER)}\n`);
      this.indexedTo = fstatSync(fd).size;
      this.lines = 1;
      return false;
    }
    const { complete, torn } = this.readFrom(fd, 0);
    if (this.lines === 0) {
      // only a torn header was ever written (a crash at creation): start over
      if (!isTornHeader(fd, complete, torn)) readJournalLine('', 1, this.path);
      ftruncateSync(fd, 0);
      this.append(fd, `${JSON.stringify(JOURNAL_HEADER)}\n`);
      this.indexedTo = fstatSync(fd).size;
      this.lines = 1;
      return true;
    }
    if (torn) ftruncateSync(fd, complete);
    return torn;
  }

  /** Takes the complete lines from `position` into memory. */
  private readFrom(fd: number, position: number): { complete: number; torn: boolean } {
    const read = eachLine(
      (buffer, at) => readSync(fd, buffer, 0, buffer.length, at),
      (line) => {
        this.lines++;
        this.apply(readJournalLine(line, this.lines, this.path));
      },
      position,
    );
    this.indexedTo = read.complete;
    return read;
  }

  /**
   * Takes in the acknowledgements and uploads written to the file since it was opened (or last
   * refreshed), by this process or another: `has`, `hasFingerprint` and `uploadOf` then know them.
   */
  refresh(): void {
    this.readFrom(this.openFd(), this.indexedTo);
  }

  private apply(line: JournalLine): void {
    if (line.kind === 'ack') this.acked.set(line.id, line.hash, line.fingerprint, line.updatedAt);
    else if (line.kind === 'upload') this.uploads.set(line.sha256, line.fileId);
    else if (line.kind === 'state') this.states.set(line.key, line.value);
  }

  private append(fd: number, line: string): void {
    const buf = Buffer.from(line, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (this.fsync) fsyncSync(fd);
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`journal ${this.path} is closed`);
    return this.fd;
  }

  /** Number of documents whose acknowledgements are in memory (see `refresh`). */
  get size(): number {
    return this.acked.size;
  }

  /** Bytes its acknowledgements take in memory (about 30 a document the file held at open). */
  get memoryBytes(): number {
    return this.acked.bytes;
  }

  has(id: string, hash: string): boolean {
    return this.acked.has(id, hash);
  }

  hasFingerprint(id: string, fingerprint: string): boolean {
    return this.acked.hasFingerprint(id, fingerprint);
  }

  /** The stamp recorded with `id`'s last acknowledgement read into memory (see `refresh`). */
  stampOf(id: string, hash: string): JournalStamp | undefined {
    return this.acked.stampOf(id, hash);
  }

  record(entry: JournalEntry): void {
    const line = JSON.stringify({
      id: entry.id,
      hash: entry.hash,
      status: entry.status,
      ccPairId: entry.ccPairId,
      at: entry.at,
      ...(entry.fingerprint === undefined ? {} : { fp: entry.fingerprint }),
      ...(entry.updatedAt === undefined ? {} : { upd: entry.updatedAt }),
    });
    this.append(this.openFd(), `${line}\n`);
  }

  uploadOf(sha256: string): string | undefined {
    return this.uploads.get(sha256);
  }

  recordUpload(entry: UploadEntry): void {
    const line = JSON.stringify({ upload: entry.sha256, fileId: entry.fileId, name: entry.name });
    this.append(this.openFd(), `${line}\n`);
    // kept: a plan and its run share an image's upload, and a run uploads a content once
    this.uploads.set(entry.sha256, entry.fileId);
  }

  /** The state a source last recorded under `key` (what was written since open needs `refresh`). */
  stateOf(key: string): unknown {
    return this.states.get(key);
  }

  /** Records a source's state for its next run; the file holds no secret, nor does the state. */
  recordState(key: string, value: SourceState): void {
    const line = JSON.stringify({ state: key, value, at: new Date().toISOString() });
    this.append(this.openFd(), `${line}\n`);
    this.states.set(key, value);
  }

  close(): void {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/** True when the file holds nothing but the beginning of a journal header. */
function isTornHeader(fd: number, complete: number, torn: boolean): boolean {
  const header = JSON.stringify(JOURNAL_HEADER);
  const size = fstatSync(fd).size;
  if (!torn || complete !== 0 || size >= header.length) return false;
  const start = Buffer.alloc(size);
  readSync(fd, start, 0, size, 0);
  return header.startsWith(start.toString('utf8'));
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
