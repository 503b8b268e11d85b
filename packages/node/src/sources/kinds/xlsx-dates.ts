/**
 * Dates in Excel workbooks: stored as day numbers, told apart from other numbers only by the
 * cell's number format (ECMA-376 part 1, 18.8.30 lists the built-in formats).
 */

/** Built-in number formats that show a date or a time. */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** Whether the number format `id` (built in, or custom in `custom`) shows a date or a time. */
export function isDateFormat(id: number, custom: ReadonlyMap<number, string>): boolean {
  if (BUILT_IN_DATE_FORMATS.has(id)) return true;
  const code = custom.get(id);
  if (code === undefined) return false;
  // the first section, without literal text ("…", \x), colours and conditions ([Red]) or fills
  const pattern = (code.split(';')[0] ?? '')
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[_*]./g, '');
  return /[dmyhs]/i.test(pattern) && !/^general$/i.test(pattern.trim());
}

const DAY_MS = 86_400_000;

/**
 * A date cell's day number as an ISO date (`2024-03-01`), date and time (`2024-03-01 12:30:00`)
 * or time (`12:30:00`), in the workbook's date system (1900, or 1904 on old Macs).
 */
export function cellDateText(serial: number, date1904: boolean): string {
  // 1900 system: day 1 is 1900-01-01, and day 60 the 29 February 1900 that Lotus 1-2-3 invented
  const epoch = date1904
    ? Date.UTC(1904, 0, 1)
    : Date.UTC(1899, 11, serial >= 1 && serial < 60 ? 31 : 30);
  const ms = Math.round((epoch + serial * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (serial >= 0 && serial < 1) return time;
  return time === '00:00:00' ? date : `${date} ${time}`;
}
