/** What stops a git source: one line, a URL's credentials already taken out. */
export class GitSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitSourceError';
  }
}
