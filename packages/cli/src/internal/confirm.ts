/** Asking a person before a command deletes something: a `[y/N]` question on the terminal. */
import { createInterface } from 'node:readline/promises';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/**
 * True when `yes` is given or the person answers y/yes to `question`; a usage error naming the
 * `--yes` flag when stdin is not a terminal to ask on (`what` says what would be deleted).
 */
export async function confirmDeletion(
  ctx: Context,
  options: { yes: boolean; question: string; what: string; flag: string },
): Promise<boolean> {
  if (options.yes) return true;
  const { io } = ctx;
  if (!io.stdin.isTTY) {
    throw new UsageError(
      `${options.flag}: ${options.what}; pass --yes to confirm (stdin is not a terminal to ask)`,
    );
  }
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(`${options.question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
