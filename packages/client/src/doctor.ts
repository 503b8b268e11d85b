/** Types of `kis.doctor()`: what it checks about a server, a base URL and a key. */
import type { RequestOptions } from './request-options.js';

export interface DoctorOptions extends RequestOptions {
  /** Also check that this connector/credential pair exists, and count its documents. */
  ccPairId?: number | undefined;
}

/** One check: what was checked, whether it passed, what was seen, and how to fix a failure. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string | undefined;
}

export interface DoctorReport {
  /** The checks that ran, in order (a check that cannot run after a failure is left out). */
  checks: DoctorCheck[];
  summary: {
    /** Every check passed. */
    ok: boolean;
    passed: number;
    failed: number;
    /** False when the server did not answer at all (no connection, or a time-out). */
    reachable: boolean;
  };
}
