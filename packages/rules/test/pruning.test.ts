// Table tests of pruning (docs/deployed-servers.md, "Pruning"): what a prune lists per source and
// when a pair is pruned on its own. Written out from compat notes §7.
import { describe, expect, it } from 'vitest';
import {
  autoPruneDueAt,
  fileConnectorListing,
  MIN_PRUNE_FREQ,
  PRUNE_FREQ_NEVER,
  PRUNE_FREQ_ON_UPDATE,
  PUSH_ONLY_CONNECTOR,
  prunedIds,
  pruneListing,
  prunePatchValue,
  prunesOnItsOwn,
} from '../src/index.js';

const facts = {
  prune_freq: 3600,
  status: 'ACTIVE',
  last_pruned: null,
  connector_created: '2026-01-01T00:00:00.000Z',
  ever_indexed: true,
};

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

  it.each<[string, Record<string, unknown>, string[] | undefined]>([
    ['file', { file_locations: [] }, ['docs%2Fa.md', 'FILE_CONNECTOR__f-1']],
    ['file', { file_locations: ['f-1'] }, ['docs%2Fa.md']],
    ['ingestion_api', {}, []],
    ['web', { base_url: 'https://example.com' }, undefined],
  ])('a prune of a %s pair (%j) removes %j', (source, config, removed) => {
    expect(prunedIds(source, config, ['docs%2Fa.md', 'FILE_CONNECTOR__f-1'])).toEqual(removed);
  });

  it.each<[number | null | undefined, number, boolean]>([
    [null, 0, false],
    [undefined, 0, false],
    [0, 0, false],
    [86400, 86400, true],
  ])('prune_freq %j is sent on update as %j; prunes on its own: %j', (value, sent, armed) => {
    expect(prunePatchValue(value)).toBe(sent);
    expect(prunesOnItsOwn(value)).toBe(armed);
  });

  it('0 is never: kept as sent, where an update stores 604800 for null', () => {
    expect(PRUNE_FREQ_NEVER).toBe(0);
    expect(autoPruneDueAt({ ...facts, prune_freq: PRUNE_FREQ_NEVER })).toBeUndefined();
  });

  it('a pair to push into: an ingestion_api connector with no refresh and no prune', () => {
    expect(PUSH_ONLY_CONNECTOR).toEqual({
      source: 'ingestion_api',
      input_type: 'load_state',
      connector_specific_config: {},
      refresh_freq: null,
      prune_freq: null,
    });
    expect(pruneListing(PUSH_ONLY_CONNECTOR.source)).toBe('fails');
  });
});

describe('automatic prunes', () => {
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
