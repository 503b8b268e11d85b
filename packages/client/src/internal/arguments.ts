/** Checks of resource methods' arguments: a TypeError naming the argument, before anything is sent. */

/** A non-negative integer argument of a resource method (an id), else a TypeError naming it. */
export function checkInt(name: string, value: unknown, min = 0): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(
      `${name} must be an integer ≥ ${min} (got ${JSON.stringify(value) ?? String(value)})`,
    );
  }
  return value;
}

/** A document id argument: the id the server stores (a non-empty string), else a TypeError. */
export function checkId(documentId: unknown): string {
  if (typeof documentId !== 'string' || documentId === '') {
    throw new TypeError('documentId must be a non-empty string (the id the server stores)');
  }
  return documentId;
}
