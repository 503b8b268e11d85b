// Connector/credential pairs (table `cc_pairs`) and their hold on documents (`document_pairs`),
// with the state of their indexing, pruning and deletion. Their groups are links
// (`user_group_pairs`, group-pairs.ts). Removing a pair detaches its documents (its index
// attempts and errors go with it); the end of a pair's deletion also removes the documents only
// it held, and its connector when no other pair uses it.
import {
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  type DELETION_PHASES,
  NEW_PAIR_STATUS,
  type PairStatus,
  type runTrigger,
} from '@kis/rules';
import { DEFAULT_CONNECTOR_ID } from './connectors.js';
import { type JsonObject, jsonOrNull, parseJsonOrNull } from './json-columns.js';
import type { NoParams, Sqlite } from './sqlite.js';

export type { PairStatus } from '@kis/rules';

/** The status of the default pair 1, and of pairs from databases that kept none (version 2). */
export const DEFAULT_PAIR_STATUS: PairStatus = 'ACTIVE';

/** A phase of a pair's deletion (`latest_deletion_attempt.status`). */
export type DeletionPhase = (typeof DELETION_PHASES)[keyof typeof DELETION_PHASES];

/** What run once asked of a pair that has not started yet (the rule book's `runTrigger`). */
export type IndexingTrigger = ReturnType<typeof runTrigger>;

export interface PairRecord {
  id: number;
  connector_id: number;
  credential_id: number;
  name: string | null;
  access_type: string;
  /** Every group it links, as stored (stale links included). */
  groups: number[];
  /** The groups whose link a group update removed, until the group's sync drops it. */
  stale_groups: number[];
  auto_sync_options: JsonObject | null;
  processing_mode: string | null;
  status: PairStatus;
  /** True when its last attempts all failed (`nextRepeatedErrorState`). */
  in_repeated_error_state: boolean;
  /** A run asked for and not yet started (it waits while the pair is not indexable). */
  indexing_trigger: IndexingTrigger | null;
  /** When its last prune that did not fail ended. */
  last_pruned: string | null;
  /** When its running prune started; null when none runs. */
  pruning_since: string | null;
  /** The phase of its deletion, null when none runs. */
  deletion_status: DeletionPhase | null;
  /** When that phase began. */
  deletion_since: string | null;
  time_created: string;
}

export interface PairWrite {
  connector_id: number;
  credential_id: number;
  name: string | null;
  access_type: string;
  groups: number[];
  auto_sync_options: JsonObject | null;
  processing_mode: string | null;
}

interface PairRow
  extends Omit<
    PairRecord,
    'groups' | 'stale_groups' | 'auto_sync_options' | 'in_repeated_error_state'
  > {
  groups: string | null;
  stale_groups: string | null;
  auto_sync_options: string | null;
  in_repeated_error_state: number;
}

/** A new pair's columns, as the insert binds them (`id` null: the next free id). */
type PairParams = Pick<
  PairRow,
  | 'connector_id'
  | 'credential_id'
  | 'name'
  | 'access_type'
  | 'auto_sync_options'
  | 'processing_mode'
  | 'status'
  | 'time_created'
> & { id: number | null };

type Id = { id: number };

/** The pair's columns and its group links. */
const COLUMNS = `p.*,
  (SELECT group_concat(l.group_id) FROM user_group_pairs l WHERE l.cc_pair_id = p.id) AS groups,
  (SELECT group_concat(l.group_id) FROM user_group_pairs l
    WHERE l.cc_pair_id = p.id AND l.is_current = 0) AS stale_groups`;

/** The groups a pair is linked to now: its links but those a group update removed. */
export function currentGroupIds(pair: Pick<PairRecord, 'groups' | 'stale_groups'>): number[] {
  return pair.groups.filter((id) => !pair.stale_groups.includes(id));
}

function ids(list: string | null): number[] {
  return list === null
    ? []
    : list
        .split(',')
        .map(Number)
        .sort((a, b) => a - b);
}

