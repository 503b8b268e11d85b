/**
 * The groups and sets `apply` created, kept in memory: the default of `plan`, which then deletes
 * none with `prune` unless told what kis made (`FileCreatedRecords` keeps them across runs).
 */
import type { CreatedRecords, ScopeKind } from './types.js';

export function memoryCreated(): CreatedRecords {
  const names = new Map<ScopeKind, Set<string>>([
    ['user_group', new Set()],
    ['document_set', new Set()],
  ]);
  const of = (kind: ScopeKind) => names.get(kind) ?? new Set<string>();
  return {
    has: (kind, name) => of(kind).has(name),
    add: (kind, name) => void of(kind).add(name),
    delete: (kind, name) => void of(kind).delete(name),
    any: (kind) => of(kind).size > 0,
  };
}
