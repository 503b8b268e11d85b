// Credentials (table `credentials`): a source's secrets, with the private-key file some sources
// upload, and the account that created them (documents of their pairs name it as a reader). The
// file's bytes stay in the database; records carry only its description.
import { DEFAULT_CREDENTIAL_ID, DEFAULT_CREDENTIAL_SOURCE } from '@kis/rules';
import { type JsonObject, parseJson } from './json-columns.js';
import type { NoParams, Sqlite } from './sqlite.js';

export interface CredentialRecord {
  id: number;
  name: string | null;
  source: string;
  credential_json: JsonObject;
  admin_public: boolean;
  curator_public: boolean;
  groups: number[];
  /** The account that created it; null for credential 0. */
  creator_id: string | null;
  time_created: string;
  time_updated: string;
  private_key: {
    file_name: string;
    content_type: string;
    size: number;
    field_key: string;
    type_definition_key: string;
  } | null;
}

export interface CredentialWrite {
  name: string | null;
  source: string;
  credential_json: JsonObject;
  admin_public: boolean;
  curator_public: boolean;
  groups: number[];
  /** The account creating it (null: none, as credential 0). */
  creator_id: string | null;
}

export interface PrivateKeyWrite {
  name: string;
  credential_json: JsonObject;
  field_key: string;
  type_definition_key: string;
  file_name: string;
  content_type: string;
  data: Uint8Array;
}

interface CredentialRow {
  id: number;
  name: string | null;
  source: string;
  credential_json: string;
  admin_public: number;
  curator_public: number;
  groups: string;
  private_key_file_name: string | null;
  private_key_content_type: string | null;
  private_key_field_key: string | null;
  private_key_type_definition_key: string | null;
  private_key_size: number | null;
  creator_id: string | null;
  time_created: string;
  time_updated: string;
}

/** A new credential's columns, as the insert binds them (`id` null: the next free id). */
interface CredentialParams {
  id: number | null;
  name: string | null;
  source: string;
  credential_json: string;
  admin_public: number;
  curator_public: number;
  groups: string;
  creator_id: string | null;
  now: string;
}

type Id = { id: number };

const COLUMNS = `id, name, source, credential_json, admin_public, curator_public, groups,
  private_key_file_name, private_key_content_type, private_key_field_key,
  private_key_type_definition_key, length(private_key) AS private_key_size, creator_id,
  time_created, time_updated`;

function toCredential(row: CredentialRow): CredentialRecord {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    credential_json: parseJson<JsonObject>(row.credential_json),
    admin_public: row.admin_public === 1,
    curator_public: row.curator_public === 1,
    groups: parseJson<number[]>(row.groups),
    creator_id: row.creator_id,
    time_created: row.time_created,
    time_updated: row.time_updated,
    private_key:
      row.private_key_file_name === null
        ? null
        : {
            file_name: row.private_key_file_name,
            content_type: row.private_key_content_type ?? 'application/octet-stream',
            size: row.private_key_size ?? 0,
            field_key: row.private_key_field_key ?? '',
            type_definition_key: row.private_key_type_definition_key ?? '',
          },
  };
}

function toParams(id: number | null, input: CredentialWrite, now: string): CredentialParams {
  return {
    id,
    name: input.name,
    source: input.source,
    credential_json: JSON.stringify(input.credential_json),
    admin_public: input.admin_public ? 1 : 0,
    curator_public: input.curator_public ? 1 : 0,
    groups: JSON.stringify(input.groups),
    creator_id: input.creator_id,
    now,
  };
}

function prepare(db: Sqlite) {
  return {
    insert: db.statement<CredentialParams>(
      `INSERT INTO credentials (id, name, source, credential_json, admin_public, curator_public,
         groups, creator_id, time_created, time_updated)
       VALUES (@id, @name, @source, @credential_json, @admin_public, @curator_public, @groups,
         @creator_id, @now, @now)`,
    ),
    get: db.statement<Id, CredentialRow>(`SELECT ${COLUMNS} FROM credentials WHERE id = @id`),
    list: db.statement<NoParams, CredentialRow>(`SELECT ${COLUMNS} FROM credentials ORDER BY id`),
    updateData: db.statement<Id & { name: string | null; credential_json: string; now: string }>(
      `UPDATE credentials SET name = @name, credential_json = @credential_json,
         time_updated = @now
       WHERE id = @id`,
    ),
    updatePrivateKey: db.statement<
      Omit<PrivateKeyWrite, 'credential_json'> & Id & { credential_json: string; now: string }
    >(
      `UPDATE credentials SET name = @name, credential_json = @credential_json,
         private_key_field_key = @field_key, private_key_type_definition_key = @type_definition_key,
         private_key_file_name = @file_name, private_key_content_type = @content_type,
         private_key = @data, time_updated = @now
       WHERE id = @id`,
    ),
    delete: db.statement<Id>('DELETE FROM credentials WHERE id = @id'),
  };
}

/** The credentials. */
export class Credentials {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  create(input: CredentialWrite): CredentialRecord {
    const result = this.stmt.insert.run(toParams(null, input, this.now()));
    return this.get(Number(result.lastInsertRowid))!;
  }

  /** Creates credential 0 if missing: public, with no name (as on deployed servers). */
  createDefault(now: string): void {
    if (this.stmt.get.get({ id: DEFAULT_CREDENTIAL_ID }) !== undefined) return;
    const input: CredentialWrite = {
      name: null,
      source: DEFAULT_CREDENTIAL_SOURCE,
      credential_json: {},
      admin_public: true,
      curator_public: false,
      groups: [],
      creator_id: null,
    };
    this.stmt.insert.run(toParams(DEFAULT_CREDENTIAL_ID, input, now));
  }

  get(id: number): CredentialRecord | undefined {
    const row = this.stmt.get.get({ id });
    return row === undefined ? undefined : toCredential(row);
  }

  list(): CredentialRecord[] {
    return this.stmt.list.all().map(toCredential);
  }

  /** Sets a credential's name and JSON; undefined when there is no such credential. */
  updateData(id: number, name: string | null, json: JsonObject): CredentialRecord | undefined {
    const credential_json = JSON.stringify(json);
    const result = this.stmt.updateData.run({ id, name, credential_json, now: this.now() });
    return result.changes === 0 ? undefined : this.get(id);
  }

  /** Replaces a credential's name and JSON and stores the uploaded private-key file with it. */
  updatePrivateKey(id: number, input: PrivateKeyWrite): CredentialRecord | undefined {
    const result = this.stmt.updatePrivateKey.run({
      id,
      name: input.name,
      credential_json: JSON.stringify(input.credential_json),
      field_key: input.field_key,
      type_definition_key: input.type_definition_key,
      file_name: input.file_name,
      content_type: input.content_type,
      data: input.data,
      now: this.now(),
    });
    return result.changes === 0 ? undefined : this.get(id);
  }

  /** Deletes a credential (the caller checks that no pair uses it); false when there was none. */
  delete(id: number): boolean {
    return this.stmt.delete.run({ id }).changes > 0;
  }
}
