// The producer in its own process for bench/queue.mjs, so its peak RSS is its own: enqueues the
// JSONL file argv[2] to the queue at argv[3] and prints the result with the peak RSS.
import { enqueue } from '@kis/queue';

const [file, connection, queue, batchSize] = process.argv.slice(2);
const result = await enqueue(
  { kind: 'jsonl', file },
  { connection, queue, batchSize: Number(batchSize) },
);
const peakRssMb = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
process.stdout.write(`${JSON.stringify({ ...result, peakRssMb })}\n`);
