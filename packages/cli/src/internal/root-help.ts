/**
 * What `kis --help` says after the commands: the environment, the exit codes and examples. What it
 * says about the service comes from the rule book (`@kis/rules`), never a copy.
 */
import { permissionFor, ROLES, roleAllows } from '@kis/rules';
import { EXAMPLES } from './help-text.js';

/** The roles that may manage connectors and credentials on deployed servers: `curator or admin`. */
const MANAGING_ROLES = ROLES.filter((role) => roleAllows(role, 'curator')).join(' or ');
/** The main line's permission for connector and credential calls: `manage:connectors`. */
const MANAGING_PERMISSION = permissionFor('createConnector')?.permission ?? 'manage:connectors';
/** The highest role: `admin`. */
const TOP_ROLE = ROLES[ROLES.length - 1];

export const ROOT_HELP_AFTER = `
Environment:
  KIS_BASE_URL   API root including /api, e.g. http://localhost:8080/api
  KIS_ALLOW_INSECURE_HTTP  1: allow a plain http:// base URL on another host (the key is readable on the way)
  KIS_API_KEY    API key. Connector and credential commands need the ${TOP_ROLE} role on servers
                 that follow the seed; release 4.6.1 takes ${MANAGING_ROLES}, and asks for it
                 on ingest and docs commands too; on the main line a key holds the grants of
                 its groups (${MANAGING_PERMISSION}). kis doctor shows what a key may use
  KIS_QUEUE      Redis URL of a queue (queue mode) for kis worker and kis queue, e.g. redis://127.0.0.1:6379/0
  NO_COLOR       disable colours

Exit codes:
  0  all good
  1  some items failed (each failure is listed); a set or group still syncing (run it again, or --wait)
  2  usage or input error
  3  authentication, connection or server-side failure that stopped the command, and refusals
     of the key or the server: a key out of its groups' scope, user groups without the
     enterprise edition (404) or below the Business plan (402)
  130 interrupted (Ctrl-C); in-flight requests were finished and recorded
${EXAMPLES([
  'kis emulator --port 8080 &',
  'export KIS_BASE_URL=http://127.0.0.1:8080/api KIS_API_KEY=…',
  'kis connector create --name docs --source file --config \'{"file_locations": []}\'',
  'kis ingest ./docs --cc-pair 2 --journal .kis/docs.jsonl',
  'kis verify ./docs --cc-pair 2 --journal .kis/docs.jsonl',
])}`;
