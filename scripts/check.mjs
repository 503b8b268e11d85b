// `pnpm check`: lint, type-check, the import-circles check and every test suite (through turbo),
// then one closing line "N passed, N failed". Tests count one each; a lint, type-check, build or
// circles task that fails (or a suite that ends without its report) counts as one failure, named.
// Extra arguments go to turbo, e.g. `pnpm check --filter=@kis/cli`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { GROUPS, ROOT, readReports } from './test-reports.mjs';

// stale reports of an earlier run would be counted again
for (const group of GROUPS) {
  const dir = join(ROOT, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir))
    rmSync(join(dir, name, 'test-results'), { recursive: true, force: true });
}

const started = Date.now();
const turbo = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'lint',
    'typecheck',
    'test',
    '//#circles',
    '//#lint:root',
    '--continue',
    '--summarize',
    // one task per core: suites that start servers and CLI processes time out when ten share two
    `--concurrency=${Math.max(2, availableParallelism())}`,
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: 'inherit' },
);

const suites = readReports();
const failures = suites.flatMap((s) => s.failures);
const passed = suites.reduce((n, s) => n + s.passed, 0);
let failed = suites.reduce((n, s) => n + s.failed, 0);
const skipped = suites.reduce((n, s) => n + s.skipped, 0);

const reported = new Set(suites.map((s) => s.dir));
for (const task of turboTasks(started)) {
  const code = task.execution?.exitCode;
  if (code === 0) continue;
  const isTest = task.task === 'test';
  if (isTest && reported.has(task.directory)) continue; // its failed tests are counted above
  failed += 1;
  const what = code === undefined ? 'did not run (a task it needs failed)' : `exit code ${code}`;
  failures.push(`${task.taskId}: ${what}${isTest ? ', no test report' : ''}`);
}
if (turbo.status !== 0 && failed === 0) {
  failed += 1;
  failures.push(`turbo: exit ${turbo.status ?? turbo.signal}`);
}
if (suites.length === 0) {
  failed += 1;
  failures.push('no test report found');
}

for (const s of suites) {
  console.log(
    `  ${s.dir}: ${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`,
  );
}
for (const failure of failures) console.log(`  FAILED ${failure}`);
if (skipped > 0) console.log(`  (${skipped} skipped)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/** The tasks of this run, from turbo's run summary (`--summarize`, under .turbo/runs). */
function turboTasks(since) {
  const dir = join(ROOT, '.turbo', 'runs');
  if (!existsSync(dir)) return [];
  const newest = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).mtimeMs >= since)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest === undefined ? [] : JSON.parse(readFileSync(newest, 'utf8')).tasks;
}
