/** The lines of a journal file, as written by `FileJournal` (or by hand, keys in any order). */

export const JOURNAL_HEADER = { kis: 'ingest-journal', v: 1 } as const;

export type JournalLine =
  | { kind: 'header' }
  | {
      kind: 'ack';
      id: string;
      hash: string;
      fingerprint: string | undefined;
      updatedAt: string | undefined;
      /** The pair it was sent to: null for the server's default, undefined when not written. */
      ccPairId: number | null | undefined;
    }
  | { kind: 'upload'; sha256: string; fileId: string }
  | { kind: 'state'; key: string; value: unknown }
  | { kind: 'blank' };

/**
 * An acknowledgement as `record` writes it, with no escape in its strings: its fields are sliced
 * out, which for a journal of millions of lines is much cheaper than parsing each as JSON.
 */
const RECORD =
  /^\{"id":"([^"\\]*)","hash":"([^"\\]*)","status":"[a-z]+",(?:"ccPairId":(\d+|null),)?"at":"[^"\\]*"(?:,"fp":"([^"\\]*)")?(?:,"upd":"([^"\\]*)")?\}$/;

/** Line `number` (1-based) of journal `path`, read; throws naming the line when it is damaged. */
export function readJournalLine(line: string, number: number, path: string): JournalLine {
  if (number === 1) {
    if (!isHeader(line)) {
      throw new Error(
        `${path} is not a kis ingest journal (its first line is not ${JSON.stringify(JOURNAL_HEADER)}); refusing to append to it`,
      );
    }
    return { kind: 'header' };
  }
  if (line === '') return { kind: 'blank' };
  const record = RECORD.exec(line);
  if (record) {
    const pair = record[3];
    return {
      kind: 'ack',
      id: record[1] ?? '',
      hash: record[2] ?? '',
      fingerprint: record[4],
      updatedAt: record[5],
      ccPairId: pair === undefined ? undefined : pair === 'null' ? null : Number(pair),
    };
  }
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(
      `${path}:${number}: not valid JSON; the journal is damaged (remove that line to go on)`,
    );
  }
  if (typeof entry.id === 'string' && typeof entry.hash === 'string') {
    const { fp, upd, ccPairId } = entry;
    return {
      kind: 'ack',
      id: entry.id,
      hash: entry.hash,
      fingerprint: typeof fp === 'string' ? fp : undefined,
      updatedAt: typeof upd === 'string' ? upd : undefined,
      ccPairId: typeof ccPairId === 'number' || ccPairId === null ? ccPairId : undefined,
    };
  }
  if (typeof entry.upload === 'string' && typeof entry.fileId === 'string') {
    return { kind: 'upload', sha256: entry.upload, fileId: entry.fileId };
  }
  if (typeof entry.state === 'string' && 'value' in entry) {
    return { kind: 'state', key: entry.state, value: entry.value };
  }
  return { kind: 'blank' };
}

function isHeader(line: string): boolean {
  try {
    const header = JSON.parse(line) as { kis?: unknown };
    return typeof header === 'object' && header !== null && header.kis === JOURNAL_HEADER.kis;
  } catch {
    return false;
  }
}
