// Connectors (table `connectors`): where documents come from and how they are read. A connector is
// "fully created" once a pair associates a credential with it; deleting one removes its pairs.
import { DEFAULT_DOCUMENT_SOURCE } from '@kis/rules';
import { type JsonObject, parseJson } from './json-columns.js';
import type { NoParams, Sqlite } from './sqlite.js';

/** The connector of the default pair (source `ingestion_api`). */
export const DEFAULT_CONNECTOR_ID = 0;

export interface ConnectorRecord {
  id: number;
  name: string;
  source: string;
  input_type: string | null;
  access_type: string | null;
  connector_specific_config: JsonObject;
  refresh_freq: number | null;
  prune_freq: number | null;
  indexing_start: string | null;
  groups: number[];
  time_created: string;
  time_updated: string;
}

export interface ConnectorWrite {
  name: string;
  source: string;
  input_type: string | null;
  access_type: string | null;
  connector_specific_config: JsonObject;
  refresh_freq: number | null;
  prune_freq: number | null;
  indexing_start: string | null;
  groups: number[];
}

interface ConnectorRow extends Omit<ConnectorRecord, 'connector_specific_config' | 'groups'> {
  connector_specific_config: string;
  groups: string;
}

/** A connector's written columns, as the insert and the update bind them. */
interface ConnectorParams extends Omit<ConnectorRow, 'id' | 'time_created' | 'time_updated'> {
  now: string;
}

type Id = { id: number };

function toConnector(row: ConnectorRow): ConnectorRecord {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    input_type: row.input_type,
    access_type: row.access_type,
    connector_specific_config: parseJson<JsonObject>(row.connector_specific_config),
    refresh_freq: row.refresh_freq,
    prune_freq: row.prune_freq,
    indexing_start: row.indexing_start,
    groups: parseJson<number[]>(row.groups),
    time_created: row.time_created,
    time_updated: row.time_updated,
  };
}

function toParams(input: ConnectorWrite, now: string): ConnectorParams {
  return {
    name: input.name,
    source: input.source,
    input_type: input.input_type,
    access_type: input.access_type,
    connector_specific_config: JSON.stringify(input.connector_specific_config),
    refresh_freq: input.refresh_freq,
    prune_freq: input.prune_freq,
    indexing_start: input.indexing_start,
    groups: JSON.stringify(input.groups),
    now,
  };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<ConnectorParams & { id: number | null }>(
      `INSERT INTO connectors (id, name, source, input_type, access_type,
         connector_specific_config, refresh_freq, prune_freq, indexing_start, groups,
         time_created, time_updated)
       VALUES (@id, @name, @source, @input_type, @access_type, @connector_specific_config,
         @refresh_freq, @prune_freq, @indexing_start, @groups, @now, @now)`,
    ),
    update: db.statement<ConnectorParams & Id>(
      `UPDATE connectors SET name = @name, source = @source, input_type = @input_type,
         access_type = @access_type, connector_specific_config = @connector_specific_config,
         refresh_freq = @refresh_freq, prune_freq = @prune_freq, indexing_start = @indexing_start,
         groups = @groups, time_updated = @now
       WHERE id = @id`,
    ),
    get: db.statement<Id, ConnectorRow>('SELECT * FROM connectors WHERE id = @id'),
    listAll: db.statement<NoParams, ConnectorRow>('SELECT * FROM connectors ORDER BY id'),
    listCreated: db.statement<NoParams, ConnectorRow>(
      `SELECT * FROM connectors c WHERE EXISTS
         (SELECT 1 FROM cc_pairs p WHERE p.connector_id = c.id) ORDER BY c.id`,
    ),
    nameTaken: db.column<{ name: string; source: string; except_id: number }, number>(
      'SELECT 1 FROM connectors WHERE name = @name AND source = @source AND id <> @except_id LIMIT 1',
    ),
    findByNameAndSource: db.column<{ name: string; source: string }, number>(
      'SELECT id FROM connectors WHERE name = @name AND source = @source LIMIT 1',
    ),
    detachPairDocuments: db.statement<Id>(
      `DELETE FROM document_pairs
       WHERE cc_pair_id IN (SELECT id FROM cc_pairs WHERE connector_id = @id)`,
    ),
    deletePairs: db.statement<Id>('DELETE FROM cc_pairs WHERE connector_id = @id'),
    delete: db.statement<Id>('DELETE FROM connectors WHERE id = @id'),
  };
}

/** The connectors. */
export class Connectors {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  create(input: ConnectorWrite): ConnectorRecord {
    const result = this.stmt.insert.run({ id: null, ...toParams(input, this.now()) });
    return this.get(Number(result.lastInsertRowid))!;
  }

  /** Creates connector 0 (`Ingestion API`, source `ingestion_api`) if missing. */
  createDefault(now: string): void {
    if (this.stmt.get.get({ id: DEFAULT_CONNECTOR_ID }) !== undefined) return;
    const input: ConnectorWrite = {
      name: 'Ingestion API',
      source: DEFAULT_DOCUMENT_SOURCE,
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: {},
      refresh_freq: null,
      prune_freq: null,
      indexing_start: null,
      groups: [],
    };
    this.stmt.insert.run({ id: DEFAULT_CONNECTOR_ID, ...toParams(input, now) });
  }

  /** Replaces every field of a connector; undefined when there is no such connector. */
  update(id: number, input: ConnectorWrite): ConnectorRecord | undefined {
    const result = this.stmt.update.run({ id, ...toParams(input, this.now()) });
    return result.changes === 0 ? undefined : this.get(id);
  }

  /**
   * Removes a connector and its pairs at once, in one transaction; their documents stay stored,
   * attached to no pair. False when there was no such connector.
   */
  delete(id: number): boolean {
    return this.db.transaction(() => {
      this.stmt.detachPairDocuments.run({ id });
      this.stmt.deletePairs.run({ id });
      return this.stmt.delete.run({ id }).changes > 0;
    })();
  }

  get(id: number): ConnectorRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toConnector(row);
  }

  /** Fully created connectors (with at least one credential association), or all of them. */
  list(options: { all?: boolean } = {}): ConnectorRecord[] {
    const rows = options.all ? this.stmt.listAll.all() : this.stmt.listCreated.all();
    return rows.map(toConnector);
  }

  /** True when a connector other than `exceptId` has this name and source. */
  nameTaken(name: string, source: string, exceptId: number): boolean {
    return this.stmt.nameTaken.get({ name, source, except_id: exceptId }) === 1;
  }

  /** The id of a connector with this name and source, if any. */
  findByNameAndSource(name: string, source: string): number | undefined {
    return this.stmt.findByNameAndSource.get({ name, source });
  }
}
