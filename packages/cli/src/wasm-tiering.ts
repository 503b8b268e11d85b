/**
 * Imported first by the `kis` binary. undici parses HTTP answers with WebAssembly, and V8
 * recompiles that module with its optimising tier on a background thread which process exit
 * then waits for: about 70 ms added to every command that sends a request (`pnpm bench:sync`).
 * The baseline tier (Liftoff) parses answers of this API fast enough, so kis keeps to it. Only
 * the `kis` process is affected: programs that import `@kis/client` keep V8's defaults.
 *
 * The flags are set when the first connection is about to open (undici's diagnostics channel),
 * before the parser is compiled: any change of V8's flags makes Node compile the built-in
 * modules it loads afterwards without their code cache, and by then undici has loaded the
 * ones it needs (net, http, streams, …).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';

const CHANNEL = 'undici:client:beforeConnect';

function baselineTierOnly(): void {
  unsubscribe(CHANNEL, baselineTierOnly);
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}

subscribe(CHANNEL, baselineTierOnly);
