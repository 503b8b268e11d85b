// Search settings (table `search_settings`): the index searches read (PRESENT), the one a model
// switch builds (FUTURE) and those replaced (PAST), each with its embedding model; and the ports
// of a switch (`port_attempts`), one per pair copied into the new index.
import type { SwitchoverType } from '@kis/rules';
import type { Sqlite } from './sqlite.js';

export type SettingsStatus = 'PRESENT' | 'FUTURE' | 'PAST';
export type PortStatus = 'waiting' | 'in_progress' | 'completed' | 'failed' | 'paused';

export interface SearchSettingsRecord {
  id: number;
  status: SettingsStatus;
  model_name: string;
  model_dim: number;
  index_name: string;
  switchover_type: SwitchoverType;
  use_port_flow: boolean;
  time_created: string;
}

export interface PortRecord {
  settings_id: number;
  cc_pair_id: number;
  status: PortStatus;
  time_started: string | null;
  error_msg: string | null;
}

/** The model of a new store's index. */
export const DEFAULT_MODEL = Object.freeze({
  model_name: 'nomic-ai/nomic-embed-text-v1',
  model_dim: 768,
});

/** The index name servers give a model's index. */
export function indexNameOf(modelName: string): string {
  return `danswer_chunk_${modelName.replace(/[^a-zA-Z0-9]+/g, '_').toLowerCase()}`;
}

interface SettingsRow extends Omit<SearchSettingsRecord, 'use_port_flow'> {
  use_port_flow: number;
}

const toSettings = (row: SettingsRow): SearchSettingsRecord => ({
  ...row,
  use_port_flow: row.use_port_flow === 1,
});

type Id = { id: number };
type Insert = Omit<SettingsRow, 'id'>;

function prepare(db: Sqlite) {
  return {
    insert: db.statement<Insert>(
      `INSERT INTO search_settings (status, model_name, model_dim, index_name, switchover_type,
         use_port_flow, time_created)
       VALUES (@status, @model_name, @model_dim, @index_name, @switchover_type, @use_port_flow,
         @time_created)`,
    ),
    byStatus: db.statement<{ status: SettingsStatus }, SettingsRow>(
      'SELECT * FROM search_settings WHERE status = @status ORDER BY id DESC LIMIT 1',
    ),
    setStatus: db.statement<Id & { status: SettingsStatus }>(
      'UPDATE search_settings SET status = @status WHERE id = @id',
    ),
    addPort: db.statement<{ settings_id: number; cc_pair_id: number }>(
      `INSERT OR IGNORE INTO port_attempts (settings_id, cc_pair_id, status)
       VALUES (@settings_id, @cc_pair_id, 'waiting')`,
    ),
    ports: db.statement<{ settings_id: number }, PortRecord>(
      'SELECT * FROM port_attempts WHERE settings_id = @settings_id ORDER BY cc_pair_id',
    ),
    setPort: db.statement<{
      settings_id: number;
      cc_pair_id: number;
      status: PortStatus;
      time_started: string | null;
    }>(
      `UPDATE port_attempts SET status = @status, time_started = @time_started
       WHERE settings_id = @settings_id AND cc_pair_id = @cc_pair_id`,
    ),
  };
}

/** The search settings and the ports of a switch. */
export class SearchSettings {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  /** Creates the PRESENT settings of a new store if missing. */
  createDefault(now: string): void {
    if (this.stmt.byStatus.get({ status: 'PRESENT' }) !== undefined) return;
    this.stmt.insert.run({
      status: 'PRESENT',
      ...DEFAULT_MODEL,
      index_name: indexNameOf(DEFAULT_MODEL.model_name),
      switchover_type: 'reindex',
      use_port_flow: 1,
      time_created: now,
    });
  }

  present(): SearchSettingsRecord {
    const row = this.stmt.byStatus.get({ status: 'PRESENT' });
    if (row === undefined) throw new Error('the store has no PRESENT search settings');
    return toSettings(row);
  }

  /** The settings replaced last. */
  past(): SearchSettingsRecord | undefined {
    const row = this.stmt.byStatus.get({ status: 'PAST' });
    return row === undefined ? undefined : toSettings(row);
  }

  future(): SearchSettingsRecord | undefined {
    const row = this.stmt.byStatus.get({ status: 'FUTURE' });
    return row === undefined ? undefined : toSettings(row);
  }

  /** New FUTURE settings; their id. */
  startFuture(input: {
    model_name: string;
    model_dim: number;
    switchover_type: SwitchoverType;
    use_port_flow: boolean;
  }): number {
    return Number(
      this.stmt.insert.run({
        status: 'FUTURE',
        model_name: input.model_name,
        model_dim: input.model_dim,
        index_name: indexNameOf(input.model_name),
        switchover_type: input.switchover_type,
        use_port_flow: input.use_port_flow ? 1 : 0,
        time_created: this.now(),
      }).lastInsertRowid,
    );
  }

  /** FUTURE becomes PRESENT, PRESENT becomes PAST, in one transaction. */
  swap(futureId: number, presentId: number): void {
    this.db.transaction(() => {
      this.stmt.setStatus.run({ id: presentId, status: 'PAST' });
      this.stmt.setStatus.run({ id: futureId, status: 'PRESENT' });
    })();
  }

  addPorts(settingsId: number, pairIds: readonly number[]): void {
    for (const id of pairIds) this.stmt.addPort.run({ settings_id: settingsId, cc_pair_id: id });
  }

  ports(settingsId: number): PortRecord[] {
    return this.stmt.ports.all({ settings_id: settingsId });
  }

  setPort(settingsId: number, pairId: number, status: PortStatus, started: string | null): void {
    this.stmt.setPort.run({
      settings_id: settingsId,
      cc_pair_id: pairId,
      status,
      time_started: started,
    });
  }
}
