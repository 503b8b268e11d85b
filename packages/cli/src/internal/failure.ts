import { STATUS_CODES } from 'node:http';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  ConfigValidationError,
  ConnectorSetupError,
  DocumentValidationError,
  FeatureUnavailableError,
  HtmlResponseError,
  InternalServerError,
  KisError,
  PermissionDeniedError,
  SyncInProgressError,
} from '@kis/client';
import { denialOf } from '@kis/rules';
import { CliError, ExitCode, type ExitCodeValue, oneLine } from './errors.js';

/** What to say about an error and how the command ends because of it. */
export interface Failure {
  /** One line, naming the URL or the thing at fault. */
  message: string;
  /** Exit code when this error ends the command. */
  exitCode: ExitCodeValue;
  /**
   * True when the error is about the server or the connection rather than one item (wrong key,
   * server down, HTML instead of the API): a bulk command stops at once.
   */
  fatal: boolean;
}

const NET_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
};

/** Turns anything thrown into a message, an exit code and whether it stops a bulk command. */
export function describeFailure(error: unknown, baseUrl: string | undefined): Failure {
  const at = baseUrl ?? 'the server';
  if (error instanceof CliError) {
    return { message: error.message, exitCode: error.exitCode, fatal: true };
  }
  if (ConnectorSetupError.isInstance(error)) {
    const message = connectorSetupMessage(error);
    if (error.cause === undefined) {
      return { message, exitCode: ExitCode.ItemsFailed, fatal: false };
    }
    const inner = describeFailure(error.cause, baseUrl);
    // A wrong key or a server that is down says so plainly; other failures say which step failed
    // and what exists already.
    return { ...inner, message: inner.fatal ? inner.message : message };
  }
  // a rejected key, whether the server says so with 401 or (deployed servers) with 403
  if (AuthenticationError.isInstance(error)) {
    return {
      message: `authentication failed: ${at} answered ${statusLine(error.status)}; the API key was rejected (check --api-key, --api-key-file or KIS_API_KEY)`,
      exitCode: ExitCode.Fatal,
      fatal: true,
    };
  }
  if (PermissionDeniedError.isInstance(error)) {
    const advice = scopeAdvice(error) ?? denialAdvice(error) ?? roleAdvice(error.roles);
    return {
      message: `permission denied: ${at} answered ${statusLine(error.status)}${serverDetail(error)}; ${advice}`,
      exitCode: ExitCode.Fatal,
      fatal: true,
    };
  }
  if (FeatureUnavailableError.isInstance(error)) {
    return { message: featureMessage(error, at), exitCode: ExitCode.Fatal, fatal: true };
  }
  if (SyncInProgressError.isInstance(error)) {
    return {
      message: `not now: ${at} answered ${statusLine(error.status)}${serverDetail(error)}; its last change is still syncing: run the command again once kis docset list (kis group list for a group) shows it synced; --wait on a change waits for its sync`,
      exitCode: ExitCode.ItemsFailed,
      fatal: false,
    };
  }
  if (HtmlResponseError.isInstance(error)) {
    return {
      message: `${at} answered with an HTML page (HTTP ${error.status}) instead of the API's JSON: is the /api prefix missing from the base URL, or is a proxy or login page in front of the API?`,
      exitCode: ExitCode.Fatal,
      fatal: true,
    };
  }
  if (APITimeoutError.isInstance(error)) {
    return { message: `${oneLine(error)} (server: ${at})`, exitCode: ExitCode.Fatal, fatal: false };
  }
  if (APIConnectionError.isInstance(error)) {
    // the client sets the system code (ECONNREFUSED...) of a connection failure
    const reason =
      (error.code === undefined ? undefined : NET_REASONS[error.code]) ?? oneLine(error);
    return {
      message: `cannot connect to ${at}: ${reason}`,
      exitCode: ExitCode.Fatal,
      fatal: true,
    };
  }
  if (InternalServerError.isInstance(error)) {
    return { message: `server error: ${oneLine(error)}`, exitCode: ExitCode.Fatal, fatal: false };
  }
  if (DocumentValidationError.isInstance(error) || ConfigValidationError.isInstance(error)) {
    return { message: oneLine(error), exitCode: ExitCode.Usage, fatal: false };
  }
  if (APIError.isInstance(error) || KisError.isInstance(error)) {
    return { message: oneLine(error), exitCode: ExitCode.ItemsFailed, fatal: false };
  }
  return {
    message: `unexpected error: ${oneLine(error)}`,
    exitCode: ExitCode.ItemsFailed,
    fatal: false,
  };
}

