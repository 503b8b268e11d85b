// Where a benchmark's figures come from, written into every bench/results/*.json: the commit
// measured (with "-dirty" when the work tree has changes other than bench/results/: figures of
// uncommitted code), the date, Node and the machine's CPUs.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function git(...args) {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
}

/** `{ commit, date, node, cpus, cpu_model }`; `commit` is null outside a git checkout. */
export function provenance() {
  let commit = null;
  try {
    commit = `${git('rev-parse', '--short=12', 'HEAD')}${git('status', '--porcelain', '--', '.', ':!bench/results') === '' ? '' : '-dirty'}`;
  } catch {
    // not a git checkout (an unpacked tarball): figures without a commit
  }
  const cpu = cpus();
  return {
    commit,
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
  };
}
