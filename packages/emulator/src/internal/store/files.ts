// Uploaded files (table `user_files`): their bytes and a uuid record id. Ingested documents may
// name a file by its `file_id`.
import { randomUUID } from 'node:crypto';
import type { NoParams, Sqlite } from './sqlite.js';

export interface UserFileRecord {
  id: number;
  /** The record's uuid (deployed servers' `id` of an uploaded file). */
  uid: string;
  file_id: string;
  name: string;
  file_type: string;
  size: number;
  status: string;
  project_id: number | null;
  created_at: string;
}

export interface UploadWrite {
  name: string;
  file_type: string;
  data: Uint8Array;
  project_id: number | null;
}

/** A new file's columns, as the insert binds them. */
interface UserFileParams extends Omit<UserFileRecord, 'id'> {
  data: Uint8Array;
}

const COLUMNS = 'id, uid, file_id, name, file_type, size, status, project_id, created_at';

function prepare(db: Sqlite) {
  return {
    insert: db.statement<UserFileParams>(
      `INSERT INTO user_files (uid, file_id, name, file_type, size, data, status, project_id,
         created_at)
       VALUES (@uid, @file_id, @name, @file_type, @size, @data, @status, @project_id,
         @created_at)`,
    ),
    get: db.statement<{ id: number }, UserFileRecord>(
      `SELECT ${COLUMNS} FROM user_files WHERE id = @id`,
    ),
    has: db.column<{ file_id: string }, number>(
      'SELECT 1 FROM user_files WHERE file_id = @file_id',
    ),
    list: db.statement<NoParams, UserFileRecord>(`SELECT ${COLUMNS} FROM user_files ORDER BY id`),
  };
}

/** The uploaded files. */
export class Files {
  private readonly stmt: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Sqlite,
    private readonly now: () => string,
  ) {
    this.stmt = prepare(db);
  }

  /** Stores uploaded files (in one transaction) with their first status; returns their records. */
  add(files: UploadWrite[], status: string): UserFileRecord[] {
    const now = this.now();
    return this.db.transaction(() =>
      files.map((file) => {
        const result = this.stmt.insert.run({
          uid: randomUUID(),
          file_id: randomUUID(),
          name: file.name,
          file_type: file.file_type,
          size: file.data.byteLength,
          data: file.data,
          status,
          project_id: file.project_id,
          created_at: now,
        });
        return this.stmt.get.get({ id: Number(result.lastInsertRowid) })!;
      }),
    )();
  }

  /** True when a file with this `file_id` was uploaded. */
  has(fileId: string): boolean {
    return this.stmt.has.get({ file_id: fileId }) === 1;
  }

  list(): UserFileRecord[] {
    return this.stmt.list.all();
  }
}
