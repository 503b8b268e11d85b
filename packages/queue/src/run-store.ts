/**
 * The state of runs, in Redis beside BullMQ's keys (README, "What Redis holds"): per run, a hash
 * of its description and counters, a bitmap of the documents stored (by ordinal), a hash of the
 * documents failed with the server's reason, a bitmap of the jobs finished, and 10-second
 * buckets of stored documents for the throughput; for a sync, the acknowledgements its journal
 * takes (content hash and fingerprint per stored id). Recording a result is one Lua script, so the
 * bitmap and the counters never disagree and a document acknowledged twice counts once (the
 * second time as a duplicate send).
 *
 * This replaces the journal of local runs: a job that runs again (retried, or taken back from a
 * worker that died) skips the documents its run already holds as stored.
 */
import type { Redis } from 'ioredis';

/**
 * Keys of one queue's state beside BullMQ's: its runs and its limits (under BullMQ's prefix and
 * queue name; job ids hold no `:`).
 */
export class RunKeys {
  constructor(
    readonly prefix: string,
    readonly queue: string,
  ) {}
  private get base(): string {
    return `${this.prefix}:${this.queue}:kis`;
  }
  get runs(): string {
    return `${this.base}:runs`;
  }
  run(id: string): string {
    return `${this.base}:run:${id}`;
  }
  done(id: string): string {
    return `${this.run(id)}:done`;
  }
  failed(id: string): string {
    return `${this.run(id)}:failed`;
  }
  jobs(id: string): string {
    return `${this.run(id)}:jobs`;
  }
  acks(id: string): string {
    return `${this.run(id)}:acks`;
  }
  /** Workers that stopped by themselves, newest first (a few). */
  get stops(): string {
    return `${this.base}:stops`;
  }
  throughput(id: string, bucket: number): string {
    return `${this.run(id)}:tp:${bucket}`;
  }
  /** The queue's limits (`maxInFlight`, `ratePerSec`), held per request by every worker. */
  get limits(): string {
    return `${this.base}:limits`;
  }
  /** Requests in flight under the ceiling, scored by when their lease runs out. */
  get leases(): string {
    return `${this.base}:leases`;
  }
  /** When the next request may start under the rate (ms, Redis's clock). */
  get nextStart(): string {
    return `${this.base}:next-start`;
  }
  /** Requests the workers sent in one second (s since epoch). */
  sent(second: number): string {
    return `${this.base}:sent:${second}`;
  }
}

/** Width of a throughput bucket. */
export const BUCKET_MS = 10_000;

/** A document's result as a worker records it. */
export type RecordedOutcome =
  | { status: 'created' | 'updated'; ack?: { documentId: string; entry: RecordedAck } | undefined }
  | { status: 'failed'; failure: DocumentFailure };

/** A document that failed, as `queueStatus` and `listFailed` show it. */
export interface DocumentFailure {
  /** The document's ordinal in its run. */
  ordinal: number;
  /** How the source named it: `docs/a.pdf`, `export.jsonl:17`, or the caller's ref. */
  ref: string | undefined;
  /** The id it would be stored under (null when it could not be built). */
  documentId: string | null;
  /** The server's reason (or why it could not be read or built). */
  reason: string;
  /** The HTTP status of the answer that failed it, when there was one. */
  httpStatus: number | undefined;
  /** Attempts made. */
  attempts: number;
  /** When it failed (ISO 8601). */
  at: string;
  /** The job that holds it. */
  jobId: string;
}

// KEYS: run hash, done bitmap, failed hash, throughput bucket, acks hash
// ARGV: ordinal, status, failure JSON, now (ms), bucket ttl (s), document id, acknowledgement JSON
const RECORD = `
local ord = tonumber(ARGV[1])
local status = ARGV[2]
if status == 'created' or status == 'updated' then
  if ARGV[7] ~= '' then redis.call('HSET', KEYS[5], ARGV[6], ARGV[7]) end
  if redis.call('SETBIT', KEYS[2], ord, 1) == 1 then
    redis.call('HINCRBY', KEYS[1], 'duplicates', 1)
    return 0
  end
  redis.call('HINCRBY', KEYS[1], status, 1)
  if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then
    redis.call('HINCRBY', KEYS[1], 'failed', -1)
  end
  redis.call('INCR', KEYS[4])
  redis.call('EXPIRE', KEYS[4], tonumber(ARGV[5]))
  redis.call('HSETNX', KEYS[1], 'firstStoredAt', ARGV[4])
  redis.call('HSET', KEYS[1], 'lastStoredAt', ARGV[4])
  return 1
end
if redis.call('GETBIT', KEYS[2], ord) == 1 then return 0 end
if redis.call('HSET', KEYS[3], ARGV[1], ARGV[3]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'failed', 1)
end
return 1
`;

// KEYS: run hash, jobs bitmap; ARGV: seq
const JOB_DONE = `
if redis.call('SETBIT', KEYS[2], tonumber(ARGV[1]), 1) == 0 then
  redis.call('HINCRBY', KEYS[1], 'jobsDone', 1)
  return 1
end
return 0
`;

