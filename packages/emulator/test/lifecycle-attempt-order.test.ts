// Which attempt is a pair's newest, on each kind of server: servers take it by creation
// (`time_created`, then id), so an attempt a pause canceled before it started stays behind the
// attempts created after it (compat-lifecycle.md §1, §2, §4, §5; issue 29). Over HTTP, first on
// the emulator's own timer as a user meets it, then on a clock that stays in one millisecond.
import { describe, expect, it } from 'vitest';
import { start } from './helpers.js';
import {
  attemptsOf,
  DURATION_MS,
  emulatorsPerTest,
  type Json,
  KINDS,
  pairOf,
  START_DELAY_MS,
  type Started,
  until,
  webPair,
} from './lifecycle-helpers.js';

const { use, track } = emulatorsPerTest();

const FILE_CONNECTOR = {
  name: 'Uploads',
  source: 'file',
  connector_specific_config: { file_locations: [] },
};

async function setStatus(s: Pick<Started, 'call'>, pair: number, status: string) {
  const r = await s.call('PUT', `/manage/admin/cc-pair/${pair}/status`, { json: { status } });
  expect(r.status).toBe(200);
}

async function runFromBeginning(s: Pick<Started, 'call'>, connector: number) {
  const r = await s.call('POST', '/manage/admin/connector/run-once', {
    json: { connector_id: connector, from_beginning: true },
  });
  expect(r.body).toMatchObject({ success: true, data: 1 });
}

/** The pair's row of the indexing-status listing. */
async function statusRow(s: Pick<Started, 'call'>, pair: number): Promise<Json | undefined> {
  const r = await s.call<{ indexing_statuses: Json[] }[]>(
    'POST',
    '/manage/admin/connector/indexing-status',
    { json: { get_all_connectors: true } },
  );
  expect(r.status).toBe(200);
  return r.body.flatMap((e) => e.indexing_statuses).find((row) => row.cc_pair_id === pair);
}

describe.each(KINDS)('the newest attempt is the newest created (%s)', (kind, base) => {
  it('pause, resume, run once from the beginning: the new success leads, the canceled one follows', async () => {
    // the worker holds still until the first attempt is canceled, so it never starts
    const s = track(await start({ ...base, tasks: { paused: true } }));
    const { connector, pair } = await webPair(s.call, FILE_CONNECTOR);
    s.emulator.tasks.tick(); // the first attempt: created, waiting
    await setStatus(s, pair, 'PAUSED');
    await setStatus(s, pair, 'ACTIVE');
    s.emulator.tasks.resume(); // the worker ends the paused attempt canceled
    await until(async () => (await attemptsOf(s.call, pair))[0]?.status === 'canceled');
    await runFromBeginning(s, connector);
    await until(
      async () => (await attemptsOf(s.call, pair)).some((a) => a.status === 'success'),
      10_000,
    );

    const [newest, older, ...rest] = await attemptsOf(s.call, pair);
    expect(rest).toEqual([]);
    expect(newest).toMatchObject({ status: 'success', from_beginning: true });
    expect(older).toMatchObject({ status: 'canceled', from_beginning: false });
    expect(newest!.id as number).toBeGreaterThan(older!.id as number);
    expect(await pairOf(s.call, pair)).toMatchObject({
      status: 'ACTIVE',
      number_of_index_attempts: 2,
      last_index_attempt_status: 'success',
      indexing: false,
      last_indexed: newest!.time_started,
    });
    expect(await statusRow(s, pair)).toMatchObject({
      in_progress: false,
      last_status: 'success',
      last_finished_status: 'success',
      last_success: newest!.time_started,
    });
    expect(s.emulator.state.indexAttempts(pair).map((a) => a.id)).toEqual([newest!.id, older!.id]);
  });

  it('attempts created in the same millisecond: the higher id is the newer', async () => {
    const s = await use(kind); // the clock moves only when the test moves it
    const { connector, pair } = await webPair(s.call, FILE_CONNECTOR);
    s.step(); // the first attempt waits
    await setStatus(s, pair, 'PAUSED');
    s.step(); // it ends canceled, never started
    await setStatus(s, pair, 'ACTIVE');
    await runFromBeginning(s, connector);
    s.step(); // the second attempt, created in the same millisecond as the first
    const stored = s.emulator.state.indexAttempts(pair);
    expect(stored.map((a) => a.time_created)).toEqual([s.now(), s.now()]);
    const waiting = await attemptsOf(s.call, pair);
    expect(waiting.map((a) => a.status)).toEqual(['not_started', 'canceled']);
    expect(waiting.map((a) => a.id)).toEqual(stored.map((a) => a.id));
    expect(waiting[0]!.id as number).toBeGreaterThan(waiting[1]!.id as number);
    expect(await pairOf(s.call, pair)).toMatchObject({
      last_index_attempt_status: 'not_started',
      indexing: false,
    });

    s.step(START_DELAY_MS);
    expect(await pairOf(s.call, pair)).toMatchObject({
      last_index_attempt_status: 'in_progress',
      indexing: true,
    });
    expect((await statusRow(s, pair))?.last_finished_status).toBe('canceled');
    s.step(DURATION_MS);
    const ended = await attemptsOf(s.call, pair);
    expect(ended.map((a) => [a.id, a.status])).toEqual([
      [waiting[0]!.id, 'success'],
      [waiting[1]!.id, 'canceled'],
    ]);
    expect(await pairOf(s.call, pair)).toMatchObject({
      last_index_attempt_status: 'success',
      indexing: false,
      last_indexed: ended[0]!.time_started,
    });
  });
});
