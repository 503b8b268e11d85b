/**
 * @kis/cli: the `kis` command line of the Knowledge Indexing Service API. The binary is the
 * product; `run` is exported so the CLI can be embedded or driven in-process.
 */
export { ExitCode, type ExitCodeValue } from './internal/errors.js';
export type { Io } from './internal/output.js';
export { type RunOptions, run } from './internal/program.js';
