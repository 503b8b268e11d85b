/** A file that cannot be read or is not what its extension says; the message is the reason. */
export class ExtractionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionError';
  }
}
