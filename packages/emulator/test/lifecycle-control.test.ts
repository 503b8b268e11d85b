// Operating pairs on each kind of server: the status call (the main line takes only ACTIVE and
// PAUSED; release 4.6.1 and the seed's kind store any status, DELETING deleting the pair), prune
// and last_pruned, the deletion with its phases, and the answers for a pair that does not exist.
// Expected values are written out from compat-lifecycle.md (§1, §4, §6, §7) and
// docs/deployed-servers.md, "Operating connectors".
import { describe, expect, it } from 'vitest';
import {
  attemptsOf,
  DURATION_MS,
  emulatorsPerTest,
  ingest,
  type Json,
  KINDS,
  type Kind,
  pairOf,
  runFirstAttempt,
  START_DELAY_MS,
  webPair,
} from './lifecycle-helpers.js';

const { use } = emulatorsPerTest();

const CONNECTION = "Connection not found for current user's permissions";

/** What each kind answers for pair 99, per call (compat-lifecycle.md §1-§6). */
const UNKNOWN_PAIR: Record<Kind, Record<string, [number, unknown]>> = {
  seed: {
    getCcPair: [404, { detail: 'Connector-credential pair 99 does not exist' }],
    listIndexAttempts: [404, { detail: 'Connector-credential pair 99 does not exist' }],
    listIndexingErrors: [404, { detail: 'Connector-credential pair 99 does not exist' }],
    setCcPairStatus: [404, { detail: 'Connector-credential pair 99 does not exist' }],
    pruneCcPair: [404, { detail: 'Connector-credential pair 99 does not exist' }],
    getCcPairLastPruned: [404, { detail: 'Connector-credential pair 99 does not exist' }],
  },
  main: {
    getCcPair: [
      404,
      { error_code: 'NOT_FOUND', detail: 'CC Pair not found for current user permissions' },
    ],
    listIndexAttempts: [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: 'CC Pair not found for current user permissions',
      },
    ],
    listIndexingErrors: [200, { items: [], total_items: 0 }],
    setCcPairStatus: [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: CONNECTION }],
    pruneCcPair: [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: CONNECTION }],
    getCcPairLastPruned: [
      403,
      {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: "CC Pair not found for current user's permissions",
      },
    ],
  },
  'v4.6.1': {
    getCcPair: [404, { detail: 'CC Pair not found for current user permissions' }],
    listIndexAttempts: [400, { detail: 'CC Pair not found for current user permissions' }],
    listIndexingErrors: [200, { items: [], total_items: 0 }],
    setCcPairStatus: [400, { detail: CONNECTION }],
    pruneCcPair: [400, { detail: CONNECTION }],
    getCcPairLastPruned: [400, { detail: "cc_pair not found for current user's permissions" }],
  },
};

const CALLS: Record<string, [string, string, unknown?]> = {
  getCcPair: ['GET', '/manage/admin/cc-pair/99'],
  listIndexAttempts: ['GET', '/manage/admin/cc-pair/99/index-attempts'],
  listIndexingErrors: ['GET', '/manage/admin/cc-pair/99/errors'],
  setCcPairStatus: ['PUT', '/manage/admin/cc-pair/99/status', { status: 'PAUSED' }],
  pruneCcPair: ['POST', '/manage/admin/cc-pair/99/prune'],
  getCcPairLastPruned: ['GET', '/manage/admin/cc-pair/99/last_pruned'],
};

