/** Types of `kis.doctor()`: what it checks about a server, a base URL and a key. */
import type { ModelSwitchNotice } from './model-switch.js';
import type { PrunePreview } from './prune-preview.js';
import type { RequestOptions } from './request-options.js';

export interface DoctorOptions extends RequestOptions {
  /** Also check that this connector/credential pair exists, and count its documents. */
  ccPairId?: number | undefined;
}

/** One check: what was checked, whether it passed, what was seen, and how to fix a failure. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Passed, with something to know (a pair a prune could empty, a model switch). */
  warning?: boolean | undefined;
  detail: string;
  fix?: string | undefined;
}

/**
 * Where the key's rights come from, as `GET /me` says: a `role` (release 4.6.1), or a service
 * account whose `permissions` are its groups' grants (the main line); `unknown` when the server
 * has no `/me` (servers that follow the seed) or its answer says neither.
 */
export type DoctorKey =
  | {
      model: 'role';
      role: string;
      /**
       * Whose role checks the server makes: release 4.6.1's, or the seed's (a server that answers
       * `/me` but refuses keys with the seed's 403, like the emulator's seed profile).
       */
      checks: 'v4.6.1' | 'seed';
    }
  | {
      model: 'groups';
      /** `SERVICE_ACCOUNT` for API keys. */
      accountType: string;
      /** Effective permissions, implied ones included, sorted. */
      permissions: string[];
      /** Whether the key manages a group (scoped calls then reach that group's pairs). */
      groupManager: boolean;
    }
  | { model: 'unknown'; reason: string };

/** The client's groups of calls: `kis.connectors` and `kis.pairs`, `kis.credentials`, … */
export type AccessGroup = 'connectors' | 'credentials' | 'ingestion' | 'documents';

/** Whether the key may use a group of calls, by the rule book's access rules. */
export interface DoctorAccess {
  group: AccessGroup;
  /** Every call of the group passes the server's check of the key. */
  allowed: boolean;
  /** The calls (operation ids of the spec) the server refuses this key, each with what it needs. */
  refused: { operationId: string; needs: string }[];
}

export interface DoctorReport {
  /** The checks that ran, in order (a check that cannot run after a failure is left out). */
  checks: DoctorCheck[];
  summary: {
    /** Every check passed. */
    ok: boolean;
    passed: number;
    failed: number;
    /** Checks that passed with a warning (counted in `passed` too). */
    warnings: number;
    /** False when the server did not answer at all (no connection, or a time-out). */
    reachable: boolean;
  };
  /** The key's model, when the key was accepted. */
  key?: DoctorKey | undefined;
  /** Per group of calls, whether the key may use it (when its model is known). */
  access?: DoctorAccess[] | undefined;
  /** The model switch in progress (null: none), when the server says. */
  modelSwitch?: ModelSwitchNotice | null | undefined;
  /** The pairs whose prune would delete documents, when the key may list pairs. */
  pruneRisks?: PrunePreview[] | undefined;
}
