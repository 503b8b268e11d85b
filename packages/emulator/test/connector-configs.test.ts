// Deployed servers build the source's connector from its configuration at association: a key
// the connector does not take, or a parameter it needs, is 400 there (the seed says nothing, so
// the seed profile takes any object). Expected bodies are fixed values from the compat notes.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function associateJira(profile: Profile, config: Record<string, unknown>) {
  let call: Call;
  ({ emulator, call } = await start({ profile }));
  const created = await call<{ id: number }>('POST', '/manage/admin/connector', {
    json: {
      name: `Jira ${JSON.stringify(config)}`,
      source: 'jira',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: config,
    },
  });
  expect(created.status).toBe(200); // creation takes any object, as deployed servers do
  const credential = await call<{ id: number }>('POST', '/manage/credential', {
    json: {
      credential_json: { jira_api_token: 't0ken-value' },
      admin_public: true,
      source: 'jira',
    },
  });
  return call('PUT', `/manage/connector/${created.body.id}/credential/${credential.body.id}`, {
    json: { name: 'Jira pair', access_type: 'public' },
  });
}

describe('connector configuration at association', () => {
  it.each([
    [{ jira_base_url: 'https://jira.example.com', projekt_key: 'KIS' }, "'projekt_key'"],
    [{ project_key: 'KIS' }, "'jira_base_url'"],
  ])('deployed: %j is 400 INVALID_INPUT naming %s', async (config, named) => {
    const r = await associateJira('deployed', config);
    expect(r.status).toBe(400);
    const body = r.body as { error_code: string; detail: string };
    expect(body.error_code).toBe('INVALID_INPUT');
    expect(body.detail).toMatch(/^Connector validation error: /);
    expect(body.detail).toContain(named);
  });

  it('deployed: the seed example is associated', async () => {
    const r = await associateJira('deployed', {
      jira_base_url: 'https://jira.example.com',
      project_key: 'KIS',
      comment_email_blacklist: [],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
  });

  it('seed: any object is associated', async () => {
    const r = await associateJira('seed', { projekt_key: 'KIS' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
  });
});
