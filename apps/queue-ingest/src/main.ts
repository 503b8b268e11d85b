/**
 * Queue mode in three roles (run each in its own terminal, on as many machines as you like):
 *
 *   node dist/main.js enqueue <root> [paths…]   plan the files under <root> into jobs, print the run id
 *   node dist/main.js worker <root>             take jobs and send them (Ctrl-C returns its jobs)
 *   node dist/main.js status [run-id]           the queue and its runs, every 2 s, until finished
 *
 * Configuration, by environment:
 *   KIS_QUEUE       Redis URL of the queue, e.g. redis://127.0.0.1:6379/0
 *   KIS_BASE_URL    base URL of the service, including /api (workers)
 *   KIS_API_KEY     an API key that may ingest (workers; it never goes into Redis)
 *   KIS_CC_PAIR_ID  the pair documents are attached to (producer; default: the server's)
 *   KIS_RATE        a global rate such as 50/s, set by the first worker (optional)
 */
import { enqueue, queueStatus, startWorker } from '@kis/queue';

const [role, ...args] = process.argv.slice(2);
const env = process.env;
const connection = env.KIS_QUEUE;
if (!connection || !role) {
  console.error('usage: KIS_QUEUE=redis://HOST:PORT/DB node dist/main.js enqueue|worker|status …');
  process.exit(2);
}

async function produce(root: string, paths: string[]): Promise<void> {
  const ccPairId = env.KIS_CC_PAIR_ID ? Number(env.KIS_CC_PAIR_ID) : undefined;
  const run = await enqueue(
    { kind: 'files', root, ...(paths.length > 0 ? { paths } : {}) },
    {
      connection: connection as string,
      ccPairId,
      onProgress: ({ documents }) => process.stderr.write(`\renqueued ${documents}`),
    },
  );
  process.stderr.write('\n');
  console.log(`run ${run.runId}: ${run.documents} documents in ${run.jobs} jobs`);
}

async function work(root: string): Promise<void> {
  const { KIS_BASE_URL: baseUrl, KIS_API_KEY: apiKey } = env;
  if (!baseUrl || !apiKey) {
    console.error('a worker needs KIS_BASE_URL and KIS_API_KEY');
    process.exit(2);
  }
  const worker = await startWorker({
    connection: connection as string,
    root,
    kis: { baseUrl, apiKey },
    ...(env.KIS_RATE ? { rate: env.KIS_RATE } : {}),
    onDocument: (d) => {
      if (d.status === 'failed') console.error(`failed ${d.ref}: ${d.reason}`);
    },
  });
  console.log(`worker ${worker.name} taking jobs (Ctrl-C to stop)`);
  const stop = async () => {
    const summary = await worker.close();
    console.log(
      `stopped: ${summary.created + summary.updated} stored, ${summary.failed} failed, ${summary.jobsReturned} jobs returned`,
    );
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const summary = await worker.closed;
  if (summary.stopped) {
    console.error(summary.stopped.message);
    process.exit(1);
  }
}

async function watch(runId: string | undefined): Promise<void> {
  for (;;) {
    const status = await queueStatus({ connection: connection as string, runId, failures: 3 });
    for (const run of status.runs) {
      const d = run.documents;
      console.log(
        `${run.runId}: ${d.stored}/${d.total} stored, ${d.failed} failed, ${d.pending} pending, ${run.throughput.recentPerSec}/s`,
      );
      for (const f of run.failures) console.log(`  ${f.ref}: ${f.reason}`);
    }
    if (status.runs.every((r) => r.finished)) return;
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

if (role === 'enqueue' && args[0]) await produce(args[0], args.slice(1));
else if (role === 'worker' && args[0]) await work(args[0]);
else if (role === 'status') await watch(args[0]);
else {
  console.error(
    `unknown role or missing root: ${role} (expected enqueue <root>, worker <root> or status)`,
  );
  process.exit(2);
}
