/**
 * Redaction of secrets. The client knows its API key; every string that leaves it (log lines,
 * error messages, error bodies) goes through a `Redactor` that replaces the key and any bearer
 * token with `[REDACTED]`.
 */

export const REDACTED = '[REDACTED]';

// A token after "Bearer": not a placeholder (`Bearer <API key>`) and not a word of prose
// (`a Bearer token`, which servers' own hints contain): tokens have a digit or one of `-._~+/=`.
// The client's own key is redacted wherever it appears, whatever precedes it.
const BEARER_RE = /(bearer\s+)(?!<)(?=[^\s"',;]*[\d._~+/=-])[^\s"',;]+/gi;
const SENSITIVE_HEADER_RE = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

export type Redactor = {
  /** Replace the key and any `Bearer <token>` in a string. */
  text(s: string): string;
  /** Deep copy of a JSON-like value with every string redacted. */
  value<T>(v: T): T;
  /** Copy of headers as a plain object with sensitive ones replaced. */
  headers(h: Headers | Record<string, string> | undefined): Record<string, string>;
};

export function createRedactor(secret: string): Redactor {
  const text = (s: string): string => {
    let out = s;
    if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (/bearer/i.test(out)) out = out.replace(BEARER_RE, `$1${REDACTED}`);
    return out;
  };
  const value = <T>(v: T, depth = 0): T => {
    if (typeof v === 'string') return text(v) as T;
    if (v === null || typeof v !== 'object' || depth > 32) return v;
    if (Array.isArray(v)) return v.map((x) => value(x, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      out[text(k)] = SENSITIVE_HEADER_RE.test(k) ? REDACTED : value(x, depth + 1);
    }
    return out as T;
  };
  const headers = (h: Headers | Record<string, string> | undefined): Record<string, string> => {
    const out: Record<string, string> = {};
    if (!h) return out;
    const entries = h instanceof Headers ? h.entries() : Object.entries(h);
    for (const [k, v] of entries)
      out[k.toLowerCase()] = SENSITIVE_HEADER_RE.test(k) ? REDACTED : text(String(v));
    return out;
  };
  return { text, value: (v) => value(v), headers };
}
