import type { Readable, Writable } from 'node:stream';

/** The process surroundings a command runs in (injectable for tests). */
export interface Io {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Whether to colour a stream: a TTY, NO_COLOR unset (https://no-color.org), TERM not dumb. */
export function colorEnabled(stream: { isTTY?: boolean }, env: Io['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0')
    return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function painter(enabled: boolean): Paint {
  const wrap = (open: number, close: number) => (s: string) =>
    enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s;
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

export interface OutputMode {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
}

/**
 * Where everything a command says goes. Results go to stdout: in `--json` mode one JSON document
 * per line and nothing else; otherwise human-readable lines. Notes, warnings, errors and progress
 * go to stderr, so stdout stays clean for pipes.
 */
export class Output {
  readonly mode: OutputMode;
  readonly io: Io;
  /** Colours for stderr. */
  readonly err: Paint;
  /** Colours for stdout (never used in `--json` mode). */
  readonly out: Paint;

  constructor(io: Io, mode: OutputMode) {
    this.io = io;
    this.mode = mode;
    this.err = painter(colorEnabled(io.stderr, io.env));
    this.out = painter(!mode.json && colorEnabled(io.stdout, io.env));
  }

  /** Stdout text held by {@link batch}, else undefined. */
  #held: string | undefined;

  /**
   * Runs `fn`, writing what it puts on stdout in chunks of about 64 kB rather than a write per
   * line (thousands of result lines, e.g. a plan: a write each is a system call each on a pipe).
   * What goes to stderr meanwhile first writes out what is held, so the order stays the same.
   */
  batch(fn: () => void): void {
    if (this.#held !== undefined) {
      fn();
      return;
    }
    this.#held = '';
    try {
      fn();
    } finally {
      this.#flush();
      this.#held = undefined;
    }
  }

  #flush(): void {
    if (this.#held) {
      const text = this.#held;
      this.#held = '';
      this.io.stdout.write(text);
    }
  }

  #out(text: string): void {
    if (this.#held === undefined) {
      this.io.stdout.write(text);
    } else {
      this.#held += text;
      if (this.#held.length >= BATCH_CHARS) this.#flush();
    }
  }

  #err(text: string): void {
    this.#flush();
    this.io.stderr.write(text);
  }

  /** One result: `value` as a JSON line with `--json`, else the human lines (if any). */
  result(value: unknown, human?: string | readonly string[]): void {
    if (this.mode.json) {
      this.#out(`${JSON.stringify(value)}\n`);
    } else if (human !== undefined) {
      const lines = typeof human === 'string' ? [human] : human;
      for (const line of lines) this.#out(`${line}\n`);
    }
  }

  /** Human-only text on stdout (tables, summaries); nothing in `--json` mode. */
  human(line: string): void {
    if (!this.mode.json) this.#out(`${line}\n`);
  }

  /** An informational note on stderr, hidden by `--quiet`. */
  info(message: string): void {
    if (!this.mode.quiet) this.#err(`${message}\n`);
  }

  /** A warning on stderr (always shown). */
  warn(message: string): void {
    this.#err(`${this.err.yellow('warning:')} ${message}\n`);
  }

  /** An error line on stderr (always shown). */
  error(message: string): void {
    this.#err(`${this.err.red('error:')} ${message}\n`);
  }

  /** A debug line on stderr, only with `--verbose`. */
  debug(message: string): void {
    if (this.mode.verbose) this.#err(`${this.err.dim(message)}\n`);
  }
}

/** How much stdout text {@link Output.batch} holds before writing it. */
const BATCH_CHARS = 64 * 1024;

/** "1.2 s", "3 min 4 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${m - h * 60} min`;
}

/** "12.3/s". */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '?/s';
  return `${perSecond >= 100 ? Math.round(perSecond) : perSecond.toFixed(1)}/s`;
}
