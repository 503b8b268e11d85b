// Reading, updating and deleting credentials, and the masking of secrets in every answer, in both
// profiles. Expected statuses, bodies and masks are fixed values taken from compat-notes.md
// ("Listing, updating and deleting"); every answer is also checked against the spec.
import { isMaskedValue, MASK_EXEMPT_KEYS } from '@kis/rules';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator, Profile } from '../src/index.js';
import { type client, connectorBody, PFX_BYTES, start } from './helpers.js';

type Call = ReturnType<typeof client>;
type Json = Record<string, unknown>;

const BULLETS = '••••••••••••';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function use(profile: Profile): Promise<Call> {
  const started = await start({ profile });
  emulator = started.emulator;
  return started.call;
}

async function createCredential(call: Call, json: Json, name = 'Service account') {
  const r = await call<{ id: number }>('POST', '/manage/credential', {
    json: { credential_json: json, admin_public: true, source: 'jira', name },
  });
  expect(r.status).toBe(200);
  return r.body.id;
}

/** The keys of a credential's stored JSON, from the state view (never its values). */
function storedKeys(id: number): string[] {
  const found = emulator!.state.credentials().find((c) => c.id === id);
  return [...(found?.credential_json_keys ?? [])].sort();
}

describe.each(['seed', 'deployed'] as const)('credentials, %s profile', (profile) => {
  it('gets one credential, masked; an unknown id is 401 { detail }', async () => {
    const call = await use(profile);
    const id = await createCredential(call, {
      jira_user_email: 'admin@example.com',
      jira_api_token: 'tok-12345',
      port: 443,
    });
    const r = await call<Json>('GET', `/manage/credential/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      source: 'jira',
      name: 'Service account',
      credential_json: { jira_user_email: 'admi....com', jira_api_token: BULLETS, port: '*****' },
    });
    const unknown = await call('GET', '/manage/credential/99');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      detail: 'Credential 99 does not exist or does not belong to user',
    });
  });

  it('PUT sets the name and merges keys into the stored JSON (no key is removed)', async () => {
    const call = await use(profile);
    const id = await createCredential(call, {
      jira_user_email: 'admin@example.com',
      jira_api_token: 'original-token-value-1',
    });
    const r = await call<Json>('PUT', `/manage/admin/credential/${id}`, {
      json: {
        name: 'Rotated',
        credential_json: { jira_api_token: 'replaced-token-value-2', extra: 'x' },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      name: 'Rotated',
      credential_json: {
        jira_user_email: 'admi....com',
        jira_api_token: 'repl...ue-2',
        extra: BULLETS,
      },
    });
    expect(storedKeys(id)).toEqual(['extra', 'jira_api_token', 'jira_user_email']);
    // an empty JSON changes nothing but the name
    const renamed = await call<Json>('PUT', `/manage/admin/credential/${id}`, {
      json: { name: 'Renamed', credential_json: {} },
    });
    expect(renamed.body).toMatchObject({ name: 'Renamed' });
    expect(storedKeys(id)).toEqual(['extra', 'jira_api_token', 'jira_user_email']);
    const unknown = await call('PUT', '/manage/admin/credential/99', {
      json: { name: 'x', credential_json: {} },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      detail: 'Credential 99 does not exist or does not belong to user',
    });
  });

  it('PATCH replaces the JSON whole and keeps everything else', async () => {
    const call = await use(profile);
    const id = await createCredential(call, {
      jira_user_email: 'admin@example.com',
      jira_api_token: 'original-token-value-1',
    });
    const r = await call<Json>('PATCH', `/manage/credential/${id}`, {
      json: {
        credential_json: { jira_api_token: 'replaced-token-value-2' },
        admin_public: false,
        source: 'confluence',
        name: 'Not used',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id,
      source: 'jira',
      name: 'Service account',
      admin_public: true,
      credential_json: { jira_api_token: 'repl...ue-2' },
    });
    expect(Object.keys(r.body.credential_json as Json)).toEqual(['jira_api_token']);
    expect(storedKeys(id)).toEqual(['jira_api_token']);
    const unknown = await call('PATCH', '/manage/credential/99', {
      json: { credential_json: {}, admin_public: true, source: 'jira' },
    });
    expect(unknown.status).toBe(401);
  });

  it('sending back what was read stores the mask, not the secret', async () => {
    const call = await use(profile);
    const id = await createCredential(call, { jira_api_token: 'original-token-value-1' });
    const read = await call<{ credential_json: Json }>('GET', `/manage/credential/${id}`);
    await call('PUT', `/manage/admin/credential/${id}`, {
      json: { name: 'Again', credential_json: read.body.credential_json },
    });
    const after = await call<{ credential_json: Json }>('GET', `/manage/credential/${id}`);
    // the stored value is now the 11-character mask, which reads as twelve bullets
    expect(after.body.credential_json.jira_api_token).toBe(BULLETS);
  });

  it('DELETE: 400 { message } while a pair uses it or when unknown; a second delete is an error', async () => {
    const call = await use(profile);
    const id = await createCredential(call, { jira_api_token: 'token' });
    const connector = (
      await call<{ id: number }>('POST', '/manage/admin/connector', { json: connectorBody() })
    ).body.id;
    const path = `/manage/connector/${connector}/credential/${id}`;
    await call('PUT', path, { json: { name: 'Pair', access_type: 'public' } });
    const inUse = await call('DELETE', `/manage/credential/${id}`);
    expect(inUse.status).toBe(400);
    expect(inUse.body).toEqual({
      message:
        'Cannot delete credential as it is still associated with 1 connector(s) and 0 document(s). ',
    });
    await call('DELETE', path);
    const deleted = await call('DELETE', `/manage/credential/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      success: true,
      message: 'Credential deleted successfully',
      data: id,
    });
    const again = await call('DELETE', `/manage/credential/${id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: `Credential by provided id ${id} does not exist or does not belong to user`,
    });
    expect((await call('GET', `/manage/credential/${id}`)).status).toBe(401);
  });

  it('no stored secret appears in any answer; every value is masked but the exempt keys', async () => {
    const call = await use(profile);
    const secrets = {
      jira_user_email: 'service-account@example.com',
      jira_api_token: 'very-secret-token-0123456789',
      short: 'pw-42',
      pin: 123456,
      nested: { client_secret: 'nested-secret-value-abc', list: ['listed-secret-value-xyz'] },
      authentication_method: 'oauth',
    };
    const secretTexts = [
      'service-account@example.com',
      'very-secret-token-0123456789',
      'pw-42',
      '123456',
      'nested-secret-value-abc',
      'listed-secret-value-xyz',
    ];
    const id = await createCredential(call, secrets);
    const connector = (
      await call<{ id: number }>('POST', '/manage/admin/connector', { json: connectorBody() })
    ).body.id;
    const pair = (
      await call<{ data: number }>('PUT', `/manage/connector/${connector}/credential/${id}`, {
        json: { name: 'Pair', access_type: 'public' },
      })
    ).body.data;
    const form = new FormData();
    form.append('name', 'With key');
    form.append('credential_json', JSON.stringify({ sp_certificate_password: 'pfx-password-1' }));
    form.append('uploaded_file', new File([PFX_BYTES], 'certificate.pfx'));
    form.append('field_key', 'sp_private_key');
    form.append('type_definition_key', 'sharepoint_pfx_file');
    const keyed = await createCredential(call, {}, 'Key holder');
    const answers = [
      await call('GET', '/manage/admin/credential'),
      await call('GET', `/manage/credential/${id}`),
      await call('GET', '/manage/admin/connector/status'),
      await call('GET', `/manage/admin/cc-pair/${pair}`),
      await call('PUT', `/manage/admin/credential/${id}`, {
        json: { name: 'Same', credential_json: { short: 'pw-42' } },
      }),
      await call('PATCH', `/manage/credential/${id}`, {
        json: { credential_json: secrets, admin_public: true, source: 'jira' },
      }),
      await call('PUT', `/manage/admin/credential/private-key/${keyed}`, { form }),
      await call('POST', '/manage/credential', {
        json: { credential_json: secrets, admin_public: true, source: 'jira' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const secret of [...secretTexts, 'pfx-password-1']) {
        expect(answer.text).not.toContain(secret);
      }
    }
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'credential_json' && typeof value === 'object' && value !== null) {
          checkMasked(value as Json);
        } else {
          walk(value);
        }
      }
    };
    const checkMasked = (json: Json): void => {
      for (const [key, value] of Object.entries(json)) {
        if (typeof value === 'object' && value !== null) {
          checkMasked(value as Json);
        } else if (!MASK_EXEMPT_KEYS.includes(key)) {
          expect(isMaskedValue(value), `${key}: ${String(value)}`).toBe(true);
        }
      }
    };
    for (const answer of answers) walk(answer.body);
    const one = await call<{ credential_json: Json }>('GET', `/manage/credential/${id}`);
    expect(one.body.credential_json).toEqual({
      jira_user_email: 'serv....com',
      jira_api_token: 'very...6789',
      short: BULLETS,
      pin: '*****',
      nested: { client_secret: 'nest...-abc', list: ['list...-xyz'] },
      authentication_method: 'oauth',
    });
  });
});
