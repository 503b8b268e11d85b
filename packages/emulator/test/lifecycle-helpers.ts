// Helpers of the pair lifecycle tests: the three kinds of server the emulator plays, an emulator
// on a clock the test moves by hand with its background work paused (each `step` moves the clock
// and runs one round: no timer, no sleep), and pairs of a `web` connector to operate.
import { afterEach, expect } from 'vitest';
import type { Emulator, EmulatorOptions } from '../src/index.js';
import { doc, start } from './helpers.js';

export type Json = Record<string, unknown>;
export type Kind = 'seed' | 'main' | 'v4.6.1';

/** The options that make the emulator play each kind of server. */
export const KINDS: readonly [Kind, EmulatorOptions][] = [
  ['seed', { profile: 'seed' }],
  ['main', { profile: 'deployed' }],
  ['v4.6.1', { profile: 'deployed', release: 'v4.6.1' }],
];

export const CURATOR = 'lifecycle-curator-key-1';
export const BASIC = 'lifecycle-basic-key-1';

/** The emulator's default timing of an index attempt: waiting, then running. */
export const START_DELAY_MS = 100;
export const DURATION_MS = 1000;

export async function startPaused(kind: Kind, options: EmulatorOptions = {}) {
  let time = Date.parse('2026-03-01T08:00:00.000Z');
  const base = KINDS.find(([k]) => k === kind)![1];
  const started = await start({
    ...base,
    curatorKeys: [CURATOR],
    userKeys: [BASIC],
    now: () => new Date(time),
    ...options,
    tasks: { paused: true, ...options.tasks },
  });
  const { emulator, call } = started;
  return {
    emulator,
    call,
    /** The emulator's time now, as it writes it. */
    now: () => new Date(time).toISOString(),
    /** Moves the clock by `ms`, then runs one round of the background work. */
    step(ms = 0): void {
      time += ms;
      emulator.tasks.tick();
    },
  };
}

export type Started = Awaited<ReturnType<typeof startPaused>>;
type Call = Started['call'];

/**
 * The emulators of a file's tests, each closed after its test: `use` starts one paused (as
 * `startPaused`), `track` takes one started otherwise (closing it sooner as well is fine).
 */
export function emulatorsPerTest() {
  const open: Emulator[] = [];
  afterEach(async () => {
    for (const emulator of open.splice(0)) await emulator.close();
  });
  function track<T extends { emulator: Emulator }>(started: T): T {
    open.push(started.emulator);
    return started;
  }
  return {
    use: async (...args: Parameters<typeof startPaused>): Promise<Started> =>
      track(await startPaused(...args)),
    track,
  };
}

/**
 * A `web` connector (no credential needed) and its pair with credential 0, the pair named and
 * shared as the connector.
 */
export async function webPair(call: Call, connector: Json = {}) {
  const body = {
    name: 'Docs site',
    source: 'web',
    input_type: 'load_state',
    access_type: 'public',
    connector_specific_config: { base_url: 'https://docs.example.com' },
    ...connector,
  };
  const created = await call<{ id: number }>('POST', '/manage/admin/connector', { json: body });
  expect(created.status).toBe(200);
  const connectorId = created.body.id;
  const associated = await call<{ data: number }>(
    'PUT',
    `/manage/connector/${connectorId}/credential/0`,
    { json: { name: body.name, access_type: body.access_type } },
  );
  expect(associated.status).toBe(200);
  return { connector: connectorId, pair: associated.body.data };
}

/** Ingests a document into a pair. */
export async function ingest(call: Call, pair: number, id: string, text = 'Some text') {
  const r = await call('POST', '/svc-api/ingestion', {
    json: {
      document: doc({
        id,
        semantic_identifier: id,
        sections: [{ text, link: `https://docs.example.com/${id}` }],
      }),
      cc_pair_id: pair,
    },
  });
  expect(r.status).toBe(200);
}

export async function pairOf(call: Call, pair: number): Promise<Json> {
  const r = await call<Json>('GET', `/manage/admin/cc-pair/${pair}`);
  expect(r.status).toBe(200);
  return r.body;
}

export async function attemptsOf(call: Call, pair: number, query = ''): Promise<Json[]> {
  const r = await call<{ items: Json[] }>(
    'GET',
    `/manage/admin/cc-pair/${pair}/index-attempts${query}`,
  );
  expect(r.status).toBe(200);
  return r.body.items;
}

/** Runs a pair's first attempt to its end: it is created, waits, runs and ends. */
export function runFirstAttempt(s: Started): void {
  s.step(); // the scheduler creates it
  s.step(START_DELAY_MS); // a worker takes it
  s.step(DURATION_MS); // it ends
}

/** Polls `check` every few milliseconds until it holds (or fails after `timeoutMs`). */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
