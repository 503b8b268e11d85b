// Table tests of who sees a document (docs/deployed-servers.md, "Who sees a document"): readers
// from the pairs that hold it, and the access strings a caller matches with. Written out from
// compat notes §2.
import { describe, expect, it } from 'vitest';
import {
  callerReaders,
  documentReaders,
  maySee,
  type OwningPair,
  pairGrants,
} from '../src/index.js';

const pair = (over: Partial<OwningPair>): OwningPair => ({
  status: 'ACTIVE',
  access_type: 'private',
  credential_owner_email: 'owner@example.com',
  group_names: [],
  ...over,
});

describe('readers of a document', () => {
  it.each<[string, OwningPair[], string[]]>([
    [
      'a public pair: everyone, and its credential owner',
      [pair({ access_type: 'public' })],
      ['PUBLIC', 'user_email:owner@example.com'],
    ],
    ['a private pair: its credential owner', [pair({})], ['user_email:owner@example.com']],
    [
      'a private pair with groups: the owner and the groups by name',
      [pair({ group_names: ['Sales', 'Eng'] })],
      ['group:Eng', 'group:Sales', 'user_email:owner@example.com'],
    ],
    ['a sync pair: nobody', [pair({ access_type: 'sync', group_names: ['Eng'] })], []],
    [
      'pair 1 (credential 0, no owner, public)',
      [pair({ access_type: 'public', credential_owner_email: null })],
      ['PUBLIC'],
    ],
    [
      'the union over the pairs; a deleting pair gives nothing',
      [
        pair({ credential_owner_email: 'a@x' }),
        pair({ credential_owner_email: 'b@x', group_names: ['G'] }),
        pair({ status: 'DELETING', access_type: 'public', credential_owner_email: 'c@x' }),
      ],
      ['group:G', 'user_email:a@x', 'user_email:b@x'],
    ],
    [
      'spelled in capitals',
      [pair({ access_type: 'PUBLIC', credential_owner_email: null })],
      ['PUBLIC'],
    ],
  ])('%s', (_, owners, readers) => {
    expect(documentReaders(owners, 'enterprise')).toEqual(readers);
  });

  it('the community edition stores group links and ignores them', () => {
    expect(documentReaders([pair({ group_names: ['Eng'] })], 'community')).toEqual([
      'user_email:owner@example.com',
    ]);
    expect(callerReaders('me@x', ['Eng'], 'community')).toEqual(['PUBLIC', 'user_email:me@x']);
  });
});

describe('a caller', () => {
  it('matches with PUBLIC, its own e-mail and its groups; no admin bypass', () => {
    const me = callerReaders('API_KEY__ci@u1.apikey', ['Eng'], 'enterprise');
    expect(me).toEqual(['PUBLIC', 'user_email:API_KEY__ci@u1.apikey', 'group:Eng']);
    expect(maySee(['PUBLIC'], me)).toBe(true);
    expect(maySee(['group:Eng'], me)).toBe(true);
    expect(maySee(['user_email:API_KEY__ci@u1.apikey'], me)).toBe(true);
    expect(maySee(['user_email:other@x', 'group:Sales'], me)).toBe(false);
    expect(maySee([], me)).toBe(false);
  });
});

describe('a pair granting a caller', () => {
  const me = callerReaders('me@x', ['Eng'], 'enterprise');
  it.each<[string, OwningPair, boolean]>([
    ['a public pair grants everyone', pair({ access_type: 'public' }), true],
    ['a private pair grants its credential owner', pair({ credential_owner_email: 'me@x' }), true],
    ['a private pair of another owner does not', pair({}), false],
    ['a private pair grants its groups', pair({ group_names: ['Eng'] }), true],
    ['a sync pair grants nobody', pair({ access_type: 'sync', group_names: ['Eng'] }), false],
    ['a deleting pair grants nobody', pair({ status: 'DELETING', access_type: 'public' }), false],
  ])('%s', (_, owner, granted) => {
    expect(pairGrants(owner, me, 'enterprise')).toBe(granted);
  });

  it('a document is seen when one of its pairs grants it: the union, one pair at a time', () => {
    const owners = [pair({}), pair({ group_names: ['Eng'] })];
    expect(maySee(documentReaders(owners, 'enterprise'), me)).toBe(
      owners.some((p) => pairGrants(p, me, 'enterprise')),
    );
    expect(pairGrants(pair({ group_names: ['Eng'] }), me, 'community')).toBe(false);
  });
});
