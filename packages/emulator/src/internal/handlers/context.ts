import type { Edition, IndexBackend, Profile, ServerKind } from '@kis/rules';
import type { IndexFaults } from '../index-faults.js';
import type { IndexWriter } from '../index-writer.js';
import type { ProfileBehaviour } from '../profile.js';
import type { Store } from '../store/index.js';
import type { PairTasks } from '../tasks/pair-tasks.js';
import type { Visibility } from '../visibility.js';

/** What every handler may use. */
export interface HandlerContext {
  store: Store;
  profile: Profile;
  /** The kind of server played: `seed`, or the deployed line (`main`, or release `v4.6.1`). */
  kind: ServerKind;
  behaviour: ProfileBehaviour;
  /** Added service time per ingestion request, in milliseconds. */
  latencyMs: number;
  now: () => Date;
  /** The `backend_version` the emulator reports. */
  version: string;
  /** What is wrong with a source's connector configuration, if anything (connector-configs.ts). */
  checkConfig: (source: string, config: Record<string, unknown>) => string | undefined;
  /** The background work on pairs: index attempts, prunes, deletions (`poke` after a change). */
  tasks: PairTasks;
  /** The edition played: user groups, and whether groups give access. */
  edition: Edition;
  /** The release played for release-dependent facts (undefined: the newest). */
  serverVersion: string | undefined;
  /** Vespa or OpenSearch: where the index's answers differ. */
  indexBackend: IndexBackend;
  /** Whether a caller may see a document. */
  visibility: Visibility;
  /** Writes the search index (a new index during a model switch, re-stamps after changes). */
  writer: IndexWriter;
  /** Index writes that fail inside the ingestion call. */
  indexFaults: IndexFaults;
}

/** `public`, `private`, `sync` whatever the spelling (`PUBLIC` in the seed's example). */
export function canonicalAccessType(value: string | null | undefined): string | null {
  return typeof value === 'string' ? value.toLowerCase() : null;
}
