import type { WorkerProgress } from '@kis/queue';
import { describe, expect, it } from 'vitest';
import { statusLine } from '../src/internal/commands/worker/index.js';

const idle: WorkerProgress = {
  activeJobs: 0,
  jobsCompleted: 3,
  jobsFailed: 0,
  jobsReturned: 0,
  created: 30,
  updated: 0,
  failed: 0,
  skipped: 0,
  inFlight: 0,
  overloadPauses: 0,
  pausedSince: undefined,
};

describe("a worker's status line", () => {
  it('says nothing while the worker waits for jobs', () => {
    expect(statusLine({ name: 'w1', progress: () => idle })).toBeUndefined();
  });

  it('counts jobs and requests in flight while it works', () => {
    const busy = { ...idle, activeJobs: 2, inFlight: 1 };
    expect(statusLine({ name: 'w1', progress: () => busy })).toBe(
      'worker w1: 30 stored, 0 failed, 0 skipped; 2 job(s) active, 1 request(s) in flight',
    );
  });
});
