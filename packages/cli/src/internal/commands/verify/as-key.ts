/**
 * `--as ENV`: the other key a verification checks what it sees, read from the environment
 * variable ENV names (never from the command line, where the process list would show it). The key
 * joins the secrets every output is redacted of, and its client is the command's with it.
 */
import { createKisClient, type KisClient } from '@kis/client';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The client of the key in environment variable `name`; usage errors that never show the key. */
export async function asKeyClient(ctx: Context, name: string): Promise<KisClient> {
  if (!ENV_NAME.test(name)) {
    // perhaps the key itself: never shown, and redacted should anything else print it
    ctx.secrets.add(name);
    throw new UsageError(
      '--as: expected the name of an environment variable holding the key (e.g. --as TEAM_KEY); the value given is not one, and is not shown',
    );
  }
  const key = ctx.io.env[name]?.trim();
  if (key === undefined || key === '') {
    throw new UsageError(`--as ${name}: the environment variable ${name} is not set or empty`);
  }
  ctx.secrets.add(key);
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(
      `--as ${name}: expected an API key of printable ASCII characters without spaces`,
    );
  }
  const connection = await ctx.connection();
  if (key === connection.apiKey) {
    throw new UsageError(
      `--as ${name}: it holds the same key the command uses; give another key to check what it sees`,
    );
  }
  return createKisClient({
    ...ctx.clientOptions({ ...connection, apiKey: key }),
    callsOn: 'undici',
  });
}
