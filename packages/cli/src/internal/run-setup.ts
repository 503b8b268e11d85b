/** What a run of `kis ingest` or `kis sync` opens before it starts: the client and the journal. */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { KisClient } from '@kis/client';
import { type FileJournal, fsReason, openJournal } from '@kis/node';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import type { JournalChoice } from './pair-journal.js';

/** The run's journal: acknowledgements, and the cursor or commit of a database or repository. */
export type Journal = FileJournal;

/** The client: the configured one, or for a dry run (which sends nothing) one without a server. */
export async function connect(
  ctx: Context,
  dryRun: boolean,
): Promise<{ client: KisClient; baseUrl: string | undefined }> {
  if (dryRun) return { client: await ctx.offlineClient(), baseUrl: undefined };
  const { baseUrl } = await ctx.connection();
  return { client: await ctx.client(), baseUrl };
}

/** Opens the run's journal (creating its directory); usage error when it cannot be used. */
export async function openRunJournal(
  choice: JournalChoice | undefined,
  cwd: string,
): Promise<{ journal: Journal; path: string } | undefined> {
  if (choice === undefined) return undefined;
  const { file } = choice;
  const path = resolve(cwd, file);
  try {
    await mkdir(dirname(path), { recursive: true });
    return { journal: openJournal(path, { fsync: false }), path };
  } catch (error) {
    throw new UsageError(
      choice.isDefault
        ? `cannot keep the pair's journal in "${file}": ${fsReason(error)}; give --journal FILE to keep it elsewhere`
        : `--journal: cannot use "${file}": ${fsReason(error)}`,
    );
  }
}
