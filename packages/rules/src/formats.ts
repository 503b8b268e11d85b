// How servers of this API read the string formats the OpenAPI document names, where that differs
// from JSON Schema's RFC 3339 reading (ajv-formats). Request validation (the client's compiled
// validators, the emulator, the spec's own tests) uses these, so that nothing the deployed servers
// accept is refused here.
//
// date-time: deployed servers parse it as a Python datetime (pydantic), which takes any ISO 8601
// calendar date or date-time: `T`, `t` or a space between date and time, seconds and fractions
// optional, the offset optional (a timestamp without one is read as UTC; the seed calls the
// field an "ISO 8601 UTC timestamp"), and a bare date (midnight).

/**
 * The shape of an accepted date-time (no calendar check: see `isDateTime`). Its groups: year,
 * month, day, hour, minute, second, fraction, zone, offset sign, offset hours, offset minutes.
 */
export const DATE_TIME_PATTERN: RegExp =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/** True when `value` is a date-time deployed servers accept, calendar included (no 30 February). */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME_PATTERN.exec(value);
  if (m === null) return false;
  const [, y, mo, d, h = '00', mi = '00', s = '00', , , , oh = '00', om = '00'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return (
    days !== undefined &&
    day >= 1 &&
    day <= days &&
    Number(h) <= 23 &&
    Number(mi) <= 59 &&
    Number(s) <= 59 &&
    Number(oh) <= 23 &&
    Number(om) <= 59
  );
}

/**
 * An accepted date-time as an RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS[.fraction]` and `Z` or
 * `±HH:MM`): a value without an offset is read as UTC, a bare date as midnight UTC. Anything else
 * is returned as it is.
 */
export function toRfc3339(value: string): string {
  const m = DATE_TIME_PATTERN.exec(value);
  if (m === null) return value;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone, sign, oh, om = '00'] = m;
  const offset = sign === undefined ? 'Z' : `${sign}${oh}:${om}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${zone === undefined ? 'Z' : offset}`;
}
