/** The journal a `kis sync` keeps, local and queued alike: `--journal FILE`, else the pair's. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { journalFor } from '../../pair-journal.js';
import { type Journal, openRunJournal } from '../../run-setup.js';
import type { SyncCommandOptions } from './options.js';

/** Opens the sync's journal; a dry run reads one that exists and creates none. */
export async function openSyncJournal(
  cwd: string,
  options: SyncCommandOptions,
  baseUrl: string | undefined,
): Promise<{ journal: Journal; path: string } | undefined> {
  const choice = journalFor({ journal: options.journal, ccPair: options.ccPair, baseUrl });
  if (options.dryRun && choice && !existsSync(resolve(cwd, choice.file))) return undefined;
  return openRunJournal(choice, cwd);
}
