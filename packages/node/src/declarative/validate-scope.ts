/**
 * Checks the `user_groups` and `document_sets` of a desired state before anything is sent, every
 * problem at once, each naming its entry and field: the keys of each entry (those of
 * `@kis/spec/kis-file.schema.json`), their types, and names given twice (both kinds are matched
 * on the server by name). Whether a name fits something is known once the server is read.
 */
import type { DesiredStateIssue as StateIssue } from '@kis/client';
import { isRefList, label, unknownKeyIssues } from './validate.js';

/** The keys of each kind of entry (the file schema's; test/declarative-scope.test.ts compares). */
export const SCOPE_ENTRY_KEYS = {
  user_group: ['name', 'users'],
  document_set: ['name', 'description', 'pairs', 'public', 'groups', 'users'],
} as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTextList = (v: unknown) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '');

class Issues {
  readonly list: StateIssue[] = [];
  add(entry: string, path: string, message: string, keyword = 'type'): void {
    this.list.push({ entry, path, message, keyword });
  }
  /** A key that, when given, must pass `ok`. */
  check(entry: string, value: Obj, key: string, ok: (v: unknown) => boolean, what: string): void {
    if (value[key] !== undefined && !ok(value[key])) {
      this.add(entry, key, `must be ${what} (got ${JSON.stringify(value[key])})`);
    }
  }
}

function entriesOf(issues: Issues, state: Obj, key: 'user_groups' | 'document_sets') {
  const list = state[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    issues.add(key, key, `must be a list (got ${JSON.stringify(list)})`);
    return [];
  }
  const seen = new Map<string, number>();
  return list.flatMap((value: unknown, i) => {
    const entry = label(key, i, value);
    if (!isObject(value)) {
      issues.add(entry, '', 'must be an object');
      return [];
    }
    if (typeof value.name !== 'string' || value.name.trim() === '') {
      issues.add(entry, 'name', 'is required: a non-empty string', 'required');
    } else if (seen.has(value.name)) {
      const message = `repeats ${key}[${seen.get(value.name)}]: entries are matched on the server by name`;
      issues.add(entry, 'name', message, 'uniqueItems');
    } else seen.set(value.name, i);
    return [{ entry, value }];
  });
}

/** Every problem of the groups and sets of `state` (an object, checked by `desiredStateIssues`). */
export function scopeEntryIssues(state: unknown): StateIssue[] {
  const issues = new Issues();
  if (!isObject(state)) return [];
  for (const { entry, value } of entriesOf(issues, state, 'user_groups')) {
    issues.list.push(...unknownKeyIssues(entry, value, SCOPE_ENTRY_KEYS.user_group));
    issues.check(entry, value, 'users', isTextList, 'a list of account ids or e-mails');
  }
  for (const { entry, value } of entriesOf(issues, state, 'document_sets')) {
    issues.list.push(...unknownKeyIssues(entry, value, SCOPE_ENTRY_KEYS.document_set));
    if (value.pairs === undefined) {
      issues.add(entry, 'pairs', 'is required: a list of pair names or ids', 'required');
    } else if (!isRefList(value.pairs) || !Array.isArray(value.pairs) || value.pairs.length === 0) {
      const got = JSON.stringify(value.pairs);
      issues.add(entry, 'pairs', `must be a non-empty list of pair names or ids (got ${got})`);
    }
    issues.check(entry, value, 'description', (v) => typeof v === 'string', 'a string');
    issues.check(entry, value, 'public', (v) => typeof v === 'boolean', 'true or false');
    issues.check(entry, value, 'groups', isRefList, 'a list of group names or ids');
    issues.check(entry, value, 'users', isTextList, 'a list of account ids');
  }
  return issues.list;
}
