// The deployed profile reads JSON bodies as pydantic v2's lax mode does; the seed profile does
// not. Expected values are pydantic's (its conversion table and int/bool parsing), fixed here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { type client, connectorBody, doc, start } from './helpers.js';

const emulators = {} as Record<Profile, Emulator>;
const calls = {} as Record<Profile, ReturnType<typeof client>>;

beforeAll(async () => {
  for (const profile of ['seed', 'deployed'] as const) {
    const { emulator, call } = await start({ profile, indexing: { paused: true } });
    emulators[profile] = emulator;
    calls[profile] = call;
  }
});
afterAll(async () => {
  await Promise.all(Object.values(emulators).map((e) => e.close()));
});

let n = 0;
/** Creates a connector with `refresh_freq` set to `value`; answers the status and stored value. */
async function refreshFreq(profile: Profile, value: unknown) {
  n += 1;
  const r = await calls[profile]<{ id: number }>('POST', '/manage/admin/connector', {
    json: connectorBody({ name: `c${n}`, refresh_freq: value }),
  });
  const stored = emulators[profile].state.connectors({ all: true }).find((c) => c.id === r.body.id);
  return { status: r.status, stored: r.status === 200 ? stored?.refresh_freq : undefined };
}

describe('integers (deployed)', () => {
  it.each([
    ['5', 5],
    [' 5 ', 5],
    ['+5', 5],
    ['-5', -5],
    ['007', 7],
    ['5.0', 5],
    ['5.000', 5],
    ['1_000', 1000],
    [3.0, 3],
    [true, 1],
    [false, 0],
    [null, null],
  ] as const)('%j is accepted as %j', async (value, stored) => {
    expect(await refreshFreq('deployed', value)).toEqual({ status: 200, stored });
  });

  it.each([
    ['5.5'],
    [5.5],
    [''],
    ['five'],
    ['1__000'],
    ['_1'],
    ['1_'],
    ['5.'],
    ['0x10'],
    ['1e3'],
    [[5]],
    [{}],
  ] as const)('%j is refused (422)', async (value) => {
    expect((await refreshFreq('deployed', value)).status).toBe(422);
  });

  it('the seed profile takes JSON integers only', async () => {
    expect((await refreshFreq('seed', '5')).status).toBe(422);
    expect((await refreshFreq('seed', true)).status).toBe(422);
    expect(await refreshFreq('seed', 5)).toEqual({ status: 200, stored: 5 });
  });

  it('list items are coerced too (groups: ["1", 2])', async () => {
    const r = await calls.deployed<{ id: number }>('POST', '/manage/admin/connector', {
      json: connectorBody({ name: 'grouped', groups: ['1', 2] }),
    });
    expect(r.status).toBe(200);
    const stored = emulators.deployed.state
      .connectors({ all: true })
      .find((c) => c.id === r.body.id);
    expect(stored?.groups).toEqual([1, 2]);
  });
});

describe('booleans (deployed)', () => {
  async function adminPublic(profile: Profile, value: unknown) {
    const r = await calls[profile]<{ id: number }>('POST', '/manage/credential', {
      json: { credential_json: {}, admin_public: value, source: 'jira' },
    });
    const stored = emulators[profile].state.credentials().find((c) => c.id === r.body.id);
    return { status: r.status, stored: r.status === 200 ? stored?.admin_public : undefined };
  }

  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    [1.0, true],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['t', true],
    ['yes', true],
    ['Y', true],
    ['on', true],
    ['1', true],
    ['false', false],
    ['f', false],
    ['no', false],
    ['n', false],
    ['OFF', false],
    ['0', false],
  ] as const)('%j is accepted as %j', async (value, stored) => {
    expect(await adminPublic('deployed', value)).toEqual({ status: 200, stored });
  });

  it.each([
    [2],
    [-1],
    [0.5],
    ['2'],
    ['yes '],
    [' true'],
    ['nope'],
    [''],
    [null],
    [[true]],
  ] as const)('%j is refused (422)', async (value) => {
    expect((await adminPublic('deployed', value)).status).toBe(422);
  });

  it('the seed profile takes JSON booleans only', async () => {
    expect((await adminPublic('seed', 'true')).status).toBe(422);
    expect((await adminPublic('seed', 1)).status).toBe(422);
  });
});

