/**
 * Which journal a run of `kis ingest` or `kis sync` keeps. By default both keep the same one per
 * server and cc pair, which both read and write: a sync after an ingest of the same files proves
 * them unchanged from it and sends nothing, and an ingest after a sync skips what the sync stored.
 */
import { stateFile } from './state-files.js';

/** The journal a run keeps. */
export interface JournalChoice {
  /** Its path, relative to the current directory (or absolute). */
  file: string;
  /** True for the pair's own journal, false for one `--journal FILE` named. */
  isDefault: boolean;
}

/** What decides the journal: `--journal FILE` (false for `--no-journal`), the pair, the server. */
export interface JournalFlags {
  journal?: string | false | undefined;
  ccPair?: number | undefined;
  baseUrl: string | undefined;
}

/**
 * `--journal FILE`; else the pair's journal ({@link pairJournalFile}); none with `--no-journal`,
 * or without a server or a pair (a dry run). `kis ingest` without `--cc-pair` gives pair 1, the
 * server's default ingestion pair, so its journal is the one `kis sync --cc-pair 1` keeps.
 */
export function journalFor(flags: JournalFlags): JournalChoice | undefined {
  if (typeof flags.journal === 'string') return { file: flags.journal, isDefault: false };
  if (flags.journal === false || flags.ccPair === undefined || flags.baseUrl === undefined) {
    return undefined;
  }
  return { file: pairJournalFile(flags.baseUrl, flags.ccPair), isDefault: true };
}

/** `.kis/sync/<base URL>-pair-<id>.jsonl`: a pair's journal, where `kis sync` always kept it. */
export function pairJournalFile(baseUrl: string, ccPair: number): string {
  return stateFile('sync', baseUrl, `-pair-${ccPair}.jsonl`);
}
