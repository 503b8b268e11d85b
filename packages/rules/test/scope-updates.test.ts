// Table tests of set and group updates (docs/deployed-servers.md, "Document sets", "User
// groups"): both are full replaces, so a change of one field carries every other listed value
// over; a deleted set stays listed with no pair until its sync removes it. From compat notes §3-4.
import { describe, expect, it } from 'vitest';
import { groupUpdateBody, setBeingDeleted, setUpdateBody } from '../src/index.js';

const listed = {
  id: 7,
  name: 'Handbook',
  description: null,
  cc_pair_summaries: [{ id: 2 }, { id: 3 }],
  is_up_to_date: true,
  is_public: false,
  users: ['u1'],
  groups: [4],
  federated_connector_summaries: [{ id: 9, entities: null }],
};

describe('set updates', () => {
  it('carry every listed field over; a null description is sent empty', () => {
    expect(setUpdateBody(listed)).toEqual({
      id: 7,
      name: 'Handbook',
      description: '',
      cc_pair_ids: [2, 3],
      is_public: false,
      users: ['u1'],
      groups: [4],
      federated_connectors: [{ federated_connector_id: 9, entities: {} }],
    });
  });

  it('replace only what the change gives', () => {
    const body = setUpdateBody(listed, { cc_pair_ids: [5], is_public: true, groups: [] });
    expect(body).toMatchObject({ cc_pair_ids: [5], is_public: true, groups: [], users: ['u1'] });
    expect(body.name).toBe('Handbook');
  });

  it('a set is being deleted when it is listed with no pair, no federated connector, not synced', () => {
    const gone = { ...listed, cc_pair_summaries: [], federated_connector_summaries: [] };
    expect(setBeingDeleted({ ...gone, is_up_to_date: false })).toBe(true);
    expect(setBeingDeleted({ ...gone, is_up_to_date: true })).toBe(false);
    expect(setBeingDeleted({ ...listed, is_up_to_date: false })).toBe(false);
  });
});

describe('group updates', () => {
  it('send both lists, replacing only the one changed', () => {
    const group = { users: [{ id: 'a' }, { id: 'b' }], cc_pairs: [{ id: 2 }] };
    expect(groupUpdateBody(group)).toEqual({ user_ids: ['a', 'b'], cc_pair_ids: [2] });
    expect(groupUpdateBody(group, { cc_pair_ids: [2, 5] })).toEqual({
      user_ids: ['a', 'b'],
      cc_pair_ids: [2, 5],
    });
    expect(groupUpdateBody(group, { user_ids: [] })).toEqual({ user_ids: [], cc_pair_ids: [2] });
  });
});
