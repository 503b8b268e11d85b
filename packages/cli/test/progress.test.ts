import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../src/internal/output.js';
import { formatDuration, formatRate, Output, painter } from '../src/internal/output.js';
import { createProgress } from '../src/internal/progress.js';

function fakeIo(
  tty: boolean,
  env: Record<string, string> = {},
): { io: Io; err: () => string; out: () => string } {
  const stderr = Object.assign(new PassThrough(), { isTTY: tty, columns: 120 });
  const stdout = Object.assign(new PassThrough(), { isTTY: tty, columns: 120 });
  let err = '';
  let out = '';
  stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const io = { stdout, stderr, stdin: new PassThrough(), env, cwd: process.cwd() } as unknown as Io;
  return { io, err: () => err, out: () => out };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('progress', () => {
  it('draws a bar with done/total, rate, ETA and failures on a TTY', async () => {
    const { io, err } = fakeIo(true);
    const progress = createProgress(io, {
      label: 'ingesting',
      enabled: true,
      paint: painter(false),
    });
    progress.setTotal(10);
    progress.update({ processed: 4, failed: 1, skipped: 0 });
    progress.log('a line above the bar');
    progress.stop();
    await new Promise((resolve) => setImmediate(resolve));
    const text = err();
    expect(text).toContain('a line above the bar');
    expect(text).toMatch(/ingesting [█░]{24} 4\/10 \| [\d.]+\/s \| ETA \S+( \S+)* \| failed 1/);
  });

  it('prints plain lines periodically when not a TTY', () => {
    vi.useFakeTimers();
    const { io, err } = fakeIo(false);
    const progress = createProgress(io, {
      label: 'ingesting',
      enabled: true,
      paint: painter(false),
      intervalMs: 1000,
    });
    progress.update({ processed: 2, failed: 0, skipped: 1 });
    vi.advanceTimersByTime(1000);
    progress.setTotal(5);
    vi.advanceTimersByTime(1000);
    progress.stop();
    vi.advanceTimersByTime(5000);
    const lines = err().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ingesting: 2\/\? \| [\d.]+\/s \| ETA \? \| failed 0 \| skipped 1$/);
    expect(lines[1]).toMatch(/^ingesting: 2\/5 \| /);
  });

  it("shows the client's concurrency limit, the documents waiting to retry, and a pause", () => {
    vi.useFakeTimers();
    const { io, err } = fakeIo(false);
    const progress = createProgress(io, {
      label: 'ingesting',
      enabled: true,
      paint: painter(false),
      intervalMs: 1000,
    });
    progress.setTotal(10);
    const counts = { processed: 4, failed: 0, skipped: 0, ratePerSec: 2, concurrency: 16 };
    progress.update({ ...counts, waiting: 3 });
    vi.advanceTimersByTime(1000);
    progress.update({
      ...counts,
      waiting: 6,
      pausedSince: new Date(2024, 0, 1, 14, 2, 11).getTime(),
      pauseReason: '503 Service Unavailable on POST http://h/api/svc-api/ingestion: busy.',
    });
    vi.advanceTimersByTime(1000);
    progress.stop();
    expect(err().trim().split('\n')).toEqual([
      'ingesting: 4/10 | 2.0/s | ETA 3.0 s | concurrency 16 | failed 0 | retrying 3',
      'ingesting: 4/10 | paused: server not answering since 14:02:11 (503 Service Unavailable: busy) — probing | failed 0 | retrying 6',
    ]);
  });

  it('prints nothing when disabled (--quiet)', () => {
    vi.useFakeTimers();
    const { io, err } = fakeIo(false);
    const progress = createProgress(io, { label: 'x', enabled: false, paint: painter(false) });
    progress.update({ processed: 1, failed: 0, skipped: 0 });
    vi.advanceTimersByTime(10_000);
    progress.stop();
    expect(err()).toBe('');
  });
});

describe('output', () => {
  it('colours only a TTY without NO_COLOR', () => {
    expect(painter(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    const tty = new Output(fakeIo(true).io, { json: false, quiet: false, verbose: false });
    expect(tty.err.red('x')).toBe('\u001b[31mx\u001b[39m');
    const noColor = new Output(fakeIo(true, { NO_COLOR: '1' }).io, {
      json: false,
      quiet: false,
      verbose: false,
    });
    expect(noColor.err.red('x')).toBe('x');
    const pipe = new Output(fakeIo(false).io, { json: false, quiet: false, verbose: false });
    expect(pipe.err.red('x')).toBe('x');
  });

  it('writes one JSON document per result in --json mode and nothing human', () => {
    const { io, out } = fakeIo(false);
    const output = new Output(io, { json: true, quiet: false, verbose: false });
    output.result({ a: 1 }, 'human a');
    output.human('only for humans');
    output.result({ summary: { n: 1 } });
    expect(out()).toBe('{"a":1}\n{"summary":{"n":1}}\n');
  });

  it('formats durations and rates', () => {
    expect(formatDuration(450)).toBe('450 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(3_720_000)).toBe('1 h 2 min');
    expect(formatRate(12.345)).toBe('12.3/s');
    expect(formatRate(1234.5)).toBe('1235/s');
  });
});
