/**
 * What the planning of user groups and document sets shares with `plan` and `apply` without
 * importing them: references to ids that exist only once an earlier step ran, the steps that
 * change groups and sets, and what the plan lends the scope planner (its host).
 */
import type {
  ConnectorStatus,
  Credential,
  DocumentSetSummary,
  KisClient,
  RequestOptions,
  UserGroup,
} from '@kis/client';
import type {
  CreatedRecords,
  DesiredConnector,
  PlannedChange,
  PlannedPair,
  PlannedUserGroup,
} from './types.js';

/** An id known when planning, or the planned change that makes it (its `id` once applied). */
export type IdRef = number | PlannedPair | PlannedUserGroup;

/** The id a reference holds by now; a missing one is a plan whose earlier step did not run. */
export function idOf(ref: IdRef): number {
  if (typeof ref === 'number') return ref;
  if (ref.id === null) throw new Error(`kis.apply: no id for ${ref.kind} "${ref.name}" yet`);
  return ref.id;
}

/** The steps that change groups and sets, carried out by `scope-apply.ts`. */
export type ScopeStep =
  | {
      type: 'group-create';
      name: string;
      userIds: string[];
      /** Pairs that exist when planning; pairs the plan creates link at their association. */
      pairIds: number[];
      /** A group of the same name being deleted: wait until it is gone. */
      afterDeletionOf?: number | undefined;
    }
  | {
      type: 'group-update';
      listed: UserGroup;
      userIds?: string[] | undefined;
      pairIds?: number[] | undefined;
    }
  | { type: 'group-delete'; listed: UserGroup }
  | {
      type: 'set-create';
      name: string;
      description: string;
      pairs: IdRef[];
      isPublic: boolean;
      groups: IdRef[];
      users: string[];
      afterDeletionOf?: number | undefined;
    }
  | {
      type: 'set-update';
      listed: DocumentSetSummary;
      description?: string | undefined;
      pairs: IdRef[];
      isPublic: boolean;
      groups: IdRef[];
      users: string[];
    }
  | { type: 'set-delete'; listed: DocumentSetSummary };

/** One connector of the desired state with the pair change the plan made for it. */
export interface FilePair {
  desired: DesiredConnector;
  change: PlannedPair;
}

/** What the plan lends the scope planner. */
export interface ScopeHost {
  readonly prune: boolean;
  readonly pairs: readonly ConnectorStatus[];
  readonly credentials: readonly Credential[];
  /** The file's connectors and their pair changes, in file order. */
  readonly filePairs: readonly FilePair[];
  readonly warnings: string[];
  readonly created: CreatedRecords;
  add(change: PlannedChange, step?: ScopeStep): void;
  /** Groups a pair the plan creates is associated with. */
  linkOnCreate(change: PlannedPair, groups: readonly IdRef[]): void;
}

/** The server's groups and sets, each listed only when the desired state or a prune needs it. */
export interface ScopeState {
  /** With the seeded groups (`is_default`); undefined when not read. */
  groups: UserGroup[] | undefined;
  sets: DocumentSetSummary[] | undefined;
}

/** What `apply` lends the steps of groups and sets. */
export interface ScopeRun {
  kis: KisClient;
  request: RequestOptions;
  created: CreatedRecords;
  syncWaitMs: number;
  onSyncWait: ((what: string) => void) | undefined;
}
