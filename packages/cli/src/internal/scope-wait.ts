/**
 * `--wait` of the set and group commands: reads the listing again (one request for all of them)
 * until each set or group is up to date, or gone after a deletion, saying every few seconds what
 * is still syncing; past `--wait-for`, one error names what is (exit 1).
 */
import type { Command } from 'commander';
import { durationArg } from './arg-parsers.js';
import type { Context } from './context.js';
import { ExitCode, type ExitCodeValue } from './errors.js';
import { formatDuration } from './output.js';
import { namedLabel, type ScopeNoun } from './scope-ref.js';

/** `--wait` and `--wait-for` of a set or group command; `what` says what is waited for. */
export function withWaitFlags(command: Command, what: string): Command {
  return command
    .option('--wait', `wait until ${what}, saying every few seconds what still syncs`)
    .option('--wait-for <duration>', 'with --wait: the longest wait', durationArg, 600_000);
}

/** The options `withWaitFlags` adds. */
export interface WaitFlags {
  wait?: boolean;
  waitFor: number;
}

/** What a listing shows of a set or group while it syncs. */
export interface Syncing {
  readonly id: number;
  readonly name: string;
  readonly is_up_to_date: boolean;
}

export interface WaitOptions {
  noun: ScopeNoun;
  /** The sets or groups to wait for, as they were named. */
  rows: readonly { id: number; name: string }[];
  /** `synced`: up to date; `gone`: no longer listed (a deletion). */
  until: 'synced' | 'gone';
  /** The listing, read again at each round. */
  list: () => Promise<readonly Syncing[]>;
  /** The longest wait, in ms. */
  waitFor: number;
  /** Between two progress lines, in ms. */
  reportEveryMs?: number;
}

const done = (until: WaitOptions['until'], row: Syncing | undefined) =>
  until === 'gone' ? row === undefined : row === undefined || row.is_up_to_date;

/** Waits as `--wait` says; resolves with the exit code (1 when something still syncs). */
export async function waitForScope(ctx: Context, options: WaitOptions): Promise<ExitCodeValue> {
  const { noun, until } = options;
  const started = Date.now();
  const labels = (rows: readonly { id: number; name: string }[]) =>
    rows.map((r) => namedLabel(noun, r)).join(', ');
  let pending = [...options.rows];
  let pause = 100;
  let reported = started;
  ctx.out.info(`waiting for ${labels(pending)} to ${until === 'gone' ? 'be gone' : 'sync'}…`);
  for (;;) {
    const listed = await options.list();
    const now = Date.now();
    for (const row of pending.filter((r) =>
      done(
        until,
        listed.find((l) => l.id === r.id),
      ),
    )) {
      const missing = until === 'synced' && !listed.some((l) => l.id === row.id);
      const what = missing ? 'no longer listed' : until === 'gone' ? 'gone' : 'synced';
      ctx.out.result(
        { [`${noun.replace(' ', '_')}_id`]: row.id, name: row.name, [until]: true },
        `${namedLabel(noun, row)}: ${what} (${formatDuration(now - started)})`,
      );
    }
    pending = pending.filter(
      (r) =>
        !done(
          until,
          listed.find((l) => l.id === r.id),
        ),
    );
    if (pending.length === 0) return ExitCode.Ok;
    if (now - started >= options.waitFor) {
      for (const row of pending) {
        ctx.out.result({
          [`${noun.replace(' ', '_')}_id`]: row.id,
          name: row.name,
          [until]: false,
        });
      }
      ctx.out.error(
        `still ${until === 'gone' ? 'being deleted' : 'syncing'} after ${formatDuration(now - started)}: ${labels(pending)} (the server's sync has not finished; --wait-for waits longer)`,
      );
      return ExitCode.ItemsFailed;
    }
    if (now - reported >= (options.reportEveryMs ?? 5_000)) {
      reported = now;
      ctx.out.info(`still syncing (${formatDuration(now - started)}): ${labels(pending)}`);
    }
    const left = options.waitFor - (now - started);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, 2_000);
  }
}
