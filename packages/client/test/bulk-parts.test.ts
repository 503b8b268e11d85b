// Small parts of a bulk run alone: the result queue its loop reads, and the run's control.
import { describe, expect, it } from 'vitest';
import type { IngestResult } from '../src/index.js';
import { ResultQueue } from '../src/internal/bulk/result-queue.js';
import { RunControl, RunStopped } from '../src/internal/bulk/run-control.js';
import { LevelLogger } from '../src/logging.js';
import { memoryLogger } from './helpers.js';

const result = (index: number): IngestResult => ({
  index,
  ref: undefined,
  documentId: `doc-${index}`,
  ccPairId: null,
  status: 'created',
  attempts: 1,
});

describe('the result queue', () => {
  it('yields results in the order they came, across its compaction, then ends', async () => {
    let reads = 0;
    const queue = new ResultQueue(() => reads++);
    for (let i = 0; i < 3000; i++) queue.push(result(i));
    const seen: number[] = [];
    for (let i = 0; i < 2500; i++) seen.push(((await queue.next()).value as IngestResult).index);
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(queue.unread).toBe(500);
    expect(reads).toBe(2500);
    for (let i = 0; i < 500; i++) await queue.next();
    const waiting = queue.next();
    queue.push(result(3000));
    expect((await waiting).value).toMatchObject({ index: 3000 });
    queue.end(undefined);
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('wakes a waiting reader with the run failure', async () => {
    const queue = new ResultQueue(() => undefined);
    const waiting = queue.next();
    queue.end(new Error('the source failed'));
    await expect(waiting).rejects.toThrow('the source failed');
  });
});

describe('the run control', () => {
  it('stops once, says why in the log, and ends requests and waits with the reason', () => {
    const { logger, lines } = memoryLogger();
    const control = new RunControl(new LevelLogger('info', logger, String, (v) => v));
    let woken = 0;
    control.wake = () => woken++;
    control.stopRun('outage', 'Stopped: no answer.');
    control.stopRun('refused', 'Stopped: again.');
    expect(control.stopped).toEqual({ reason: 'outage', message: 'Stopped: no answer.' });
    expect(control).toMatchObject({ cancelled: true, halted: true });
    expect(RunStopped.isInstance(control.stopError())).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      message: expect.stringContaining('no answer'),
    });
    expect(woken).toBe(1);
  });

  it('stops gracefully: waits end, requests on the wire go on', () => {
    const control = new RunControl(new LevelLogger('off', console, String, (v) => v));
    control.stop();
    expect(control.waits.signal.aborted).toBe(true);
    expect(control.registry.signal.aborted).toBe(false);
    expect(control.stopError().message).toContain('stopped before this document was stored');
  });
});
