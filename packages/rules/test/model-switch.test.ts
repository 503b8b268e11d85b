// Table tests of the embedding-model switch (docs/deployed-servers.md, "Model switch"): which
// pairs a port copies, what the legacy flow skips, when the swap waits. From compat notes §8.
import { describe, expect, it } from 'vitest';
import {
  inPortScope,
  legacyIndexesSource,
  legacyInstantDropsDocuments,
  NO_REINDEX_PROGRESS,
  type SwitchoverType,
  swapWaitsForPorts,
  switchFlow,
  switchKeepsPushed,
} from '../src/index.js';

describe('model switch', () => {
  it.each<[string, SwitchoverType, boolean]>([
    ['SCHEDULED', 'reindex', true],
    ['INITIAL_INDEXING', 'reindex', true],
    ['ACTIVE', 'active_only', true],
    ['PAUSED', 'reindex', true],
    ['PAUSED', 'instant', true],
    ['PAUSED', 'active_only', false],
    ['INVALID', 'reindex', false],
    ['DELETING', 'reindex', false],
  ])('a %s pair under %s is ported: %s', (status, switchover, ported) => {
    expect(inPortScope(status, switchover)).toBe(ported);
  });

  it('the legacy flow skips push-only pairs; a legacy instant swap drops the documents', () => {
    expect(legacyIndexesSource('ingestion_api')).toBe(false);
    expect(legacyIndexesSource('file')).toBe(true);
    expect(legacyInstantDropsDocuments('instant', false)).toBe(true);
    expect(legacyInstantDropsDocuments('instant', true)).toBe(false);
    expect(legacyInstantDropsDocuments('reindex', false)).toBe(false);
  });

  it.each<[boolean | null | undefined, string | undefined, string]>([
    [true, 'v4.0.0', 'port'],
    [false, undefined, 'legacy'],
    [null, 'v4.4.0', 'port'],
    [null, 'v4.3.2', 'legacy'],
    [undefined, undefined, 'port'],
  ])('use_port_flow %j on %s: the %s flow', (usePortFlow, version, flow) => {
    expect(switchFlow(usePortFlow, version)).toBe(flow);
  });

  it('instant swaps at once, the others wait for every port; progress is all 0 without one', () => {
    expect(
      ['reindex', 'active_only', 'instant'].map((s) => swapWaitsForPorts(s as SwitchoverType)),
    ).toEqual([true, true, false]);
    expect(NO_REINDEX_PROGRESS).toEqual({
      total: 0,
      waiting: 0,
      in_progress: 0,
      completed: 0,
      failed: 0,
      paused: 0,
    });
  });

  it('pushed documents reach a new index by themselves through the port flow only', () => {
    expect(switchKeepsPushed(true)).toBe(true);
    expect(switchKeepsPushed(false)).toBe(false);
  });
});