function toPair(row: PairRow): PairRecord {
  return {
    id: row.id,
    connector_id: row.connector_id,
    credential_id: row.credential_id,
    name: row.name,
    access_type: row.access_type,
    groups: ids(row.groups),
    stale_groups: ids(row.stale_groups),
    auto_sync_options: parseJsonOrNull<JsonObject>(row.auto_sync_options),
    processing_mode: row.processing_mode,
    status: row.status,
    in_repeated_error_state: row.in_repeated_error_state === 1,
    indexing_trigger: row.indexing_trigger,
    last_pruned: row.last_pruned,
    pruning_since: row.pruning_since,
    deletion_status: row.deletion_status,
    deletion_since: row.deletion_since,
    time_created: row.time_created,
  };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<PairParams>(
      `INSERT INTO cc_pairs (id, connector_id, credential_id, name, access_type,
         auto_sync_options, processing_mode, status, time_created)
       VALUES (@id, @connector_id, @credential_id, @name, @access_type,
         @auto_sync_options, @processing_mode, @status, @time_created)`,
    ),
    link: db.statement<{ group_id: number; cc_pair_id: number }>(
      `INSERT OR IGNORE INTO user_group_pairs (group_id, cc_pair_id, is_current)
       VALUES (@group_id, @cc_pair_id, 1)`,
    ),
    get: db.statement<Id, PairRow>(`SELECT ${COLUMNS} FROM cc_pairs p WHERE p.id = @id`),
    find: db.statement<{ connector_id: number; credential_id: number }, PairRow>(
      `SELECT ${COLUMNS} FROM cc_pairs p
       WHERE p.connector_id = @connector_id AND p.credential_id = @credential_id`,
    ),
    list: db.statement<NoParams, PairRow>(`SELECT ${COLUMNS} FROM cc_pairs p ORDER BY p.id`),
    setAccessType: db.statement<Id & { access_type: string }>(
      'UPDATE cc_pairs SET access_type = @access_type WHERE id = @id',
    ),
    rename: db.statement<Id & { name: string }>('UPDATE cc_pairs SET name = @name WHERE id = @id'),
    // A pair that leaves DELETING (a resume) ends its deletion.
    setStatus: db.statement<Id & { status: PairStatus; deleting: number }>(
      `UPDATE cc_pairs SET status = @status,
         deletion_status = CASE WHEN @deleting = 1 THEN deletion_status END,
         deletion_since = CASE WHEN @deleting = 1 THEN deletion_since END
       WHERE id = @id`,
    ),
    setDeletion: db.statement<Id & { phase: DeletionPhase | null; since: string | null }>(
      'UPDATE cc_pairs SET deletion_status = @phase, deletion_since = @since WHERE id = @id',
    ),
    setRepeatedErrorState: db.statement<Id & { value: number }>(
      'UPDATE cc_pairs SET in_repeated_error_state = @value WHERE id = @id',
    ),
    setTrigger: db.statement<Id & { trigger: IndexingTrigger | null }>(
      'UPDATE cc_pairs SET indexing_trigger = @trigger WHERE id = @id',
    ),
    startPrune: db.statement<Id & { now: string }>(
      'UPDATE cc_pairs SET pruning_since = @now WHERE id = @id AND pruning_since IS NULL',
    ),
    endPrune: db.statement<Id & { pruned: string | null }>(
      `UPDATE cc_pairs SET pruning_since = NULL, last_pruned = coalesce(@pruned, last_pruned)
       WHERE id = @id`,
    ),
    delete: db.statement<Id>('DELETE FROM cc_pairs WHERE id = @id'),
    detachDocuments: db.statement<Id>('DELETE FROM document_pairs WHERE cc_pair_id = @id'),
    // Documents no other pair holds.
    deleteOwnDocuments: db.statement<Id>(
      `DELETE FROM documents WHERE seq IN (
         SELECT p.document_seq FROM document_pairs p WHERE p.cc_pair_id = @id
           AND NOT EXISTS (SELECT 1 FROM document_pairs o
             WHERE o.document_seq = p.document_seq AND o.cc_pair_id <> p.cc_pair_id))`,
    ),
    deleteUnusedConnector: db.statement<{ connector_id: number }>(
      `DELETE FROM connectors WHERE id = @connector_id
         AND NOT EXISTS (SELECT 1 FROM cc_pairs WHERE connector_id = @connector_id)`,
    ),
    credentialIdsOfConnector: db.column<{ connector_id: number }, number>(
      'SELECT credential_id FROM cc_pairs WHERE connector_id = @connector_id ORDER BY id',
    ),
    countOfCredential: db.column<{ credential_id: number }, number>(
      'SELECT count(*) FROM cc_pairs WHERE credential_id = @credential_id',
    ),
    documentsOf: db.statement<Id, { seq: number; id: string; owners: number }>(
      `SELECT d.seq, d.id,
         (SELECT count(*) FROM document_pairs o WHERE o.document_seq = d.seq) AS owners
       FROM document_pairs p JOIN documents d ON d.seq = p.document_seq
       WHERE p.cc_pair_id = @id ORDER BY d.seq`,
    ),
    detachDocument: db.statement<Id & { seq: number }>(
      'DELETE FROM document_pairs WHERE cc_pair_id = @id AND document_seq = @seq',
    ),
    deleteDocument: db.statement<{ seq: number }>('DELETE FROM documents WHERE seq = @seq'),
    documentCount: db.column<Id, number>(
      'SELECT count(*) FROM document_pairs WHERE cc_pair_id = @id',
    ),
    documentCounts: db.statement<NoParams, { cc_pair_id: number; documents: number }>(
      'SELECT cc_pair_id, count(*) AS documents FROM document_pairs GROUP BY cc_pair_id',
    ),
  };
}

