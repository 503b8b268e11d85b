/**
 * Imported first by the `kis` binary. undici parses HTTP answers with WebAssembly, and V8
 * recompiles that module with its optimising tier on a background thread which process exit
 * then waits for: about 70 ms added to every command that sends a request (`pnpm bench:sync`).
 * The baseline tier (Liftoff) parses answers of this API fast enough, so kis keeps to it. Only
 * the `kis` process is affected: programs that import `@kis/client` keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-wasm-tier-up');
setFlagsFromString('--no-wasm-dynamic-tiering');
