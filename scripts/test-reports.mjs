// Reads the vitest JSON reports that every suite writes to <package>/test-results/vitest.json:
// counts per suite and each failed test named with the first line of its message.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

export const ROOT = new URL('..', import.meta.url).pathname;
export const GROUPS = ['packages', 'apps', 'tests'];

/** Each suite's report: `{ dir, passed, failed, skipped, failures }` (dir as `packages/cli`). */
export function readReports() {
  const suites = [];
  for (const group of GROUPS) {
    const dir = join(ROOT, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const report = join(dir, name, 'test-results', 'vitest.json');
      if (existsSync(report)) suites.push(readReport(`${group}/${name}`, report));
    }
  }
  return suites;
}

function readReport(suite, path) {
  const r = JSON.parse(readFileSync(path, 'utf8'));
  const failures = [];
  for (const file of r.testResults ?? []) {
    const where = `${suite}/${file.name.slice(join(ROOT, suite).length + 1)}`;
    const tests = file.assertionResults ?? [];
    // a suite file that failed to load counts as a failure even when it had no test
    if (file.status === 'failed' && tests.length === 0) {
      failures.push(`${where}: ${firstLine(file.message)}`);
    }
    for (const t of tests.filter((t) => t.status === 'failed')) {
      failures.push(`${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  const brokenFiles = failures.length - (r.numFailedTests ?? 0);
  return {
    dir: suite,
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + Math.max(0, brokenFiles),
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    failures,
  };
}

export function firstLine(message) {
  const line =
    String(message ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? 'no message';
  return stripVTControlCharacters(line).trim().slice(0, 300);
}
