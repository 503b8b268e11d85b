/**
 * The verification and scoping calls in one chunk of their own, loaded on first use
 * (`on-first-use.ts`): most apps only ingest, so `import '@kis/client'` does not load them.
 */

export { documentAdmin } from './document-admin.js';
export { documentSetsResource } from './document-sets.js';
export { listingResource } from './listing.js';
export { searchResource } from './search.js';
export { searchSettingsResource } from './search-settings.js';
export { userGroupsResource } from './user-groups.js';