/** The connector/credential pairs. */
export class Pairs {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  /** A new pair with its group links, in one transaction. */
  create(input: PairWrite): PairRecord {
    const id = this.db.transaction(() => {
      const result = this.stmt.insert.run({
        id: null,
        connector_id: input.connector_id,
        credential_id: input.credential_id,
        name: input.name,
        access_type: input.access_type,
        auto_sync_options: jsonOrNull(input.auto_sync_options),
        processing_mode: input.processing_mode,
        status: NEW_PAIR_STATUS,
        time_created: this.now(),
      });
      const pairId = Number(result.lastInsertRowid);
      for (const groupId of new Set(input.groups)) {
        this.stmt.link.run({ group_id: groupId, cc_pair_id: pairId });
      }
      return pairId;
    })();
    return this.get(id)!;
  }

  /** Sets a pair's access type (no API call does: the emulator's control calls only). */
  setAccessType(id: number, accessType: string): boolean {
    return this.stmt.setAccessType.run({ id, access_type: accessType }).changes > 0;
  }

  /** Creates pair 1 (`DefaultCCPair`: connector 0 with credential 0) if missing. */
  createDefault(now: string): void {
    if (this.stmt.get.get({ id: DEFAULT_CC_PAIR_ID }) !== undefined) return;
    this.stmt.insert.run({
      id: DEFAULT_CC_PAIR_ID,
      connector_id: DEFAULT_CONNECTOR_ID,
      credential_id: DEFAULT_CREDENTIAL_ID,
      name: 'DefaultCCPair',
      access_type: 'public',
      auto_sync_options: null,
      processing_mode: null,
      status: DEFAULT_PAIR_STATUS,
      time_created: now,
    });
  }

