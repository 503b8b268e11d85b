/**
 * How servers show a credential's secrets (docs/deployed-servers.md, "Listing, updating and
 * deleting"): every answer that carries a `credential_json` carries it masked. A string shorter
 * than 14 characters becomes twelve bullets; a longer one keeps its first and last four characters
 * around `...`; a number becomes `*****`; booleans and nulls stay; objects and lists are masked
 * inside. A few keys are shown as they are. Masks are not secrets: sending a masked value back
 * stores the mask, so secrets are compared by what the user gave, never by what a server shows.
 */

type JsonObject = Record<string, unknown>;

/** Keys of `credential_json` (at any depth of objects) whose string values are never masked. */
export const MASK_EXEMPT_KEYS: readonly string[] = Object.freeze([
  'authentication_method',
  'wiki_base',
  'cloud_name',
  'cloud_id',
]);

/** What a string shorter than `MASK_MIN_LENGTH` characters reads as: twelve U+2022 bullets. */
export const SHORT_SECRET_MASK = '\u2022'.repeat(12);
/** What a number reads as. */
export const NUMBER_MASK = '*****';
/** Strings of at least this many characters keep their first and last four. */
export const MASK_MIN_LENGTH = 14;

const VISIBLE = 4;
const EXEMPT = new Set(MASK_EXEMPT_KEYS);
/** The long form: four characters, `...`, four characters (characters as code points). */
const LONG_MASK = /^.{4}\.\.\..{4}$/su;

/** One string as servers mask it (lengths count code points, as Python's `len` does). */
export function maskSecret(value: string): string {
  const chars = Array.from(value);
  if (chars.length < MASK_MIN_LENGTH) return SHORT_SECRET_MASK;
  return `${chars.slice(0, VISIBLE).join('')}...${chars.slice(-VISIBLE).join('')}`;
}

function maskItem(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') {
    return key !== undefined && EXEMPT.has(key) ? value : maskSecret(value);
  }
  if (value === null || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((item) => maskItem(item, undefined));
  if (typeof value === 'object') return maskCredentialJson(value as JsonObject);
  return NUMBER_MASK;
}

/** A `credential_json` as servers show it in their answers. The argument is not changed. */
export function maskCredentialJson(json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) out[key] = maskItem(value, key);
  return out;
}

/**
 * True for a value `maskCredentialJson` produces from a secret: twelve bullets (any bullet,
 * really), the `abcd...wxyz` form, or `*****`. A genuine value of that form reads as masked too.
 */
export function isMaskedValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  return value.includes('\u2022') || value === NUMBER_MASK || LONG_MASK.test(value);
}
