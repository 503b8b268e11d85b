/**
 * `CreatedRecords` in a JSON file (Node only), for `kis.plan`/`kis.apply`: the names of the user
 * groups and document sets apply created on one server, so that `prune` deletes those and nothing
 * others made. A name is recorded before its create is sent (an answer lost to a kill still
 * counts); each change is written to a temporary file renamed over the old one.
 *
 * Format: `{"kis":"apply-created","v":1,"user_group":["Support"],"document_set":["Runbooks"]}`.
 */
import type { CreatedRecords, ScopeKind } from './declarative/types.js';
import { readRecordFile, writeRecordFile } from './record-file.js';

interface Content {
  kis: 'apply-created';
  v: 1;
  user_group: string[];
  document_set: string[];
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string') : [];

function read(path: string): Content | undefined {
  const content = readRecordFile(path) as Partial<Content> | undefined;
  if (content === undefined) return undefined;
  if (content.kis !== 'apply-created' || content.v !== 1) {
    throw new Error(`${path}: not a kis apply record of created groups and sets (v1)`);
  }
  return {
    kis: 'apply-created',
    v: 1,
    user_group: names(content.user_group),
    document_set: names(content.document_set),
  };
}

export class FileCreatedRecords implements CreatedRecords {
  readonly path: string;
  private readonly content: Content;

  constructor(path: string) {
    this.path = path;
    this.content = read(path) ?? { kis: 'apply-created', v: 1, user_group: [], document_set: [] };
  }

  has(kind: ScopeKind, name: string): boolean {
    return this.content[kind].includes(name);
  }

  any(kind: ScopeKind): boolean {
    return this.content[kind].length > 0;
  }

  add(kind: ScopeKind, name: string): void {
    if (this.has(kind, name)) return;
    this.content[kind].push(name);
    this.save();
  }

  delete(kind: ScopeKind, name: string): void {
    if (!this.has(kind, name)) return;
    this.content[kind] = this.content[kind].filter((n) => n !== name);
    this.save();
  }

  private save(): void {
    writeRecordFile(this.path, this.content);
  }
}
