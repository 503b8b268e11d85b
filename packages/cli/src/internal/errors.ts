/** Exit codes of the `kis` command line (a contract: scripts branch on them). */
export const ExitCode = {
  /** Everything succeeded. */
  Ok: 0,
  /** The command ran to the end but some items failed. */
  ItemsFailed: 1,
  /** Usage or input error: unknown command or flag, missing or invalid argument, unreadable input. */
  Usage: 2,
  /** Authentication, connection or server-side failure that stopped the command. */
  Fatal: 3,
  /** Interrupted by Ctrl-C (SIGINT) or SIGTERM after in-flight work was finished and recorded. */
  Interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the command with a one-line message and a given exit code. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A usage or input error (exit code 2). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.Usage);
    this.name = 'UsageError';
  }
}

/**
 * The message of anything thrown, on one line, as `@kis/node`'s `oneLine` words it: written here
 * so that every command can say an error without loading `@kis/node` and its sources.
 */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