describe.each(KINDS.map(([kind]) => kind))('operating pairs (%s)', (kind) => {
  it('an unknown pair: each call answers as this kind of server does', async () => {
    const s = await use(kind);
    for (const [operation, [method, path, json]] of Object.entries(CALLS)) {
      const r = await s.call(method, path, json === undefined ? {} : { json });
      expect([r.status, r.body], operation).toEqual(UNKNOWN_PAIR[kind][operation]);
    }
  });

  it('pause, resume: the current status is not checked; other statuses per kind', async () => {
    const s = await use(kind);
    const { pair } = await webPair(s.call);
    const set = (status: string) =>
      s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status } });
    for (const status of ['PAUSED', 'PAUSED', 'ACTIVE']) {
      expect((await set(status)).body).toEqual({ message: '200' });
      expect((await pairOf(s.call, pair)).status).toBe(status);
    }
    const invalid = await set('INVALID');
    if (kind === 'main') {
      expect([invalid.status, invalid.body]).toEqual([
        400,
        {
          error_code: 'INVALID_INPUT',
          detail: 'Connector status can only be set to ACTIVE or PAUSED.',
        },
      ]);
      expect((await pairOf(s.call, pair)).status).toBe('ACTIVE');
    } else {
      expect(invalid.status).toBe(200);
      expect((await pairOf(s.call, pair)).status).toBe('INVALID');
      s.step(60_000); // an INVALID pair is not indexed
      expect(await attemptsOf(s.call, pair)).toEqual([]);
    }
    expect((await set('paused')).status).toBe(422);
  });

  it('DELETING through the status call: deleted on release 4.6.1 and the seed; refused on the main line', async () => {
    const s = await use(kind, { deletionDelayMs: 10 });
    const { pair } = await webPair(s.call);
    const r = await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, {
      json: { status: 'DELETING' },
    });
    if (kind === 'main') {
      expect(r.status).toBe(400);
      return;
    }
    expect(r.status).toBe(200);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'DELETING',
      latest_deletion_attempt: { status: 'PENDING' },
    });
    s.step(10);
    s.step(10);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}`)).status).toBe(404);
  });

  it('prune: 409 while one runs, last_pruned set when it ends; paused pairs too', async () => {
    const s = await use(kind, { tasks: { pruneMs: 500 } });
    const { pair } = await webPair(s.call);
    await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'PAUSED' } });
    const lastPruned = async () =>
      (await s.call('GET', `/manage/admin/cc-pair/${pair}/last_pruned`)).body;
    expect(await lastPruned()).toBeNull();
    const started = await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    expect([started.status, started.body]).toEqual([
      200,
      { success: true, message: 'Successfully created the pruning task.', data: null },
    ]);
    const running = await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    expect([running.status, running.body]).toEqual([
      409,
      kind === 'main'
        ? { error_code: 'CONFLICT', detail: 'Pruning task already in progress.' }
        : { detail: 'Pruning task already in progress.' },
    ]);
    s.step(499);
    expect(await lastPruned()).toBeNull();
    s.step(1);
    const ended = s.now();
    expect(await lastPruned()).toBe(ended);
    expect((await pairOf(s.call, pair)).last_pruned).toBe(ended);
    expect((await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`)).status).toBe(200);
  });

  it('prune of a pair being deleted: 500, the task is not created', async () => {
    const s = await use(kind);
    const { connector, pair } = await webPair(s.call);
    await s.call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: 0 },
    });
    const r = await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    expect([r.status, r.body]).toEqual([
      500,
      kind === 'main'
        ? { error_code: 'INTERNAL_ERROR', detail: 'Pruning task creation failed.' }
        : { detail: 'Pruning task creation failed.' },
    ]);
  });

  it('deletion: PENDING while its running attempt stops, STARTED, then the pair, its documents and connector are gone', async () => {
    const s = await use(kind, { deletionDelayMs: 30 });
    const { connector, pair } = await webPair(s.call);
    await ingest(s.call, pair, 'own');
    await ingest(s.call, 1, 'elsewhere');
    s.step(); // the first attempt waits
    s.step(START_DELAY_MS); // and runs
    const body = { connector_id: connector, credential_id: 0 };
    const first = await s.call('POST', '/manage/admin/deletion-attempt', { json: body });
    expect([first.status, first.text]).toEqual([200, 'null']);
    const deleting = await pairOf(s.call, pair);
    expect(deleting).toMatchObject({
      status: 'DELETING',
      latest_deletion_attempt: { connector_id: connector, credential_id: 0, status: 'PENDING' },
    });
    expect((await s.call('POST', '/manage/admin/deletion-attempt', { json: body })).text).toBe(
      'null',
    );
    s.step(); // the running attempt is asked to stop, and ends canceled
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({ status: 'canceled' });
    s.step(30); // nothing runs any more, the wait is over: the cleanup starts
    expect((await pairOf(s.call, pair)).latest_deletion_attempt).toMatchObject({
      status: 'STARTED',
    });
    s.step(29);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}`)).status).toBe(200);
    s.step(1);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}`)).status).toBe(404);
    expect(s.emulator.state.documents().map((d) => d.id)).toEqual(['elsewhere']);
    expect(s.emulator.state.connectors({ all: true }).map((c) => c.id)).toEqual([0]);
    expect(s.emulator.state.credentials().map((c) => c.id)).toEqual([0]);
    const gone = await s.call('POST', '/manage/admin/deletion-attempt', { json: body });
    const detail = `Connector with ID '${connector}' and credential ID '0' does not exist. Has it already been deleted?`;
    expect([gone.status, gone.body]).toEqual([
      404,
      kind === 'main' ? { error_code: 'CONNECTOR_NOT_FOUND', detail } : { detail },
    ]);
  });

  it('deletion cancels waiting attempts at once ("Canceled by user"); a resume stops it', async () => {
    const s = await use(kind, { deletionDelayMs: 30 });
    const { connector, pair } = await webPair(s.call);
    s.step(); // the first attempt waits
    await s.call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: 0 },
    });
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({
      status: 'canceled',
      error_msg: 'Canceled by user',
    });
    await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'ACTIVE' } });
    s.step(60_000);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'ACTIVE',
      latest_deletion_attempt: null,
    });
  });

  it('a deletion waits for a hanging attempt to be canceled, then goes on', async () => {
    const s = await use(kind, { deletionDelayMs: 5, tasks: { outcome: 'hang' } });
    const { connector, pair } = await webPair(s.call);
    runFirstAttempt(s);
    s.step(DURATION_MS * 10);
    expect((await pairOf(s.call, pair)).indexing).toBe(true);
    await s.call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: 0 },
    });
    for (let i = 0; i < 4; i++) s.step(5);
    expect((await s.call('GET', `/manage/admin/cc-pair/${pair}`)).status).toBe(404);
  });
});

describe('the background work on its own timer', () => {
  it('runs attempts, prunes and deletions by the real clock (polled, never waited for blindly)', async () => {
    const s = await use('main', {
      now: undefined,
      tasks: { paused: false, startDelayMs: 5, durationMs: 10, pruneMs: 10 },
      deletionDelayMs: 5,
    });
    const { connector, pair } = await webPair(s.call);
    const until = async (check: (p: Json) => boolean) => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const r = await s.call<Json>('GET', `/manage/admin/cc-pair/${pair}`);
        if (check(r.status === 200 ? r.body : { gone: true })) return;
        if (Date.now() > deadline) throw new Error('the pair did not get there within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await until((p) => p.status === 'ACTIVE');
    await s.call('POST', `/manage/admin/cc-pair/${pair}/prune`);
    await until((p) => p.last_pruned !== null);
    await s.call('POST', '/manage/admin/deletion-attempt', {
      json: { connector_id: connector, credential_id: 0 },
    });
    await until((p) => p.gone === true);
    expect(s.emulator.tasks.paused).toBe(false);
  });
});
