// Index attempts over the emulator's own clock, on each kind of server: a new pair is SCHEDULED,
// INITIAL_INDEXING while its first attempt runs and ACTIVE after it; run once, the outcomes a user
// can choose (fail, hang, errors) and what they do to the pair; the attempt and error listings
// with their paging. Expected values are written out from compat-lifecycle.md (§1-§5) and
// docs/deployed-servers.md, "Operating connectors". The clock moves only when a test moves it.
import { describe, expect, it } from 'vitest';
import {
  attemptsOf,
  DURATION_MS,
  emulatorsPerTest,
  ingest,
  type Json,
  KINDS,
  pairOf,
  runFirstAttempt,
  START_DELAY_MS,
  webPair,
} from './lifecycle-helpers.js';

const { use } = emulatorsPerTest();

describe.each(KINDS.map(([kind]) => kind))('index attempts (%s)', (kind) => {
  it('a new pair is SCHEDULED, INITIAL_INDEXING while its first attempt runs, ACTIVE after', async () => {
    const s = await use(kind);
    const { pair } = await webPair(s.call);
    await ingest(s.call, pair, 'doc-1');
    await ingest(s.call, pair, 'doc-2');
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'SCHEDULED',
      number_of_index_attempts: 0,
      last_index_attempt_status: null,
      indexing: false,
      last_indexed: null,
      num_docs_indexed: 2,
    });
    s.step(); // the scheduler creates the first attempt
    expect(await attemptsOf(s.call, pair)).toMatchObject([
      { status: 'not_started', from_beginning: false, time_started: null },
    ]);
    s.step(START_DELAY_MS - 1);
    expect((await pairOf(s.call, pair)).status).toBe('SCHEDULED');
    s.step(1);
    const started = s.now();
    // during the very first attempt, the count is that attempt's new documents (none yet)
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'INITIAL_INDEXING',
      indexing: true,
      last_index_attempt_status: 'in_progress',
      num_docs_indexed: 0,
    });
    s.step(DURATION_MS);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'ACTIVE',
      indexing: false,
      number_of_index_attempts: 1,
      last_index_attempt_status: 'success',
      last_indexed: started,
      num_docs_indexed: 2,
      in_repeated_error_state: false,
    });
    expect(await attemptsOf(s.call, pair)).toEqual([
      {
        id: expect.any(Number),
        status: 'success',
        from_beginning: false,
        new_docs_indexed: 2,
        total_docs_indexed: 2,
        docs_removed_from_index: 0,
        error_msg: null,
        error_count: 0,
        full_exception_trace: null,
        time_started: started,
        time_updated: s.now(),
        poll_range_start: null,
        poll_range_end: started,
      },
    ]);
  });

  it('run once: one attempt per pair, none while one waits or runs; it reads what changed', async () => {
    const s = await use(kind);
    const { connector, pair } = await webPair(s.call);
    await ingest(s.call, pair, 'old');
    runFirstAttempt(s);
    s.step(1);
    await ingest(s.call, pair, 'new');
    const run = () =>
      s.call('POST', '/manage/admin/connector/run-once', { json: { connector_id: connector } });
    const first = await run();
    expect([first.status, first.body]).toEqual([
      200,
      { success: true, message: 'Marked 1 index attempts with indexing triggers.', data: 1 },
    ]);
    // nothing runs inside the request: the attempt shows once a worker round takes the trigger
    expect(await attemptsOf(s.call, pair)).toHaveLength(1);
    s.step();
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({ status: 'not_started' });
    const again = await run();
    expect(again.body).toEqual({
      success: true,
      message: 'Marked 0 index attempts with indexing triggers.',
      data: 0,
    });
    s.step(START_DELAY_MS);
    expect((await run()).body).toMatchObject({ data: 0 }); // running: skipped too
    s.step(DURATION_MS);
    const [latest, firstAttempt] = await attemptsOf(s.call, pair);
    expect(latest).toMatchObject({
      status: 'success',
      from_beginning: false,
      new_docs_indexed: 1,
      total_docs_indexed: 1,
      poll_range_start: firstAttempt!.poll_range_end,
    });
    // from the beginning: every document again
    await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: connector, credential_ids: [0], from_beginning: true },
    });
    s.step();
    s.step(START_DELAY_MS);
    s.step(DURATION_MS);
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({
      from_beginning: true,
      total_docs_indexed: 2,
    });
  });

  it('run once refuses an unknown connector, a credential not attached, a connector without pairs', async () => {
    const s = await use(kind);
    const { connector } = await webPair(s.call);
    const unknown = await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: 99 },
    });
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { detail: 'Connector by id 99 does not exist.' },
    ]);
    const notAttached = await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: connector, credential_ids: [0, 5] },
    });
    expect([notAttached.status, notAttached.body]).toEqual([
      400,
      { detail: 'Not all specified credentials are associated with connector' },
    ]);
    const lonely = await s.call<{ id: number }>('POST', '/manage/admin/connector', {
      json: {
        name: 'Lonely',
        source: 'web',
        input_type: 'load_state',
        access_type: 'public',
        connector_specific_config: { base_url: 'https://lonely.example.com' },
      },
    });
    const noPairs = await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: lonely.body.id, credential_ids: [] },
    });
    expect([noPairs.status, noPairs.body]).toEqual([
      400,
      { detail: 'Connector has no valid credentials, cannot create index attempts.' },
    ]);
  });

  it('a paused pair keeps its trigger (counted) and runs it once resumed; the ingestion pair never runs', async () => {
    const s = await use(kind);
    const { connector, pair } = await webPair(s.call);
    runFirstAttempt(s);
    await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'PAUSED' } });
    const run = await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: connector, from_beginning: true },
    });
    expect(run.body).toMatchObject({ data: 1 });
    s.step(60_000);
    expect(await attemptsOf(s.call, pair)).toHaveLength(1);
    await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'ACTIVE' } });
    s.step();
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({
      status: 'not_started',
      from_beginning: true,
    });
    // connector 0 (ingestion) has pair 1: the trigger is stored and counted, nothing runs
    const ingestion = await s.call('POST', '/manage/admin/connector/run-once', {
      json: { connector_id: 0 },
    });
    expect(ingestion.body).toMatchObject({ data: 1 });
    s.step(60_000);
    expect(await attemptsOf(s.call, 1)).toEqual([]);
  });

  it('refresh_freq: a new attempt once the time has passed since the last one', async () => {
    const s = await use(kind);
    const { pair } = await webPair(s.call, { refresh_freq: 600 });
    runFirstAttempt(s);
    s.step(600_000 - 1);
    expect(await attemptsOf(s.call, pair)).toHaveLength(1);
    s.step(1);
    expect(await attemptsOf(s.call, pair)).toHaveLength(2);
  });

  it('paging: newest first, total over all pages; page_size is checked', async () => {
    const s = await use(kind);
    const { connector, pair } = await webPair(s.call);
    runFirstAttempt(s);
    for (let i = 0; i < 4; i++) {
      await s.call('POST', '/manage/admin/connector/run-once', {
        json: { connector_id: connector },
      });
      runFirstAttempt(s);
    }
    const all = await attemptsOf(s.call, pair);
    expect(all).toHaveLength(5);
    const ids = all.map((a) => a.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const page = await s.call<Json>(
      'GET',
      `/manage/admin/cc-pair/${pair}/index-attempts?page_num=1&page_size=2`,
    );
    expect(page.body).toMatchObject({ total_items: 5 });
    expect((page.body.items as Json[]).map((a) => a.id)).toEqual(ids.slice(2, 4));
    const tooBig = await s.call(
      'GET',
      `/manage/admin/cc-pair/${pair}/index-attempts?page_size=1001`,
    );
    expect(tooBig.status).toBe(422);
  });
});