/** "403 Forbidden". */
function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** What to do about a key without the role: the roles that may call the operation, if known. */
function roleAdvice(roles: readonly string[] | undefined): string {
  return roles && roles.length > 0
    ? `the API key was accepted but lacks the role: use a key that can manage connectors (${roles.join(' or ')})`
    : 'the API key was accepted but lacks the role this call needs';
}

/**
 * What to do about a deployed server's refusal of the key, by why it refused (the rule book's
 * `denialOf`); undefined for other 403s, which the roles explain.
 */
function denialAdvice(error: PermissionDeniedError): string | undefined {
  switch (denialOf(error.status, error.body)) {
    case 'missing-permission':
      return "the API key was accepted but lacks the permission this call needs (a key holds its groups' grants; `kis doctor` shows what it holds and the group to add it to)";
    case 'not-curator-or-admin':
      return "the API key was accepted but its role is neither curator nor admin (`kis doctor` shows the key's role)";
    case 'limited-key':
      return 'the API key was accepted but holds no permission at all (a limited key; `kis doctor` shows what it lacks)';
    default:
      return undefined;
  }
}

/** Why a group manager or curator was refused, by the reason the client read (scope-refusals). */
function scopeAdvice(error: PermissionDeniedError): string | undefined {
  switch (error.reason) {
    case 'out-of-scope':
      return 'the key acts only within the groups it manages (a group manager; a curator on release 4.6.1): it may change private sets and pairs of those groups only, so name only such groups and pairs, or use an admin key';
    case 'admins-only':
      return 'only administrators (global holders of the permission) may do this to a shared object: use an admin key';
    case 'default-group':
      return 'the groups every server seeds (Admin, Basic) cannot be renamed, deleted or given pairs';
    default:
      return undefined;
  }
}

/** What a server without a feature says: its edition, its plan, or its release. */
function featureMessage(error: FeatureUnavailableError, at: string): string {
  const answered = `${at} answered ${statusLine(error.status)}`;
  switch (error.reason) {
    case 'edition':
      return `${error.feature}: not on this server: ${answered} (no such route): it runs the community edition, and ${error.feature} need the enterprise edition`;
    case 'plan':
      return `${error.feature}: not in this server's plan: ${answered} (FEATURE_NOT_AVAILABLE): it needs the ${error.requiredTier ?? 'higher'} plan`;
    default:
      return `${error.feature}: not on this server: ${answered} (no such route): it needs release ${error.sinceRelease ?? 'a newer release'} or later`;
  }
}

function serverDetail(error: KisError): string {
  const body = error.body as { detail?: unknown; message?: unknown } | undefined;
  const text =
    typeof body?.detail === 'string'
      ? body.detail
      : typeof body?.message === 'string'
        ? body.message
        : '';
  return text ? ` ("${text.slice(0, 160)}")` : '';
}

/**
 * What `kis connector create` says when the set-up stops, in the command line's words (flags and
 * commands, not library calls), from the error's structured `problem`.
 */
export function connectorSetupMessage(error: ConnectorSetupError): string {
  const p = error.problem;
  const nothing = 'no connector was created';
  switch (p.kind) {
    case 'ambiguous-credential':
      return `${p.credentialIds.length} credentials have source "${p.source}" (ids ${p.credentialIds.join(', ')}): choose one with --credential ID; ${nothing}`;
    case 'no-credential':
      return `no credential has source "${p.source}" (credentials exist for: ${p.availableSources.join(', ') || 'none'}): create one with \`kis credential create --source ${p.source} --credential-json @FILE\`, or choose one with --credential ID; ${nothing}`;
    case 'unknown-credential':
      return `--credential ${p.credentialId}: no such credential (ids: ${p.availableIds.join(', ') || 'none'}; see \`kis credential list\`); ${nothing}`;
    case 'credential-source-mismatch':
      return `--credential ${p.credentialId}: that credential is for source "${p.credentialSource}", not "${p.source}" (see \`kis credential list --source ${p.source}\`); ${nothing}`;
    default:
      break;
  }
  const reason = oneLine(p.reason);
  if (error.stage === 'credential') return `listing credentials failed: ${reason}; ${nothing}`;
  if (error.stage === 'create') return `creating the connector failed: ${reason}`;
  return `connector ${error.connectorId} was created but is not associated with credential ${error.credentialId}: ${reason}; finish with: kis connector associate ${error.connectorId} --credential ${error.credentialId}`;
}
