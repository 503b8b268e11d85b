// Every operation of the spec, by operationId. Requests reach these handlers authenticated and
// validated against the spec; the handlers apply the service's rules (the rule book and the
// profile's behaviour) on top. The `Handlers` type makes a missing handler a type error.
import type { Handlers } from '../op-types.js';
import { attemptListingHandlers } from './attempt-listings.js';
import { connectorHandlers } from './connectors.js';
import type { HandlerContext } from './context.js';
import { credentialHandlers } from './credentials.js';
import { documentAdminHandlers } from './document-admin.js';
import { documentCheckHandlers } from './document-checks.js';
import { documentSetHandlers } from './document-sets.js';
import { fileHandlers } from './files.js';
import { identityHandlers } from './identity.js';
import { indexingStatusHandlers } from './indexing-status.js';
import { ingestionHandlers } from './ingestion.js';
import { pairControlHandlers } from './pair-control.js';
import { pairHandlers } from './pairs.js';
import { searchHandlers } from './search.js';
import { searchSettingsHandlers } from './search-settings.js';
import { userGroupHandlers } from './user-groups.js';

export type { HandlerContext } from './context.js';
export { prepareIngestion } from './ingestion.js';

export function createHandlers(ctx: HandlerContext): Handlers {
  return {
    ...connectorHandlers(ctx),
    ...pairHandlers(ctx),
    ...pairControlHandlers(ctx),
    ...attemptListingHandlers(ctx),
    ...indexingStatusHandlers(ctx),
    ...credentialHandlers(ctx),
    ...ingestionHandlers(ctx),
    ...documentCheckHandlers(ctx),
    ...documentAdminHandlers(ctx),
    ...searchHandlers(ctx),
    ...searchSettingsHandlers(ctx),
    ...documentSetHandlers(ctx),
    ...userGroupHandlers(ctx),
    ...fileHandlers(ctx),
    ...identityHandlers(ctx),
    getVersion() {
      return { status: 200, body: { backend_version: ctx.version } };
    },
  };
}
