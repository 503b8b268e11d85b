import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { consumerEnv } from './run.js';

export const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** better-sqlite3 builds from source: with Node's installed headers when there are some. */
export const NODE_HEADERS = existsSync('/usr/include/node/node.h') ? '/usr' : undefined;

/** The environment of every command run in a consumer project (see `consumerEnv`). */
export function consumerEnvironment(): NodeJS.ProcessEnv {
  return consumerEnv(workspaceRoot, NODE_HEADERS);
}