describe('date-times (deployed)', () => {
  async function updatedAt(profile: Profile, value: unknown) {
    n += 1;
    const id = `dt-${n}`;
    const r = await calls[profile]('POST', '/svc-api/ingestion', {
      json: { document: doc({ id, doc_updated_at: value }) },
    });
    return {
      status: r.status,
      stored: r.status === 200 ? emulators[profile].state.document(id)?.doc_updated_at : undefined,
    };
  }

  it.each([
    ['2024-01-31T12:00:00Z', '2024-01-31T12:00:00Z'],
    ['2024-01-31', '2024-01-31T00:00:00Z'],
    [1700000000, '2023-11-14T22:13:20Z'],
    [1700000000.5, '2023-11-14T22:13:20.500000Z'],
    [1700000000000, '2023-11-14T22:13:20Z'],
    ['1700000000', '2023-11-14T22:13:20Z'],
    [0, '1970-01-01T00:00:00Z'],
    [-86400, '1969-12-31T00:00:00Z'],
  ] as const)('%j is stored as %j', async (value, stored) => {
    expect(await updatedAt('deployed', value)).toEqual({ status: 200, stored });
  });

  it.each([['yesterday'], [true], ['2024-02-30'], [1e20]] as const)(
    '%j is refused (422)',
    async (value) => {
      expect((await updatedAt('deployed', value)).status).toBe(422);
    },
  );

  it('the seed profile takes ISO 8601 text only', async () => {
    expect((await updatedAt('seed', 1700000000)).status).toBe(422);
    expect((await updatedAt('seed', '1700000000')).status).toBe(422);
  });
});

describe('strings and enumerations (deployed)', () => {
  it.each([
    ['semantic_identifier', 5],
    ['semantic_identifier', true],
    ['title', 1.5],
    ['id', 7],
    ['source', 'WEB'],
    ['source', 'requesttracker'],
  ] as const)(
    '%s %j is refused (422): str fields take text only, enums exact values',
    async (field, value) => {
      const r = await calls.deployed('POST', '/svc-api/ingestion', {
        json: { document: doc({ [field]: value }) },
      });
      expect(r.status).toBe(422);
    },
  );

  it('the ingestion request itself: cc_pair_id "1", chunk_count "3", from_ingestion_api "no"', async () => {
    const r = await calls.deployed('POST', '/svc-api/ingestion', {
      json: {
        document: doc({ id: 'lax-all', chunk_count: '3', from_ingestion_api: 'no' }),
        cc_pair_id: '1',
      },
    });
    expect(r.status).toBe(200);
    expect(emulators.deployed.state.document('lax-all')?.cc_pair_ids).toEqual([1]);
  });

  it('a 422 lists the errors left after the lax reading, in the deployed shape', async () => {
    const r = await calls.deployed<{ status_code: number; message: string; data: null }>(
      'POST',
      '/svc-api/ingestion',
      { json: { document: doc({ chunk_count: 'three' }), cc_pair_id: '1' } },
    );
    expect(r.status).toBe(422);
    expect(r.body.status_code).toBe(422);
    expect(r.body.data).toBeNull();
    expect(r.body.message).toContain("'loc': ('body', 'document', 'chunk_count')");
    expect(r.body.message).not.toContain('cc_pair_id');
  });
});

describe('path parameters (both profiles: FastAPI reads their text as pydantic does)', () => {
  it.each([
    ['1', 200],
    ['1.0', 200],
    ['%201', 200],
    ['+1', 200],
    ['1.5', 422],
    ['one', 422],
    ['1e0', 422],
  ] as const)('cc_pair_id %s is %i', async (text, status) => {
    for (const profile of ['seed', 'deployed'] as const) {
      const r = await calls[profile]('GET', `/svc-api/connector-docs/${text}`);
      expect(r.status, profile).toBe(status);
    }
  });
});
