// The two server profiles the emulator plays (`@kis/rules`: `seed`, `deployed`): what each
// does differently, in one table, and each profile's view of the OpenAPI document. Error answers
// that differ by profile come from the rule book's `ANSWERS`; the switches below are the
// behaviours that are not an answer of their own.
import {
  ANSWERS,
  DEFAULT_PROFILE,
  DEPLOYED_LINES,
  type DeployedLine,
  PROFILES,
  type Profile,
  profileAcceptsAccessType,
  profileAcceptsSource,
  pyStr,
  type ServerKind,
  serverKindOf,
} from '@kis/rules';
import type { BeforeValidator } from './coerce.js';
import { AnswerError } from './errors.js';
import type { OpenApiDocument } from './validation.js';

export interface ProfileBehaviour {
  /** JSON bodies are read as pydantic's lax mode reads them (`coerce.ts`) before validation. */
  laxJson: boolean;
  /** A body that is not JSON is answered 422 before the key is checked (FastAPI reads it first). */
  decodeBeforeAuth: boolean;
  /** Routes match the decoded path: a path parameter holding `%2F` is a path with one more segment. */
  matchDecodedPath: boolean;
  /** Every `image_file_id` must name an uploaded file (422 otherwise). */
  checkImageFileIds: boolean;
  /** Association checks that the credential's source fits the connector's (400 otherwise). */
  checkPairSources: boolean;
  /** Deleting a document also tries the path's raw (still encoded) id when the decoded one is unknown. */
  retryRawDocumentId: boolean;
  /** Documents with no title, no semantic identifier and no text are skipped (answered as existing). */
  skipEmptyDocuments: boolean;
  /** `chunk_count`, `additional_info`, `doc_metadata`, `external_access`, hierarchy ids are dropped. */
  dropIngestionExtras: boolean;
  /** The `link` listed for a document without one. */
  missingLink: string | null;
  /** Credential list items show the groups they were created with (deployed servers: always `[]`). */
  credentialGroups: boolean;
  /** `credential_json.authentication_method: certificate` is refused on credential creation. */
  refuseCertificateCredentials: boolean;
}

export const BEHAVIOUR: Readonly<Record<Profile, ProfileBehaviour>> = Object.freeze({
  seed: Object.freeze({
    laxJson: false,
    decodeBeforeAuth: false,
    matchDecodedPath: false,
    checkImageFileIds: true,
    checkPairSources: true,
    retryRawDocumentId: true,
    skipEmptyDocuments: false,
    dropIngestionExtras: false,
    missingLink: null,
    credentialGroups: true,
    refuseCertificateCredentials: false,
  }),
  deployed: Object.freeze({
    laxJson: true,
    decodeBeforeAuth: true,
    matchDecodedPath: true,
    checkImageFileIds: false,
    checkPairSources: false,
    retryRawDocumentId: false,
    skipEmptyDocuments: true,
    dropIngestionExtras: true,
    missingLink: '',
    credentialGroups: false,
    refuseCertificateCredentials: true,
  }),
});

/** The profile named by `value`, or an error naming `where` and the expected values. */
export function parseProfile(value: unknown, where = 'profile'): Profile {
  if (value === undefined) return DEFAULT_PROFILE;
  if (typeof value === 'string' && (PROFILES as readonly string[]).includes(value)) {
    return value as Profile;
  }
  throw new RangeError(
    `${where} must be one of ${PROFILES.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

/** The release names `--release` takes: each deployed line, the release also without its `v`. */
export const RELEASE_NAMES: readonly string[] = Object.freeze(
  DEPLOYED_LINES.flatMap((line) => (line.startsWith('v') ? [line.slice(1), line] : [line])),
);

/**
 * The deployed line named by `value` (`4.6.1` or `v4.6.1`, `main`); without one, `main` for the
 * `deployed` profile and none for the seed's, which plays no release (an error names `where`).
 */
export function parseRelease(
  value: unknown,
  profile: Profile,
  where = 'release',
): DeployedLine | undefined {
  if (value === undefined) return profile === 'deployed' ? 'main' : undefined;
  const line = DEPLOYED_LINES.find((l) => l === value || l === `v${String(value)}`);
  if (typeof value !== 'string' || line === undefined) {
    throw new RangeError(
      `${where} must be one of ${RELEASE_NAMES.filter((n) => !n.startsWith('v')).join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  if (profile !== 'deployed') {
    throw new RangeError(`${where} needs the deployed profile (the seed profile plays no release)`);
  }
  return line;
}

/** The kind of server the emulator plays: the seed's, or the deployed release (main by default). */
export function serverKind(profile: Profile, release: DeployedLine | undefined): ServerKind {
  return profile === 'deployed' && release !== undefined ? release : serverKindOf(profile);
}

/**
 * Enumerations a profile narrows, by component schema name. Deployed servers play the newest
 * release (no `requesttracker`) and accept only the lower-case access types.
 */
const ENUM_FILTERS: Record<string, (profile: Profile, value: unknown) => boolean> = {
  DocumentSource: (profile, value) => profileAcceptsSource(profile, String(value)),
  AccessType: (profile, value) => profileAcceptsAccessType(profile, String(value)),
};

/** The OpenAPI document as a server of `profile` validates requests with it. */
export function profileSpec(doc: OpenApiDocument, profile: Profile): OpenApiDocument {
  if (profile === 'seed') return doc;
  const copy = structuredClone(doc);
  const schemas = (copy.components?.schemas ?? {}) as Record<string, unknown>;
  for (const [name, keep] of Object.entries(ENUM_FILTERS)) {
    const schema = schemas[name] as { enum?: unknown[] } | undefined;
    if (Array.isArray(schema?.enum)) schema.enum = schema.enum.filter((v) => keep(profile, v));
  }
  return copy;
}

/**
 * Deployed servers' `metadata` validator (`mode="before"`): every value becomes `str(value)`, a
 * list becomes a list of `str(item)`; anything but an object fails inside the validator with a
 * Python error, which the server answers with a 500.
 */
function metadataToStrings(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AnswerError(ANSWERS.internalError('deployed'));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = Array.isArray(item) ? item.map(pyStr) : pyStr(item);
  }
  return out;
}

/** Before-validators by the `x-kis-coerce` value that names them in the spec. */
const COERCERS: Readonly<Record<string, BeforeValidator>> = { 'python-str': metadataToStrings };

/**
 * Model-level before-validators of a profile, by the JSON pointer of the schema they run on: the
 * schemas the spec marks with `x-kis-coerce` (deployed servers only).
 */
export function beforeValidators(
  profile: Profile,
  doc: OpenApiDocument,
): ReadonlyMap<string, BeforeValidator> {
  const found = new Map<string, BeforeValidator>();
  if (profile !== 'deployed') return found;
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null) return;
    const mark = (node as Record<string, unknown>)['x-kis-coerce'];
    if (typeof mark === 'string') {
      const coercer = COERCERS[mark];
      if (coercer === undefined) throw new Error(`${pointer}: unknown x-kis-coerce "${mark}"`);
      found.set(pointer, coercer);
    }
    for (const [key, value] of Object.entries(node)) {
      walk(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(doc.components, '/components');
  return found;
}
