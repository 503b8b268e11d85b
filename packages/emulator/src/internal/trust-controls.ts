// What tests do to the emulator behind the API's back, and what they read that no API answers:
// a document's readers and set names as the index holds them (and as its pairs would give them
// now), sabotage (chunks dropped, a pair's access changed, index writes failing, a sync stuck),
// and a model switch started and finished. The control routes (`/_emulator/...`) and the
// in-process API (`emulator.sabotage`, `emulator.modelSwitch`, `emulator.state.documentAccess`)
// both call these.
import { SWITCHOVER_TYPES, type SwitchoverType } from '@kis/rules';
import type { DocumentReaders } from './document-readers.js';
import type { IndexFaults } from './index-faults.js';
import type { Store } from './store/index.js';
import type { SearchSettingsRecord } from './store/search-settings.js';
import { finishSwitch, type SwitchRequest, startSwitch } from './tasks/model-switch.js';
import type { PairTasks } from './tasks/pair-tasks.js';

/** A document as the index holds it, beside what its pairs would stamp on it now. */
export interface DocumentAccess {
  /** The document's row exists (it is listed), whether or not it is searchable. */
  stored: true;
  /** Its chunks in the PRESENT index (0: not searchable, not visible to any key). */
  chunks: number;
  /** Who may see it, as the PRESENT index holds it (`[]` without chunks). */
  readers: string[];
  /** The document sets it is in, as the PRESENT index holds them. */
  document_sets: string[];
  /** The readers a re-index or sync would stamp now, from its pairs. */
  pair_readers: string[];
  /** The set names a re-index or sync would stamp now. */
  pair_document_sets: string[];
  hidden: boolean;
  boost: number;
  /** Times it was (re)chunked and embedded. */
  embeddings: number;
}

/** A pair's access changed without the API (servers have no call for it). */
export interface PairAccessChange {
  access_type?: string | undefined;
  /** Its groups: every link replaced by current ones to these groups. */
  groups?: readonly number[] | undefined;
}

/** Sabotage for tests. */
export interface SabotageControl {
  /** Drops a document's chunks from every index: still stored and listed, no longer searchable. */
  dropChunks(documentId: string): boolean;
  /** Changes a pair's access type and groups; documents keep their stamp until re-indexed. */
  setPairAccess(ccPairId: number, change: PairAccessChange): boolean;
  /** Makes every push of these stored ids fail its index write (`[]`: none). */
  failIndexing(documentIds: readonly string[]): void;
  /** The share of pushes whose index write fails (`--faults index-fail=RATE`). */
  setIndexFailureRate(rate: number): void;
  /** Holds a document set's or user group's sync (true) or lets it end (false). */
  stickSync(kind: 'document-set' | 'user-group', id: number, stuck: boolean): boolean;
}

/** The embedding-model switch, driven by tests. */
export interface ModelSwitchControl {
  /** Starts one (`reindex`, port flow by default); throws while one runs. */
  start(request?: SwitchRequest): SearchSettingsRecord;
  /** Ends every port now and swaps; false when none runs. */
  finish(): boolean;
}

export class TrustControls {
  readonly sabotage: SabotageControl;
  readonly modelSwitch: ModelSwitchControl;

  constructor(
    private readonly store: Store,
    private readonly readers: DocumentReaders,
    tasks: PairTasks,
    faults: IndexFaults,
  ) {
    this.sabotage = {
      dropChunks: (documentId) => {
        const doc = store.documents.get(documentId);
        if (doc === undefined) return false;
        const indexes = [store.presentSettingsId(), store.futureSettingsId()];
        for (const id of indexes) if (id !== undefined) store.searchIndex.drop(id, doc.seq);
        return true;
      },
      setPairAccess: (ccPairId, change) => {
        if (store.pairs.get(ccPairId) === undefined) return false;
        store.transaction(() => {
          if (change.access_type !== undefined) {
            store.pairs.setAccessType(ccPairId, change.access_type.toLowerCase());
          }
          if (change.groups !== undefined) {
            store.groupPairs.unlinkPair(ccPairId);
            store.groupPairs.linkPair(ccPairId, change.groups);
          }
        });
        return true;
      },
      failIndexing: (documentIds) => faults.setTargets(documentIds),
      setIndexFailureRate: (rate) => faults.setRate(rate),
      stickSync: (kind, id, stuck) => {
        const changed =
          kind === 'document-set'
            ? store.documentSets.setStuck(id, stuck)
            : store.groups.setStuck(id, stuck);
        tasks.poke();
        return changed;
      },
    };
    this.modelSwitch = {
      start: (request = {}) => {
        if (
          request.switchover_type !== undefined &&
          !SWITCHOVER_TYPES.includes(request.switchover_type)
        ) {
          throw new RangeError(`switchover_type must be one of ${SWITCHOVER_TYPES.join(', ')}`);
        }
        const settings = startSwitch(tasks.context, request);
        tasks.poke();
        return settings;
      },
      finish: () => {
        const done = finishSwitch(tasks.context, tasks.now());
        tasks.poke();
        return done;
      },
    };
  }

  /** The document's stamp in the PRESENT index, and what its pairs would stamp now. */
  documentAccess(documentId: string): DocumentAccess | undefined {
    const { store } = this;
    const doc = store.documents.get(documentId);
    if (doc === undefined) return undefined;
    const entry = store.searchIndex.entry(store.presentSettingsId(), doc.seq);
    const now = this.readers.snapshot().stampOf(doc.cc_pair_ids);
    return {
      stored: true,
      chunks: entry?.chunk_count ?? 0,
      readers: [...(entry?.readers ?? [])],
      document_sets: [...(entry?.set_names ?? [])],
      pair_readers: [...now.readers],
      pair_document_sets: [...now.set_names],
      hidden: doc.hidden,
      boost: doc.boost,
      embeddings: doc.embeddings,
    };
  }
}

/** A switchover type from a control call's body, or an error naming the expected values. */
export function switchoverOf(value: unknown): SwitchoverType | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (SWITCHOVER_TYPES as readonly string[]).includes(value)) {
    return value as SwitchoverType;
  }
  throw new RangeError(`switchover_type must be one of ${SWITCHOVER_TYPES.join(', ')}`);
}
