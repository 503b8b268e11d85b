/**
 * Python's `repr()` and `str()` of values decoded from JSON: how deployed servers turn a metadata
 * value into a string (`1` → `"1"`, `true` → `"True"`, `[1, "a"]` → `"[1, 'a']"`) and how they
 * print validation errors. A JSON number is read as an int when it is whole (JavaScript cannot
 * tell `1.0` from `1`).
 */

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** `repr()` of a Python str. */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === ' ' || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code < 0x100) out += `\\x${hex(code, 2)}`;
    else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

/** `repr()` of a Python float: shortest round-trip digits, exponent outside 1e-4 ≤ |x| < 1e16. */
function reprFloat(n: number): string {
  const [mantissa = '0', exp = '0'] = n.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const point = Number(exp) + 1; // position of the decimal point after the first digit
  let body: string;
  if (point > -4 && point <= 16) {
    if (point <= 0) body = `0.${'0'.repeat(-point)}${digits}`;
    else if (point >= digits.length) body = `${digits}${'0'.repeat(point - digits.length)}.0`;
    else body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  } else {
    const e = point - 1;
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    body = `${digits[0]}${frac}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return negative ? `-${body}` : body;
}

function reprNumber(n: number): string {
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  return reprFloat(n);
}

/** Python's `repr()` of a JSON value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${reprString(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

/** Python's `str()` of a JSON value: a string stays as it is, anything else is its `repr()`. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}
