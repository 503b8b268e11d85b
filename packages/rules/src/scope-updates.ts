/**
 * Changing a document set or user group (docs/deployed-servers.md, "Document sets", "User
 * groups"): both updates are full replaces (`PATCH /manage/admin/document-set` takes every field,
 * `PATCH /manage/admin/user-group/{id}` both `user_ids` and `cc_pair_ids`), so a change of one
 * field is the listed object with that field replaced. And how a listing shows one being deleted:
 * a set stays listed with no pair until its sync removes it, a group with `is_up_for_deletion`.
 */

/** A document set as listings show it (the fields an update carries over). */
export interface ListedSet {
  readonly id: number;
  readonly name: string;
  readonly description?: string | null | undefined;
  readonly cc_pair_summaries: readonly { readonly id: number }[];
  readonly is_up_to_date: boolean;
  readonly is_public: boolean;
  readonly users: readonly string[];
  readonly groups: readonly number[];
  readonly federated_connector_summaries?:
    | readonly { readonly id: number; readonly entities?: Record<string, unknown> | null }[]
    | undefined;
}

/** What a set update changes; fields left out keep the listed values. */
export interface SetChange {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly cc_pair_ids?: readonly number[] | undefined;
  readonly is_public?: boolean | undefined;
  readonly users?: readonly string[] | undefined;
  readonly groups?: readonly number[] | undefined;
}

/** The body of a set update that changes only `change` (`document_set.py:457-489`: a full replace). */
export function setUpdateBody(set: ListedSet, change: SetChange = {}) {
  return {
    id: set.id,
    name: change.name ?? set.name,
    // required and never null on the way in (`null` is 422): an unset description is empty
    description: change.description ?? set.description ?? '',
    cc_pair_ids: [...(change.cc_pair_ids ?? set.cc_pair_summaries.map((p) => p.id))],
    is_public: change.is_public ?? set.is_public,
    users: [...(change.users ?? set.users)],
    groups: [...(change.groups ?? set.groups)],
    federated_connectors: (set.federated_connector_summaries ?? []).map((f) => ({
      federated_connector_id: f.id,
      entities: f.entities ?? {},
    })),
  };
}

/**
 * True when a listed set is a deleted one its sync has not removed yet: a deletion drops every
 * link, and a live set always holds a pair or a federated connector (`document_set.py:541-593`).
 */
export function setBeingDeleted(set: ListedSet): boolean {
  return (
    !set.is_up_to_date &&
    set.cc_pair_summaries.length === 0 &&
    (set.federated_connector_summaries ?? []).length === 0
  );
}

/** A user group as listings show it (the fields an update carries over). */
export interface ListedGroup {
  readonly users: readonly { readonly id: string }[];
  readonly cc_pairs: readonly { readonly id: number }[];
}

/** What a group update changes; fields left out keep the listed values. */
export interface GroupMembersChange {
  readonly user_ids?: readonly string[] | undefined;
  readonly cc_pair_ids?: readonly number[] | undefined;
}

/** The body of a group update that changes only `change` (both lists are required and replaced). */
export function groupUpdateBody(group: ListedGroup, change: GroupMembersChange = {}) {
  return {
    user_ids: [...(change.user_ids ?? group.users.map((u) => u.id))],
    cc_pair_ids: [...(change.cc_pair_ids ?? group.cc_pairs.map((p) => p.id))],
  };
}
