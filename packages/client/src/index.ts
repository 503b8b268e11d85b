/**
 * @kis/client: the typed client of the Knowledge Indexing Service API, browser-safe. Under Node
 * (the package's `node` export condition) the same API sends over undici (index.node.ts).
 */
export { DocumentIdError, deriveDocumentId, normalizeDocumentId } from '@kis/rules';
export { createKisClient } from './client.js';
export type {
  AccessGroup,
  DoctorAccess,
  DoctorCheck,
  DoctorKey,
  DoctorOptions,
  DoctorReport,
} from './doctor.js';
export * from './exports.js';