describe.each(KINDS.map(([kind]) => kind))('attempt outcomes (%s)', (kind) => {
  it('fail: the attempt fails; without refresh_freq one failure is a repeated error state', async () => {
    const s = await use(kind, { tasks: { outcome: 'fail' } });
    const { connector, pair } = await webPair(s.call);
    runFirstAttempt(s);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'INITIAL_INDEXING',
      last_index_attempt_status: 'failed',
      in_repeated_error_state: true,
      last_indexed: null,
    });
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({
      status: 'failed',
      error_msg: 'kis-emulator: simulated indexing failure (attempts set to fail)',
      full_exception_trace: expect.stringContaining('Traceback'),
    });
    s.emulator.tasks.setAttemptOutcome('succeed', pair);
    await s.call('POST', '/manage/admin/connector/run-once', { json: { connector_id: connector } });
    runFirstAttempt(s);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'ACTIVE',
      in_repeated_error_state: false,
    });
  });

  it('fail with refresh_freq: five failures in a row', async () => {
    const s = await use(kind, { tasks: { outcome: 'fail' } });
    const { connector, pair } = await webPair(s.call, { refresh_freq: 3600 });
    runFirstAttempt(s);
    for (let i = 1; i < 5; i++) {
      expect((await pairOf(s.call, pair)).in_repeated_error_state).toBe(false);
      await s.call('POST', '/manage/admin/connector/run-once', {
        json: { connector_id: connector },
      });
      runFirstAttempt(s);
    }
    expect((await pairOf(s.call, pair)).in_repeated_error_state).toBe(true);
  });

  it('errors: completed with errors, the error listed until a later success resolves it', async () => {
    const s = await use(kind, { tasks: { outcome: 'errors' } });
    const { connector, pair } = await webPair(s.call);
    await ingest(s.call, pair, 'broken');
    runFirstAttempt(s);
    const [attempt] = await attemptsOf(s.call, pair);
    expect(attempt).toMatchObject({ status: 'completed_with_errors', error_count: 1 });
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'ACTIVE',
      last_index_attempt_status: 'completed_with_errors',
      last_indexed: attempt!.time_started,
    });
    const errors = await s.call<Json>('GET', `/manage/admin/cc-pair/${pair}/errors`);
    expect(errors.body).toEqual({
      items: [
        {
          id: expect.any(Number),
          connector_credential_pair_id: pair,
          document_id: 'broken',
          document_link: 'https://docs.example.com/broken',
          entity_id: null,
          failed_time_range_start: null,
          failed_time_range_end: null,
          failure_message:
            'kis-emulator: simulated failure to index document broken (attempts set to errors)',
          is_resolved: false,
          time_created: expect.any(String),
          index_attempt_id: attempt!.id,
          error_type: null,
        },
      ],
      total_items: 1,
    });
    s.emulator.tasks.setAttemptOutcome('succeed');
    await s.call('POST', '/manage/admin/connector/run-once', { json: { connector_id: connector } });
    runFirstAttempt(s);
    const open = await s.call<Json>('GET', `/manage/admin/cc-pair/${pair}/errors`);
    expect(open.body).toEqual({ items: [], total_items: 0 });
    const all = await s.call<Json>(
      'GET',
      `/manage/admin/cc-pair/${pair}/errors?include_resolved=true`,
    );
    expect(all.body).toMatchObject({ items: [{ is_resolved: true }], total_items: 1 });
  });

  it('errors paging: newest first, page_size 1 to 100', async () => {
    const s = await use(kind, { tasks: { outcome: 'errors' } });
    const { connector, pair } = await webPair(s.call);
    runFirstAttempt(s);
    for (let i = 0; i < 2; i++) {
      await s.call('POST', '/manage/admin/connector/run-once', {
        json: { connector_id: connector },
      });
      runFirstAttempt(s);
    }
    const page = await s.call<{ items: Json[]; total_items: number }>(
      'GET',
      `/manage/admin/cc-pair/${pair}/errors?page_num=0&page_size=2`,
    );
    expect(page.body.total_items).toBe(3);
    const [newest, older] = page.body.items;
    expect(newest!.index_attempt_id as number).toBeGreaterThan(older!.index_attempt_id as number);
    // with no document to read, the error names the source entity
    expect(newest).toMatchObject({ document_id: null, entity_id: expect.any(String) });
    const tooBig = await s.call('GET', `/manage/admin/cc-pair/${pair}/errors?page_size=101`);
    expect(tooBig.status).toBe(422);
  });

  it('hang: the attempt stays in progress until a pause cancels it', async () => {
    const s = await use(kind, { tasks: { outcome: 'hang' } });
    const { pair } = await webPair(s.call);
    runFirstAttempt(s);
    s.step(3_600_000);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'INITIAL_INDEXING',
      indexing: true,
    });
    const paused = await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, {
      json: { status: 'PAUSED' },
    });
    expect([paused.status, paused.body]).toEqual([200, { message: '200' }]);
    // the pause answers at once; the attempt ends canceled at the next round
    expect((await attemptsOf(s.call, pair))[0]).toMatchObject({ status: 'in_progress' });
    s.step();
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'PAUSED',
      indexing: false,
      last_index_attempt_status: 'canceled',
    });
    // resumed, even a pair that never succeeded is ACTIVE (the status is not checked)
    await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status: 'ACTIVE' } });
    s.step();
    expect((await pairOf(s.call, pair)).status).toBe('ACTIVE');
  });
});

