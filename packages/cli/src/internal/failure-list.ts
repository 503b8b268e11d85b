/**
 * The list of failures that ends a text summary (`kis ingest`, `kis sync`, their queued runs):
 * "Failures:", then one indented line each. Each failure's JSON line was printed as it happened.
 */
import type { Output } from './output.js';

/** "Failures:" and a line per failure; none when nothing failed. */
export function failureListLines(failures: readonly string[]): string[] {
  return failures.length === 0 ? [] : ['Failures:', ...failures.map((f) => `  ${f}`)];
}

/** The list on stdout, in text only (`--json` printed each failure as it happened). */
export function printFailureList(out: Output, failures: readonly string[]): void {
  if (out.mode.json) return;
  for (const line of failureListLines(failures)) out.human(line);
}
