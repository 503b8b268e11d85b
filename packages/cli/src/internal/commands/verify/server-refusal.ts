/**
 * What stops `kis verify` before any document is checked, in words (exit 3): a server without the
 * routes it reads (one that follows the seed has no listing of a pair's documents, no
 * document-size-info, no admin search), or without a vector index (501). Other errors are the
 * CLI's usual ones (failure.ts).
 */
import { APIError } from '@kis/client';
import { isRouteNotFound } from '@kis/rules';
import { CliError, ExitCode } from '../../errors.js';

/** The error to end the command with for `error`, when it is one of these; else undefined. */
export function serverRefusal(error: unknown, baseUrl: string): CliError | undefined {
  if (!APIError.isInstance(error)) return undefined;
  if (isRouteNotFound(error.status ?? 0, error.body)) {
    return new CliError(
      `${baseUrl} lacks a route kis verify reads (${error.message.replace(/^.* on /, '')}): a server that follows the seed has no document checks; nothing was verified`,
      ExitCode.Fatal,
    );
  }
  if (error.status === 501) {
    return new CliError(
      `${baseUrl} runs without a vector database (501): no document is in an index to verify`,
      ExitCode.Fatal,
    );
  }
  return undefined;
}
