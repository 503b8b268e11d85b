// `kis` (the built CLI) as a user runs it, in a process of its own: its exit code, wall time,
// `--json` lines, stderr, and peak RSS (VmHWM, sampled from /proc every 50 ms: Linux).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KIS = join(dirname(fileURLToPath(import.meta.url)), '../../packages/cli/bin/kis.js');

/** A process's high-water mark of resident memory, in bytes (0 once it is gone). */
function peakOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Runs `kis --json ARGS…`; `onSpawn` hears the time it was started (performance.now()). */
export async function runKis(args, { env = {}, cwd, onSpawn } = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, [KIS, '--json', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn?.(started);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, peakOf(child.pid));
  }, 50);
  const [code] = await once(child, 'close');
  clearInterval(timer);
  const lines = out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  return {
    code,
    seconds: (performance.now() - started) / 1000,
    lines,
    stderr: err,
    peak_rss_mb: peak / 2 ** 20,
    summary: lines.findLast((l) => 'summary' in l)?.summary,
  };
}
