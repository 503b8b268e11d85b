// Sums the vitest JSON reports that every suite writes to <package>/test-results/vitest.json
// and prints one plain closing line: "N passed, N failed[, N skipped]". Each failure is named
// above it with its first message line, so a CI log cut to its tail still says what failed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
const failures = [];
for (const group of ['packages', 'apps', 'tests']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const report = join(dir, name, 'test-results', 'vitest.json');
    if (!existsSync(report)) continue;
    const r = JSON.parse(readFileSync(report, 'utf8'));
    // A suite file that failed to load counts as a failure even when it had no test.
    const brokenFiles = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
    ).length;
    const p = r.numPassedTests ?? 0;
    const f = (r.numFailedTests ?? 0) + brokenFiles;
    const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    passed += p;
    failed += f;
    skipped += s;
    for (const file of r.testResults ?? []) {
      const where = `${group}/${name}/${file.name.slice(join(dir, name).length + 1)}`;
      const tests = file.assertionResults ?? [];
      if (file.status === 'failed' && tests.length === 0) {
        failures.push(`${where}: ${firstLine(file.message)}`);
      }
      for (const t of tests.filter((t) => t.status === 'failed')) {
        failures.push(`${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      }
    }
    rows.push(`${group}/${name}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  }
}
for (const failure of failures) console.log(`  FAILED ${failure}`);
for (const row of rows) console.log(`  ${row}`);
if (rows.length === 0) {
  console.log('no test report found');
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);

function firstLine(message) {
  const line =
    String(message ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? 'no message';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colours from the message
  return line
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trim()
    .slice(0, 300);
}
