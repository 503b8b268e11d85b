import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { connectorBody, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];

let emulator: Emulator;
let call: Call;

beforeEach(async () => {
  ({ emulator, call } = await start());
});
afterEach(async () => {
  await emulator.close();
});

async function createConnector(overrides: Record<string, unknown> = {}): Promise<number> {
  const r = await call<{ id: number; credential: unknown }>('POST', '/manage/admin/connector', {
    json: connectorBody(overrides),
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

async function createCredential(source: string, secret = 's3cr3t-value'): Promise<number> {
  const r = await call<{ id: number }>('POST', '/manage/credential', {
    json: {
      credential_json: { user_email: 'admin@example.com', api_token: secret },
      admin_public: true,
      source,
      name: `${source} credential`,
    },
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

describe('createConnector', () => {
  it('answers { id, credential: null } and stores the canonical lower-case access_type', async () => {
    const r = await call('POST', '/manage/admin/connector', {
      json: connectorBody({ access_type: 'PUBLIC' }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: 1, credential: null });
    const stored = emulator.state.connectors({ all: true }).find((c) => c.id === 1);
    expect(stored?.access_type).toBe('public');
    expect(stored?.connector_specific_config).toEqual({
      jira_base_url: 'https://example.atlassian.net',
      project_key: 'KIS',
      comment_email_blacklist: [],
    });
    expect(stored?.refresh_freq).toBe(3600);
  });

  it('is not fully created (hidden from listings and the admin page) until a credential is associated', async () => {
    const id = await createConnector({ name: 'Hidden <until> associated' });
    const before = await (await fetch(`${emulator.url}/_emulator/state`)).json();
    expect(before.connectors.map((c: { id: number }) => c.id)).toEqual([0]);
    const all = await (await fetch(`${emulator.url}/_emulator/state?all=1`)).json();
    expect(all.connectors.map((c: { id: number }) => c.id)).toEqual([0, id]);
    expect(all.connectors[1].fully_created).toBe(false);
    expect(await (await fetch(`${emulator.url}/`)).text()).not.toContain('Hidden &lt;until&gt;');

    const credential = await createCredential('jira');
    const r = await call('PUT', `/manage/admin/connector/${id}/credential/${credential}`);
    expect(r.status).toBe(200);
    const after = await (await fetch(`${emulator.url}/_emulator/state`)).json();
    expect(after.connectors.map((c: { id: number }) => c.id)).toEqual([0, id]);
    expect(after.connectors[1].fully_created).toBe(true);
    expect(await (await fetch(`${emulator.url}/`)).text()).toContain('Hidden &lt;until&gt;');
  });
});

describe('credentials', () => {
  it('lists the default credential 0 from the start', async () => {
    const r = await call<{ id: number; source: string }[]>('GET', '/manage/admin/credential');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({ id: 0, credential_json: {}, admin_public: true });
  });

  it('creates a credential and never echoes secret values (create answer and list)', async () => {
    const r = await call<{ id: number; credential: Record<string, unknown> }>(
      'POST',
      '/manage/credential',
      {
        json: {
          credential_json: { api_token: 'tok-123456789', nested: { password: 'pw-987' }, port: 8 },
          admin_public: true,
          source: 'jira',
          name: 'Jira bot',
        },
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(1);
    expect(r.body.credential).toMatchObject({ id: 1, source: 'jira', name: 'Jira bot' });
    expect(r.text).not.toContain('tok-123456789');
    expect(r.text).not.toContain('pw-987');
    // deployed servers' mask: strings under 14 characters are twelve bullets, numbers *****
    expect(r.body.credential.credential_json).toEqual({
      api_token: '••••••••••••',
      nested: { password: '••••••••••••' },
      port: '*****',
    });
    const list = await call('GET', '/manage/admin/credential');
    expect(list.text).not.toContain('tok-123456789');
    const state = await (await fetch(`${emulator.url}/_emulator/state`)).text();
    expect(state).not.toContain('tok-123456789');
    expect(state).toContain('api_token');
  });

  it('validates the credential body (422 with loc)', async () => {
    const r = await call<{ detail: { loc: unknown[]; type: string }[] }>(
      'POST',
      '/manage/credential',
      { json: { credential_json: {}, source: 'jira' } },
    );
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'admin_public'], msg: 'Field required', type: 'missing' },
    ]);
  });
});

describe('associateCredentialWithConnector', () => {
  it('works with no body (seed) and answers { success, message, data: cc_pair_id }', async () => {
    const connector = await createConnector();
    const credential = await createCredential('jira');
    const r = await call<{ success: boolean; message: string; data: number }>(
      'PUT',
      `/manage/admin/connector/${connector}/credential/${credential}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toBe(2);
    expect(typeof r.body.message).toBe('string');
    const pair = emulator.state.pairs().find((p) => p.id === 2);
    expect(pair).toMatchObject({
      connector_id: connector,
      credential_id: credential,
      access_type: 'public',
      name: 'Issue tracker',
    });
  });

  it('takes the deployed body, with access_type in either spelling stored lower-case', async () => {
    const connector = await createConnector({ access_type: 'private' });
    const credential = await createCredential('jira');
    const r = await call<{ success: boolean; data: number }>(
      'PUT',
      `/manage/admin/connector/${connector}/credential/${credential}`,
      {
        json: {
          name: 'Engineering pair',
          access_type: 'PUBLIC',
          groups: [3, 4],
          auto_sync_options: { interval: 60 },
        },
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const pair = emulator.state.pairs().find((p) => p.id === r.body.data);
    expect(pair).toMatchObject({
      name: 'Engineering pair',
      access_type: 'public',
      groups: [3, 4],
      auto_sync_options: { interval: 60 },
    });
  });

  it('answers 200 with success false (and no new pair) when the pair already exists', async () => {
    const connector = await createConnector();
    const credential = await createCredential('jira');
    const path = `/manage/admin/connector/${connector}/credential/${credential}`;
    expect((await call('PUT', path)).status).toBe(200);
    const again = await call<{ success: boolean; message: string; data: unknown }>('PUT', path, {
      json: { access_type: 'public' },
    });
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(false);
    expect(again.body.message).toMatch(/already/);
    expect(again.body.data).toBeNull();
    expect(emulator.state.pairs()).toHaveLength(2);
  });

  it('answers 404 with a clear detail for an unknown connector or credential', async () => {
    const connector = await createConnector();
    const unknownConnector = await call<{ detail: string }>(
      'PUT',
      '/manage/admin/connector/999/credential/0',
    );
    expect(unknownConnector.status).toBe(404);
    expect(unknownConnector.body.detail).toMatch(/Connector 999 does not exist/);
    const unknownCredential = await call<{ detail: string }>(
      'PUT',
      `/manage/admin/connector/${connector}/credential/999`,
    );
    expect(unknownCredential.status).toBe(404);
    expect(unknownCredential.body.detail).toMatch(/Credential 999 does not exist/);
  });

  it('answers 400 naming both sources when the credential source differs', async () => {
    const connector = await createConnector({ source: 'jira' });
    const credential = await createCredential('slack');
    const r = await call<{ detail: string }>(
      'PUT',
      `/manage/admin/connector/${connector}/credential/${credential}`,
    );
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain("'slack'");
    expect(r.body.detail).toContain("'jira'");
  });

  it('accepts credential 0 for file, web and ingestion_api connectors only', async () => {
    for (const source of ['file', 'web', 'ingestion_api']) {
      const id = await createConnector({ source, connector_specific_config: {} });
      const r = await call<{ success: boolean }>(
        'PUT',
        `/manage/admin/connector/${id}/credential/0`,
      );
      expect(r.status, source).toBe(200);
      expect(r.body.success).toBe(true);
    }
    const jira = await createConnector({ source: 'jira' });
    const r = await call<{ detail: string }>('PUT', `/manage/admin/connector/${jira}/credential/0`);
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/Credential 0/);
    expect(r.body.detail).toContain("'jira'");
  });

  it('rejects non-integer path parameters with 422 at ["path", name]', async () => {
    const r = await call<{ detail: { loc: unknown[]; type: string }[] }>(
      'PUT',
      '/manage/admin/connector/abc/credential/1.5',
    );
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d) => [d.loc, d.type])).toEqual([
      [['path', 'connector_id'], 'int_parsing'],
      [['path', 'credential_id'], 'int_parsing'],
    ]);
  });

  it('validates a given body (422 on a bad access_type)', async () => {
    const connector = await createConnector();
    const r = await call<{ detail: { loc: unknown[]; type: string }[] }>(
      'PUT',
      `/manage/admin/connector/${connector}/credential/0`,
      { json: { access_type: 'everyone' } },
    );
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body', 'access_type'], type: 'enum' });
  });
});
