/** Errors of this package: a bad argument or option, named in a one-line message. */
export class QueueUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUsageError';
  }
}
