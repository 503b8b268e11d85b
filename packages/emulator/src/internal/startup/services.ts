/**
 * The emulator's working parts, opened in order: the store, the keys, the index (readers, writer,
 * indexer), the background tasks and the test controls. A part that fails to open closes what
 * was opened before it.
 */
import type { EmulatorOptions } from '../../options.js';
import { type KeyIdentity, KeyRing } from '../auth.js';
import { DocumentReaders } from '../document-readers.js';
import { IndexFaults } from '../index-faults.js';
import { IndexWriter } from '../index-writer.js';
import { Indexer } from '../indexer.js';
import { registerStartedKeys } from '../key-accounts.js';
import { EmulatorStats } from '../stats.js';
import { Store } from '../store/index.js';
import { PairTasks } from '../tasks/pair-tasks.js';
import { TrustControls } from '../trust-controls.js';
import type { EmulatorSettings } from './settings.js';

export interface Services {
  store: Store;
  keys: KeyRing;
  stats: EmulatorStats;
  readers: DocumentReaders;
  writer: IndexWriter;
  indexer: Indexer;
  tasks: PairTasks;
  indexFaults: IndexFaults;
  trust: TrustControls;
  /** Empties the store and gives it back its started keys (`reset()`, `POST /_emulator/reset`). */
  reset(): void;
  /** Stops the background work and closes the store. */
  close(): void;
}

function createdKeyIdentity(store: Store, digest: string): KeyIdentity | undefined {
  const key = store.apiKeys.byDigest(digest);
  if (key === undefined) return undefined;
  const { id, name, user_id: userId, role, group_ids: groupIds } = key;
  return { apiKeyId: id, name, userId, role, groupIds };
}

export function openServices(settings: EmulatorSettings, options: EmulatorOptions): Services {
  const { now, kind } = settings;
  const store = new Store({ path: settings.dbPath, now, version: settings.serverVersion });
  const stats = new EmulatorStats(store.acknowledgements);
  const indexFaults = new IndexFaults(
    settings.faults?.rates['index-fail'] ?? 0,
    settings.random,
    () => stats.fault('index-fail'),
  );
  let keys: KeyRing;
  let readers: DocumentReaders;
  let writer: IndexWriter;
  let indexer: Indexer;
  let tasks: PairTasks;
  try {
    const { adminKey, userKeys, curatorKeys } = settings;
    keys = new KeyRing({ adminKey, userKeys, curatorKeys }, (d) => createdKeyIdentity(store, d));
    registerStartedKeys(store, keys, kind);
    readers = new DocumentReaders(store, settings.edition);
    writer = new IndexWriter(store, readers);
    indexer = new Indexer(store, writer, options.indexing);
    tasks = new PairTasks(store, writer, now, settings.timing, options.tasks, settings.logError);
  } catch (error) {
    store.close();
    throw error;
  }
  tasks.poke(); // attempts, prunes, deletions, syncs and ports a previous run left going
  const trust = new TrustControls(store, readers, tasks, indexFaults);
  return {
    store,
    keys,
    stats,
    readers,
    writer,
    indexer,
    tasks,
    indexFaults,
    trust,
    reset: () => {
      store.reset();
      registerStartedKeys(store, keys, kind);
      indexFaults.setTargets([]);
      tasks.reset();
    },
    close: () => {
      tasks.close();
      indexer.stop();
      store.close();
    },
  };
}
