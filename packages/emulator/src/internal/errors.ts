import type { Answer } from '@kis/rules';
import type { ValidationIssue } from './validation.js';

/** An error answered as `{ "detail": message }` with an HTTP status (the same in every profile). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** An error answered with a ready-made answer (status and body), e.g. one of the rule book's. */
export class AnswerError extends Error {
  constructor(readonly answer: Answer) {
    super(`HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
    this.name = 'AnswerError';
  }
}

/** A request that failed validation: answered 422 in the profile's shape (`ANSWERS.validation`). */
export class ValidationFailure extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationFailure';
  }
}
