/**
 * What the commands that operate a pair say when a call fails, on one line: an unknown pair (or
 * one out of the key's reach), and a key without the rights, naming the permission the called
 * operation checks (the rule book's `permissionFor`, read with `denialOf` from the 403's body)
 * or, on release 4.6.1, the role it takes. Other failures are left to `describeFailure`.
 */
import { STATUS_CODES } from 'node:http';
import { APIError } from '@kis/client';
import {
  denialOf,
  IMPLIED_PERMISSIONS,
  isPairNotFound,
  LIFECYCLE_TEXTS,
  permissionFor,
  releaseDenial,
  USER_ROLES,
} from '@kis/rules';
import { CliError, ExitCode } from './errors.js';

/** The call that failed: the spec's operation, and what it was doing, in words. */
export interface PairCall {
  /** The spec's `operationId`, e.g. `setCcPairStatus`. */
  operationId: string;
  /** What the command was doing, e.g. "pausing pair 5". */
  doing: string;
  /** The pair the call was about, when there is one. */
  ccPairId?: number | undefined;
  /** The server, for the message. */
  baseUrl: string;
  /**
   * The operation the command is for, when the call only prepares it (a pair check before
   * ingestion): the error names the permission of both, implied ones left out.
   */
  purpose?: string | undefined;
  /** How the error names the pair (default `pair N`), e.g. `--cc-pair 5`. */
  label?: string | undefined;
}

function serverText(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' ? ` ("${detail.slice(0, 160)}")` : '';
}

function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** The release 4.6.1 roles whose keys pass `operationId`: "admin", "basic or admin". */
function passingRoles(operationId: string): string {
  return USER_ROLES.filter((role) => releaseDenial(operationId, role) === undefined).join(' or ');
}

/** The permissions of `call` and of what it prepares, leaving out those another implies. */
function neededPermissions(call: PairCall): string[] {
  const ids = call.purpose === undefined ? [call.operationId] : [call.purpose, call.operationId];
  const tokens = [
    ...new Set(
      ids.map((id) => permissionFor(id)?.permission).filter((t): t is string => t !== undefined),
    ),
  ];
  return tokens.filter((t) => !tokens.some((other) => IMPLIED_PERMISSIONS[other]?.includes(t)));
}

/** The one-line error of a key the server refuses, by why it refuses it; undefined for other 403s. */
function denialError(error: APIError, call: PairCall): CliError | undefined {
  const denial = denialOf(error.status, error.body);
  if (denial === undefined) return undefined;
  const at = `${call.baseUrl} answered ${statusLine(error.status)}${serverText(error.body)}`;
  if (denial === 'missing-permission') {
    const needed = neededPermissions(call).join(' and ') || 'a permission';
    return new CliError(
      `permission denied: ${call.doing} needs ${needed}, which this key lacks: ${at} on ${call.operationId}; add the key to a group that grants ${needed} (kis doctor shows what the key holds)`,
      ExitCode.Fatal,
    );
  }
  const roles = passingRoles(call.purpose ?? call.operationId);
  const why =
    denial === 'limited-key'
      ? 'the key holds no permission at all (a limited key)'
      : "the key's role is neither curator nor admin";
  return new CliError(
    `permission denied: ${call.doing} was refused because ${why}: ${at}; use a key of role ${roles} (kis doctor shows the key's role)`,
    ExitCode.Fatal,
  );
}

/**
 * The one-line error for a failed pair call, or undefined when `describeFailure` words it well
 * already: an unknown pair is an input error (exit 2), a refused key a fatal one (exit 3).
 */
export function pairCallError(error: unknown, call: PairCall): CliError | undefined {
  if (!APIError.isInstance(error)) return undefined;
  if (isPairNotFound(error.status, error.body)) {
    const which =
      call.label ?? (call.ccPairId === undefined ? 'the pair' : `pair ${call.ccPairId}`);
    return new CliError(
      `${which}: no such pair on ${call.baseUrl}, or not one this key may reach (${statusLine(error.status)}${serverText(error.body)})`,
      ExitCode.Usage,
    );
  }
  if (error.status !== 403) return undefined;
  const detail = (error.body as { detail?: unknown } | null)?.detail;
  if (detail === LIFECYCLE_TEXTS.sharedPairDeletion) {
    return new CliError(
      `permission denied: ${call.doing}: ${call.baseUrl} answered 403 ("${detail}"); a pair shared with groups or the public is deleted only by a key holding manage:connectors itself (not as a group manager)`,
      ExitCode.Fatal,
    );
  }
  return denialError(error, call);
}

/** Runs `fn`, turning a failure of the pair call into its one-line error. */
export async function pairCall<T>(call: PairCall, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw pairCallError(error, call) ?? error;
  }
}
