// A queue worker in its own process for bench/queue.mjs (what `kis worker` runs): options as JSON
// in argv[2], the key from KIS_API_KEY. Prints `ready` once it takes jobs; SIGTERM closes it.
import { startWorker } from '@kis/queue';

const options = JSON.parse(process.argv[2]);
const quiet = { error() {}, warn() {}, info() {}, debug() {} };
const worker = await startWorker({
  ...options,
  kis: { baseUrl: options.baseUrl, apiKey: process.env.KIS_API_KEY, logLevel: 'off' },
  logger: quiet,
});
process.stdout.write('ready\n');
const report = setInterval(() => {
  process.stdout.write(`${JSON.stringify({ progress: worker.progress() })}\n`);
}, 200);
process.once('SIGTERM', async () => {
  clearInterval(report);
  const summary = await worker.close();
  process.stdout.write(`${JSON.stringify({ summary })}\n`);
  process.exit(0);
});
