/**
 * `@kis/rules`: the rules of the service that a schema cannot say, written once beside the
 * OpenAPI document (packages/spec) and read by the client, the emulator, the CLI and the apps
 * (docs/deployed-servers.md explains each). Browser-safe: no Node built-ins.
 */

export { profileAcceptsAccessType } from './access-types.js';
export type {
  ConnectorField,
  ConnectorFieldGroup,
  ConnectorFieldsTable,
  SourceFields,
} from './connector-fields.js';
export {
  DERIVED_ID_PREFIX,
  DocumentIdError,
  deriveDocumentId,
  normalizeDocumentId,
  rawDerivedId,
  storedDocumentId,
} from './document-id.js';
export {
  contentTypeOf,
  extensionOf,
  extensionsFor,
  FILE_KINDS,
  type FileKind,
  type FileKindInfo,
  fileKindOf,
} from './file-kinds.js';
export { DATE_TIME_PATTERN, isDateTime, toRfc3339 } from './formats.js';
export {
  ANSWERS,
  type Answer,
  DEFAULT_PROFILE,
  isNotAuthenticated,
  isRouteNotFound,
  isUnknownCredential,
  NOT_AUTHENTICATED_DETAIL,
  PROFILES,
  type Profile,
  parseValidationMessage,
  type ValidationItem,
  validationMessage,
} from './profiles.js';
export { pyRepr, pyStr } from './python.js';
export { ROLES, type Role, roleAllows } from './roles.js';
export { ROUTE_VARIANTS, type RouteGroup } from './routes.js';
export {
  isMaskedValue,
  MASK_EXEMPT_KEYS,
  MASK_MIN_LENGTH,
  maskCredentialJson,
  maskSecret,
  NUMBER_MASK,
  SHORT_SECRET_MASK,
} from './secrets.js';
export {
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  DEFAULT_CREDENTIAL_SOURCE,
  DEFAULT_DOCUMENT_SOURCE,
  needsCredential,
  profileAcceptsSource,
  SOURCE_RELEASES,
  SOURCES_WITHOUT_CREDENTIAL,
} from './sources.js';
