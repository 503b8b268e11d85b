/**
 * `kis connector status` after a pause, a resume and a run (issue 29): the attempt the pause
 * canceled before it started is older than the run's, so the status shows the run's outcome.
 * Servers take a pair's newest attempt by creation (compat-lifecycle §1, §2). Against the
 * emulator of the test project's profile, on its own timer and timing.
 */
import type { Emulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, emulator, envFor, jsonLines, kis } from '../helpers/cli.js';
import { until } from '../helpers/pairs.js';

let emu: Emulator;
let env: Record<string, string>;

const NAME = 'uploads';

beforeAll(async () => {
  assertBuilt();
  // the worker holds still until the test has its first attempt waiting, so the pause cancels
  // it before it starts (as when pausing right after creating the connector)
  emu = await emulator({ tasks: { paused: true } });
  env = envFor(emu);
});

afterAll(async () => {
  await emu?.close();
});

async function statusJson(): Promise<Record<string, unknown>> {
  const r = await kis(['--json', 'connector', 'status', NAME], { env });
  expect(r.code).toBe(0);
  const [snapshot] = jsonLines(r.stdout);
  return snapshot!;
}

type Attempt = { id: number; status: string };

describe('kis connector status after pause, resume and run --from-beginning', () => {
  it("shows the run's success as the last status, the canceled attempt after it", async () => {
    const config = '{"file_locations": []}';
    const create = ['connector', 'create', '--name', NAME, '--source', 'file', '--config', config];
    const created = await kis(['--json', ...create], { env });
    expect(created.code).toBe(0);
    const pair = jsonLines(created.stdout)[0]?.cc_pair_id as number;
    emu.tasks.tick(); // the pair's first attempt: created, waiting
    expect(emu.state.indexAttempts(pair).map((a) => a.status)).toEqual(['not_started']);

    expect((await kis(['connector', 'pause', NAME], { env })).code).toBe(0);
    emu.tasks.resume();
    await until('the waiting attempt to be canceled', () =>
      emu.state.indexAttempts(pair).some((a) => a.status === 'canceled'),
    );
    expect((await kis(['connector', 'resume', NAME], { env })).code).toBe(0);
    expect((await kis(['connector', 'run', NAME, '--from-beginning'], { env })).code).toBe(0);

    let last: Record<string, unknown> = {};
    await until('the run to succeed', async () => {
      last = await statusJson();
      return (last.attempts as Attempt[]).some((a) => a.status === 'success');
    });
    expect(last.pair).toMatchObject({
      status: 'ACTIVE',
      number_of_index_attempts: 2,
      last_index_attempt_status: 'success',
      indexing: false,
    });
    const attempts = last.attempts as Attempt[];
    expect(attempts.map((a) => a.status)).toEqual(['success', 'canceled']);
    expect(attempts[0]!.id).toBeGreaterThan(attempts[1]!.id);

    const text = await kis(['connector', 'status', NAME], { env });
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toContain('  status:        ACTIVE');
    expect(lines).toContain('index attempts (newest first, 2 of 2):');
    expect(lines.filter((l) => l.startsWith('  #'))).toEqual([
      expect.stringMatching(/^ {2}#\d+ {2}success {2}started \S+, from the beginning: /),
      expect.stringMatching(/^ {2}#\d+ {2}canceled {2}/),
    ]);
  });
});
