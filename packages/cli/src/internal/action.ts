/**
 * What turns a command's handler into its commander action: the {@link Context} built from the
 * global options, and the exit code recorded for `run` (program.ts) to return.
 */
import type { Command } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import type { ExitCodeValue } from './errors.js';
import type { InterruptSource } from './interrupts.js';
import type { Io } from './output.js';
import type { Secrets } from './secrets.js';

/** What one `run` records: the exit code of the command, and its context for error reports. */
export interface RunState {
  exitCode: ExitCodeValue;
  ctx?: Context;
}

/** A command's handler: the context, then commander's arguments and options. */
export type Handler<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<ExitCodeValue>;

/** Wraps a handler as a commander action: builds the context, records the exit code. */
export type Act = <A extends unknown[]>(
  handler: Handler<A>,
) => (...args: unknown[]) => Promise<void>;

/** What every command module's builder receives from `run`. */
export interface CommandEnv {
  readonly act: Act;
  /** Where Ctrl-C and SIGTERM come from (`process`, or a test's). */
  readonly interrupts: InterruptSource;
  /**
   * A new command with the program's settings (output, help flag, exit override, suggestions),
   * as commander's `.command()` gives a sub-command: every builder starts from one.
   */
  command(name: string): Command;
}

export function createAct(io: Io, secrets: Secrets, state: RunState): Act {
  return <A extends unknown[]>(handler: Handler<A>) =>
    async (...args: unknown[]): Promise<void> => {
      // the context brings the client: loaded once a command runs, not for --version or help
      const { Context } = await import('./context.js');
      // commander passes the command's arguments, its options, then the command itself
      const command = args[args.length - 1] as Command;
      const ctx = new Context(io, command.optsWithGlobals() as GlobalOptions, secrets);
      state.ctx = ctx;
      state.exitCode = await handler(ctx, ...(args.slice(0, -1) as A));
    };
}
