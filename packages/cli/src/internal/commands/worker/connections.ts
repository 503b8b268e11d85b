/**
 * `kis worker --connection NAME=ENV_VAR`: the databases this worker reads SQL jobs from, by the
 * names jobs give, each connection string taken from this machine's environment, so a password
 * never travels through the queue nor shows in the process list. Its password joins the secrets.
 */
import { UsageError } from '../../errors.js';
import type { Io } from '../../output.js';
import { addPassword, type Secrets } from '../../secrets.js';

/** `NAME=ENV_VAR`: the name of the connection, and the variable that holds it. */
const PAIR = /^([A-Za-z0-9_.-]{1,64})=([A-Za-z_][A-Za-z0-9_]*)$/;

/** Repeated `--connection` values, in order. */
export function connectionArg(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The connection strings by name; a usage error naming the flag value (never a URL's password). */
export function workerConnections(
  given: readonly string[] | undefined,
  env: Io['env'],
  secrets: Secrets,
): Record<string, string> | undefined {
  if (given === undefined || given.length === 0) return undefined;
  const connections: Record<string, string> = {};
  for (const value of given) {
    const match = PAIR.exec(value);
    if (!match) {
      // a connection string given here would be in the process list: shown only by its scheme
      const shown = value.includes('://') ? 'a connection string' : `"${value}"`;
      throw new UsageError(
        `--connection: expected NAME=ENV_VAR, the name SQL jobs give and the environment variable holding its connection string (got ${shown})`,
      );
    }
    const name = match[1] as string;
    const variable = match[2] as string;
    const url = env[variable];
    if (url === undefined || url.trim() === '') {
      throw new UsageError(
        `--connection ${value}: environment variable ${variable} is not set (it holds the connection string of "${name}")`,
      );
    }
    if (Object.hasOwn(connections, name)) {
      throw new UsageError(`--connection: "${name}" is given twice`);
    }
    try {
      addPassword(secrets, new URL(url.trim()).password);
    } catch {
      // not a URL: startWorker says so, without the value
    }
    connections[name] = url.trim();
  }
  return connections;
}