interface StoreCommands {
  kisRecord(
    run: string,
    done: string,
    failed: string,
    bucket: string,
    acks: string,
    ordinal: number,
    status: string,
    failure: string,
    now: number,
    ttl: number,
    documentId: string,
    ack: string,
  ): Promise<number>;
  kisJobDone(run: string, jobs: string, seq: number): Promise<number>;
}

/** One source of a run: `files`, `jsonl` or `documents`, and from where. */
export interface RunSourceDescription {
  kind: 'files' | 'jsonl' | 'documents' | 'sql' | 'git';
  root?: string;
  file?: string;
  paths?: string[];
  /** An SQL source's database (without password) and the connection name workers hold. */
  database?: string;
  connection?: string;
  /** A git source's repository (its path, or URL without credentials). */
  repository?: string;
}

/** A run as it was enqueued (counters aside). */
export interface RunDescription {
  id: string;
  /** When the enqueue began (ms since epoch). */
  createdAt: number;
  /** What was enqueued, in order. */
  sources: RunSourceDescription[];
  /** Documents per job. */
  batchSize: number;
  /** The pair its documents go to, when the producer named one. */
  ccPairId?: number | null | undefined;
  /** Its workers record acknowledgements for the producer's journal (`takeAcknowledgements`). */
  acks?: boolean | undefined;
}

/**
 * A stored document's acknowledgement, as a journal records it (`JournalEntry` of the client
 * without the id, which is the field it is kept under).
 */
export interface RecordedAck {
  hash: string;
  status: 'created' | 'updated';
  ccPairId: number | null;
  at: string;
  fingerprint?: string | undefined;
  /** The `doc_updated_at` the worker sent for a document that had none. */
  updatedAt?: string | undefined;
}

/** A worker that stopped by itself (the server refused its key, an outage outlasted it). */
export interface WorkerStop {
  worker: string;
  /** When (ISO 8601). */
  at: string;
  reason: string;
}

/** Worker stops kept. */
const STOPS_KEPT = 20;

/** A run's counters. */
export interface RunCounters {
  /** `enqueuing` while the producer adds jobs, `enqueued` once all are in. */
  state: 'enqueuing' | 'enqueued' | 'interrupted';
  documents: number;
  jobs: number;
  created: number;
  updated: number;
  failed: number;
  /** Acknowledgements of documents already stored: documents sent more than once. */
  duplicates: number;
  jobsDone: number;
  enqueuedAt: number | undefined;
  firstStoredAt: number | undefined;
  lastStoredAt: number | undefined;
}

const num = (v: string | undefined): number => (v === undefined ? 0 : Number(v));
const optNum = (v: string | undefined): number | undefined =>
  v === undefined ? undefined : Number(v);

export class RunStore {
  readonly keys: RunKeys;
  private readonly redis: Redis & StoreCommands;

  constructor(redis: Redis, prefix: string, queue: string) {
    this.keys = new RunKeys(prefix, queue);
    if (!('kisRecord' in redis)) {
      redis.defineCommand('kisRecord', { numberOfKeys: 5, lua: RECORD });
      redis.defineCommand('kisJobDone', { numberOfKeys: 2, lua: JOB_DONE });
    }
    this.redis = redis as Redis & StoreCommands;
  }

