// The producer in its own process for bench/queue.mjs, so its peak RSS and CPU time are its own:
// enqueues argv[2] (a JSONL file, or a folder of files) to the queue at argv[3] and prints the
// result with the peak RSS and the CPU seconds (user + system) of its whole life.
import { statSync } from 'node:fs';
import { enqueue } from '@kis/queue';

const [path, connection, queue, batchSize] = process.argv.slice(2);
const source = statSync(path).isDirectory()
  ? { kind: 'files', root: path }
  : { kind: 'jsonl', file: path };
const result = await enqueue(source, { connection, queue, batchSize: Number(batchSize) });
const peakRssMb = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
const cpu = process.cpuUsage();
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
process.stdout.write(`${JSON.stringify({ ...result, peakRssMb, cpuSeconds })}\n`);
