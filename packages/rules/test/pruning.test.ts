// Table tests of pruning (docs/deployed-servers.md, "Pruning"): what a prune lists per source and
// when a pair is pruned on its own. Written out from compat notes §7.
import { describe, expect, it } from 'vitest';
import {
  autoPruneDueAt,
  fileConnectorListing,
  MIN_PRUNE_FREQ,
  PRUNE_FREQ_ON_UPDATE,
  pruneListing,
} from '../src/index.js';

describe('pruning', () => {
  it.each([
    ['file', 'file-locations'],
    ['ingestion_api', 'fails'],
    ['web', 'source'],
    ['jira', 'source'],
  ])('a prune of a %s pair lists %s', (source, listing) => {
    expect(pruneListing(source)).toBe(listing);
  });

  it('the file connector enumerates its file locations, nothing with []', () => {
    expect(fileConnectorListing({ file_locations: ['f-1', 'f-2'] })).toEqual([
      'FILE_CONNECTOR__f-1',
      'FILE_CONNECTOR__f-2',
    ]);
    expect(fileConnectorListing({ file_locations: [] })).toEqual([]);
    expect(fileConnectorListing({})).toEqual([]);
  });

  it('a connector update stores 604800 for a null prune_freq; the property takes 300 or more', () => {
    expect([PRUNE_FREQ_ON_UPDATE, MIN_PRUNE_FREQ]).toEqual([604800, 300]);
  });

  const facts = {
    prune_freq: 3600,
    status: 'ACTIVE',
    last_pruned: null,
    connector_created: '2026-01-01T00:00:00.000Z',
    ever_indexed: true,
  };
  it.each([
    ['prune_freq past the connector creation', facts, Date.parse('2026-01-01T01:00:00.000Z')],
    [
      'prune_freq past the last prune',
      { ...facts, last_pruned: '2026-01-05T00:00:00.000Z' },
      Date.parse('2026-01-05T01:00:00.000Z'),
    ],
    ['never without prune_freq', { ...facts, prune_freq: null }, undefined],
    ['never with prune_freq 0', { ...facts, prune_freq: 0 }, undefined],
    ['never while paused', { ...facts, status: 'PAUSED' }, undefined],
    [
      'never before the first successful index (push-only pairs)',
      { ...facts, ever_indexed: false, status: 'ACTIVE' },
      undefined,
    ],
  ])('%s', (_, input, due) => {
    expect(autoPruneDueAt(input)).toBe(due);
  });
});
