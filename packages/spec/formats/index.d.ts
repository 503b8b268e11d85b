/** The shape of a date-time deployed servers accept (ISO 8601; no calendar check). */
export declare const DATE_TIME_PATTERN: RegExp;
/** True when `value` is a date-time deployed servers accept, calendar included. */
export declare function isDateTime(value: string): boolean;
/** An accepted date-time as an RFC 3339 timestamp (no offset: read as UTC). */
export declare function toRfc3339(value: string): string;
