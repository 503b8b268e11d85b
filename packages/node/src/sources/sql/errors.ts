/** What stops an SQL source before or while it reads: one line, secrets already taken out. */
export class SqlSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqlSourceError';
  }
}
