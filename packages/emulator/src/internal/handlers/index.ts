// Every operation of the spec, by operationId. Requests reach these handlers authenticated and
// validated against the spec; the handlers apply the service's rules (the rule book and the
// profile's behaviour) on top. The `Handlers` type makes a missing handler a type error.
import type { Handlers } from '../op-types.js';
import { connectorHandlers } from './connectors.js';
import type { HandlerContext } from './context.js';
import { credentialHandlers } from './credentials.js';
import { fileHandlers } from './files.js';
import { ingestionHandlers } from './ingestion.js';
import { pairHandlers } from './pairs.js';

export type { HandlerContext } from './context.js';
export { prepareIngestion } from './ingestion.js';

export function createHandlers(ctx: HandlerContext): Handlers {
  return {
    ...connectorHandlers(ctx),
    ...pairHandlers(ctx),
    ...credentialHandlers(ctx),
    ...ingestionHandlers(ctx),
    ...fileHandlers(ctx),
    getVersion() {
      return { status: 200, body: { backend_version: ctx.version } };
    },
  };
}
