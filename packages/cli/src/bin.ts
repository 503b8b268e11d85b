import { run } from './internal/program.js';

const code = await run(process.argv.slice(2));
// Exit once stdout and stderr are flushed, without waiting for idle keep-alive sockets.
process.stdout.write('', () => {
  process.stderr.write('', () => process.exit(code));
});
