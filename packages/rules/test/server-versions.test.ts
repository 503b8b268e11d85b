// Table tests of facts that depend on a server's release number (docs/deployed-servers.md,
// "Releases"): the inverted `already_existed`, the hash gate, the port flow, reindex progress.
import { describe, expect, it } from 'vitest';
import {
  KIND_RELEASES,
  parseReleaseNumber,
  type ReleaseFact,
  releaseHas,
  releaseRouteOf,
} from '../src/index.js';

describe('release numbers', () => {
  it.each([
    ['v4.6.1', [4, 6, 1]],
    ['4.6.1', [4, 6, 1]],
    ['v3.2.0-cloud.4', [3, 2, 0]],
    ['4.6', [4, 6, 0]],
    ['main', undefined],
    ['kis-emulator 0.1.0 (deployed)', undefined],
  ])('%s reads as %j', (text, release) => {
    expect(parseReleaseNumber(text)).toEqual(release);
  });

  it.each<[ReleaseFact, string | undefined, boolean]>([
    ['alreadyExistedInverted', '0.19.9', false],
    ['alreadyExistedInverted', 'v0.20.0', true],
    ['alreadyExistedInverted', 'v3.2.16', true],
    ['alreadyExistedInverted', 'v3.3.0', false],
    ['alreadyExistedInverted', 'v4.6.1', false],
    ['alreadyExistedInverted', undefined, false],
    ['contentHashGate', 'v3.3.0', false],
    ['contentHashGate', 'v4.0.0', true],
    ['contentHashGate', undefined, true],
    ['portFlow', 'v4.3.9', false],
    ['portFlow', 'v4.4.0', true],
    ['reindexProgress', 'v4.4.2', false],
    ['reindexProgress', 'v4.5.0', true],
    ['reindexProgress', 'not a release', true],
  ])('%s on %s: %s', (fact, version, has) => {
    expect(releaseHas(fact, version)).toBe(has);
  });

  it('each kind of server plays a release: 4.6.1, or the newest', () => {
    expect(KIND_RELEASES).toEqual({ seed: undefined, main: undefined, 'v4.6.1': '4.6.1' });
  });
});

describe('routes a release added', () => {
  it('a 404 on reindex progress means a server older than 4.5.0', () => {
    expect(releaseRouteOf('/search-settings/reindex-progress')).toEqual({
      feature: 'reindex progress',
      since: '4.5.0',
    });
    expect(releaseRouteOf('/search-settings/reindex-errors')?.since).toBe('4.5.0');
    expect(releaseRouteOf('/admin/search')).toBeUndefined();
  });
});