describe('choosing outcomes over HTTP', () => {
  it('POST /_emulator/attempts/{outcome}: every pair, or one with ?cc_pair_id=; admin key only', async () => {
    const s = await use('main');
    const control = (path: string, key = s.emulator.adminKey) =>
      fetch(`${s.emulator.url}/_emulator/attempts/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
    const a = await webPair(s.call, { name: 'A' });
    const b = await webPair(s.call, { name: 'B' });
    const all = await control('errors');
    expect(await all.json()).toMatchObject({ outcome: 'errors', cc_pair_id: null });
    const one = await control(`fail?cc_pair_id=${b.pair}`);
    expect(await one.json()).toMatchObject({ outcome: 'fail', cc_pair_id: b.pair });
    runFirstAttempt(s);
    expect((await pairOf(s.call, a.pair)).last_index_attempt_status).toBe('completed_with_errors');
    expect((await pairOf(s.call, b.pair)).last_index_attempt_status).toBe('failed');
    expect((await control('explode')).status).toBe(404);
    expect((await control('fail?cc_pair_id=x')).status).toBe(400);
    expect((await control('fail', 'lifecycle-basic-key-1')).status).toBe(403);
    expect(s.emulator.tasks.attemptOutcome(b.pair)).toBe('fail');
    expect(s.emulator.tasks.attemptOutcome()).toBe('errors');
  });
});