  async createRun(run: RunDescription): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.run(run.id), {
        description: JSON.stringify(run),
        state: 'enqueuing',
        documents: 0,
        jobs: 0,
      })
      .zadd(this.keys.runs, run.createdAt, run.id)
      .exec();
  }

  /** Counts jobs added by the producer (after each bulk add). */
  async addPlanned(runId: string, documents: number, jobs: number): Promise<void> {
    await this.redis
      .multi()
      .hincrby(this.keys.run(runId), 'documents', documents)
      .hincrby(this.keys.run(runId), 'jobs', jobs)
      .exec();
  }

  async setState(runId: string, state: RunCounters['state']): Promise<void> {
    await this.redis.hset(this.keys.run(runId), { state, enqueuedAt: Date.now() });
  }

  /** Which of the documents `start` .. `start + count - 1` are stored already. */
  async storedAmong(runId: string, start: number, count: number): Promise<boolean[]> {
    const first = Math.floor(start / 8);
    const last = Math.floor((start + count - 1) / 8);
    const bytes = await this.redis.getrangeBuffer(this.keys.done(runId), first, last);
    const stored: boolean[] = [];
    for (let i = 0; i < count; i++) {
      const bit = start + i;
      const byte = bytes[Math.floor(bit / 8) - first] ?? 0;
      stored.push((byte & (0x80 >> (bit % 8))) !== 0);
    }
    return stored;
  }

  /** Records one document's result; true when it changed the run (not a duplicate). */
  async record(runId: string, ordinal: number, outcome: RecordedOutcome): Promise<boolean> {
    const now = Date.now();
    const k = this.keys;
    const ack = outcome.status === 'failed' ? undefined : outcome.ack;
    const changed = await this.redis.kisRecord(
      k.run(runId),
      k.done(runId),
      k.failed(runId),
      k.throughput(runId, Math.floor(now / BUCKET_MS)),
      k.acks(runId),
      ordinal,
      outcome.status,
      outcome.status === 'failed' ? JSON.stringify(outcome.failure) : '',
      now,
      Math.ceil((BUCKET_MS * 12) / 1000),
      ack?.documentId ?? '',
      ack ? JSON.stringify(ack.entry) : '',
    );
    return changed === 1;
  }

  /** Marks a job of the run finished with every document stored. */
  async jobDone(runId: string, seq: number): Promise<void> {
    await this.redis.kisJobDone(this.keys.run(runId), this.keys.jobs(runId), seq);
  }

  /** Run ids, oldest first. */
  async runIds(): Promise<string[]> {
    return this.redis.zrange(this.keys.runs, 0, -1);
  }

  async describe(
    runId: string,
  ): Promise<{ run: RunDescription; counters: RunCounters } | undefined> {
    const h = await this.redis.hgetall(this.keys.run(runId));
    if (h.description === undefined) return undefined;
    const run = JSON.parse(h.description) as RunDescription & { source?: RunSourceDescription };
    // runs described by an earlier version named one source
    if (run.sources === undefined) run.sources = run.source ? [run.source] : [];
    delete run.source;
    return {
      run,
      counters: {
        state: (h.state ?? 'enqueuing') as RunCounters['state'],
        documents: num(h.documents),
        jobs: num(h.jobs),
        created: num(h.created),
        updated: num(h.updated),
        failed: num(h.failed),
        duplicates: num(h.duplicates),
        jobsDone: num(h.jobsDone),
        enqueuedAt: optNum(h.enqueuedAt),
        firstStoredAt: optNum(h.firstStoredAt),
        lastStoredAt: optNum(h.lastStoredAt),
      },
    };
  }

  /** Documents stored per second over the last minute (complete buckets only). */
  async recentRate(runId: string, now = Date.now()): Promise<number> {
    const current = Math.floor(now / BUCKET_MS);
    const keys = Array.from({ length: 6 }, (_, i) => this.keys.throughput(runId, current - 1 - i));
    const values = await this.redis.mget(keys);
    const stored = values.reduce((sum, v) => sum + num(v ?? undefined), 0);
    return stored / ((keys.length * BUCKET_MS) / 1000);
  }

  /** The run's failed documents, in ordinal order, at most `limit`. */
  async failures(runId: string, limit = Number.POSITIVE_INFINITY): Promise<DocumentFailure[]> {
    const out: DocumentFailure[] = [];
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.keys.failed(runId), cursor, 'COUNT', 500);
      cursor = next;
      for (let i = 1; i < flat.length; i += 2) out.push(JSON.parse(flat[i] as string));
    } while (cursor !== '0');
    out.sort((a, b) => a.ordinal - b.ordinal);
    return out.length > limit ? out.slice(0, limit) : out;
  }

  /**
   * Hands the run's acknowledgements to `take`, a few hundred at a time, and deletes each batch
   * once `take` has resolved (a crash in between hands them over again); how many there were.
   */
  async takeAcks(
    runId: string,
    take: (batch: { documentId: string; ack: RecordedAck }[]) => void | Promise<void>,
  ): Promise<number> {
    const key = this.keys.acks(runId);
    let total = 0;
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', 500);
      cursor = next;
      const batch: { documentId: string; ack: RecordedAck }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        batch.push({ documentId: flat[i] as string, ack: JSON.parse(flat[i + 1] as string) });
      }
      if (batch.length === 0) continue;
      await take(batch);
      await this.redis.hdel(key, ...batch.map((b) => b.documentId));
      total += batch.length;
    } while (cursor !== '0');
    return total;
  }

  /** Records that a worker stopped by itself, keeping the last few. */
  async recordStop(stop: WorkerStop): Promise<void> {
    await this.redis
      .multi()
      .lpush(this.keys.stops, JSON.stringify(stop))
      .ltrim(this.keys.stops, 0, STOPS_KEPT - 1)
      .exec();
  }

  /** Workers that stopped by themselves, newest first. */
  async stops(limit = 10): Promise<WorkerStop[]> {
    const raw = await this.redis.lrange(this.keys.stops, 0, limit - 1);
    return raw.map((r) => JSON.parse(r) as WorkerStop);
  }

  /** Deletes everything this package keeps for a run (BullMQ's jobs are removed by the caller). */
  async deleteRun(runId: string): Promise<void> {
    const k = this.keys;
    const buckets: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `${k.run(runId)}:tp:*`);
      cursor = next;
      buckets.push(...found);
    } while (cursor !== '0');
    await this.redis
      .multi()
      .del(k.run(runId), k.done(runId), k.failed(runId), k.jobs(runId), k.acks(runId), ...buckets)
      .zrem(k.runs, runId)
      .exec();
  }
}
