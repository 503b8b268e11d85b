/**
 * The journal a worker's engine writes to: it proves nothing unchanged (the run's state skips
 * what is stored) and keeps each acknowledgement until the job that sent the document takes it,
 * to record it for a sync's journal (`takeAcknowledgements`) or drop it.
 */
import type { IngestJournal, JournalEntry } from '@kis/client';

export class AckCapture implements IngestJournal {
  private readonly entries = new Map<string, JournalEntry>();

  has(): boolean {
    return false;
  }

  record(entry: JournalEntry): void {
    this.entries.set(entry.id, entry);
  }

  /** The acknowledgement of a stored document, forgotten here. */
  take(documentId: string | null): JournalEntry | undefined {
    if (documentId === null) return undefined;
    const entry = this.entries.get(documentId);
    this.entries.delete(documentId);
    return entry;
  }
}