  get(id: number): PairRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toPair(row);
  }

  find(connectorId: number, credentialId: number): PairRecord | undefined {
    const row = this.stmt.find.get({ connector_id: connectorId, credential_id: credentialId });
    return row === undefined ? undefined : toPair(row);
  }

  list(): PairRecord[] {
    return this.stmt.list.all().map(toPair);
  }

  /** Sets a pair's name; false when there is no such pair. */
  rename(id: number, name: string): boolean {
    return this.stmt.rename.run({ id, name }).changes > 0;
  }

  /** Sets a pair's status (any other than DELETING ends its deletion); false when there is none. */
  setStatus(id: number, status: PairStatus): boolean {
    const deleting = status === 'DELETING' ? 1 : 0;
    return this.stmt.setStatus.run({ id, status, deleting }).changes > 0;
  }

  /** Sets the phase of a pair's deletion and when it began (null, null: no deletion). */
  setDeletion(id: number, phase: DeletionPhase | null, since: string | null): void {
    this.stmt.setDeletion.run({ id, phase, since });
  }

  setRepeatedErrorState(id: number, value: boolean): void {
    this.stmt.setRepeatedErrorState.run({ id, value: value ? 1 : 0 });
  }

  /** Stores the run asked for a pair (null: none waits). */
  setTrigger(id: number, trigger: IndexingTrigger | null): void {
    this.stmt.setTrigger.run({ id, trigger });
  }

  /** Marks a prune of the pair running since `now`; false when one already runs. */
  startPrune(id: number, now: string): boolean {
    return this.stmt.startPrune.run({ id, now }).changes > 0;
  }

  /** Ends the pair's prune: `pruned` is when it ended without failure, null when it was stopped. */
  endPrune(id: number, pruned: string | null): void {
    this.stmt.endPrune.run({ id, pruned });
  }

  /** Removes a pair at once; its documents stay stored, no longer attached to it. */
  delete(id: number): boolean {
    return this.db.transaction(() => {
      this.stmt.detachDocuments.run({ id });
      return this.stmt.delete.run({ id }).changes > 0;
    })();
  }

  /**
   * The end of a pair's deletion, in one transaction: its documents leave the store (those that
   * another pair also holds stay, attached to that pair only), then the pair, then its connector
   * when no other pair uses it. False when there was no such pair.
   */
  deleteWithDocuments(id: number): boolean {
    return this.db.transaction(() => {
      const pair = this.stmt.get.get({ id });
      if (pair === undefined) return false;
      this.stmt.deleteOwnDocuments.run({ id });
      this.stmt.detachDocuments.run({ id });
      this.stmt.delete.run({ id });
      this.stmt.deleteUnusedConnector.run({ connector_id: pair.connector_id });
      return true;
    })();
  }

  /** Ids of the credentials paired with a connector, in the order of their pairs. */
  credentialIdsOfConnector(connectorId: number): number[] {
    return this.stmt.credentialIdsOfConnector.all({ connector_id: connectorId });
  }

  /** Number of pairs that use a credential. */
  countOfCredential(credentialId: number): number {
    return this.stmt.countOfCredential.get({ credential_id: credentialId }) ?? 0;
  }

  /** A pair's documents, with how many pairs hold each. */
  documentsOf(id: number): { seq: number; id: string; owners: number }[] {
    return this.stmt.documentsOf.all({ id });
  }

  /**
   * Takes a document from a pair: it leaves the store (and every index) when no other pair holds
   * it, else only loses this pair. True when it was deleted.
   */
  releaseDocument(id: number, seq: number, owners: number): boolean {
    return this.db.transaction(() => {
      if (owners <= 1) return this.stmt.deleteDocument.run({ seq }).changes > 0;
      this.stmt.detachDocument.run({ id, seq });
      return false;
    })();
  }

  /** Number of documents attached to a pair. */
  documentCount(id: number): number {
    return this.stmt.documentCount.get({ id }) ?? 0;
  }

  /** Number of documents attached to each pair id. */
  documentCounts(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const row of this.stmt.documentCounts.all()) counts.set(row.cc_pair_id, row.documents);
    return counts;
  }
}
