import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { filePart, PFX_BYTES, start } from './helpers.js';

type Call = Awaited<ReturnType<typeof start>>['call'];
type Upload = {
  user_files: {
    id: number | string;
    name: string;
    file_id: string;
    status: string;
    file_type: string;
  }[];
  rejected_files: { file_name: string; reason: string }[];
};

let emulator: Emulator;
let call: Call;

beforeEach(async () => {
  ({ emulator, call } = await start());
});
afterEach(async () => {
  await emulator.close();
});

describe('uploadUserFiles', () => {
  it('stores each files part and answers user_files with file_ids; empty files are rejected', async () => {
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([1, 2, 3]), 'a.png'));
    form.append('files', filePart(new Uint8Array([]), 'empty.png'));
    form.append('files', filePart('GIF89a', 'b.gif', 'image/gif'));
    const r = await call<Upload>('POST', '/user/file/upload', { form });
    expect(r.status).toBe(200);
    expect(r.body.user_files.map((f) => [f.name, f.file_type, f.status])).toEqual([
      ['a.png', 'image/png', 'COMPLETED'],
      ['b.gif', 'image/gif', 'COMPLETED'],
    ]);
    expect(new Set(r.body.user_files.map((f) => f.file_id)).size).toBe(2);
    expect(r.body.rejected_files).toEqual([
      { file_name: 'empty.png', reason: 'The file is empty' },
    ]);
    expect(emulator.state.files().map((f) => [f.name, f.size])).toEqual([
      ['a.png', 3],
      ['b.gif', 6],
    ]);
  });

  it('the deployed path /user/projects/file/upload is served too, with project_id and temp_id_map keyed "<size>|<name>"', async () => {
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([9]), 'c.png'));
    form.append('project_id', '12');
    form.append('temp_id_map', JSON.stringify({ '1|c.png': 'tmp-1' }));
    const r = await call<Upload & { user_files: { temp_id: string; project_id: number }[] }>(
      'POST',
      '/user/projects/file/upload',
      { form },
    );
    expect(r.status).toBe(200);
    expect(r.body.user_files[0]).toMatchObject({
      name: 'c.png',
      temp_id: 'tmp-1',
      project_id: 12,
      status: 'PROCESSING',
    });
    expect(r.body.user_files[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 400 for a temp_id_map that is not JSON', async () => {
    const form = new FormData();
    form.append('files', filePart(new Uint8Array([9]), 'c.png'));
    form.append('temp_id_map', '{nope');
    const r = await call<{ detail: string }>('POST', '/user/file/upload', { form });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/temp_id_map/);
  });
});

describe('updateCredentialPrivateKey', () => {
  async function sharepointCredential(): Promise<number> {
    const r = await call<{ id: number }>('POST', '/manage/credential', {
      json: {
        credential_json: { sp_client_id: 'client-1', sp_certificate_password: 'pw-secret-1' },
        admin_public: true,
        source: 'sharepoint',
        name: 'SharePoint',
      },
    });
    return r.body.id;
  }

  function keyForm(overrides: Record<string, string | File> = {}): FormData {
    const parts: Record<string, string | File> = {
      name: 'SharePoint certificate',
      credential_json: JSON.stringify({
        sp_client_id: 'client-2',
        sp_certificate_password: 'pw-2',
      }),
      uploaded_file: new File([PFX_BYTES], 'certificate.pfx', {
        type: 'application/x-pkcs12',
      }),
      field_key: 'sp_private_key',
      type_definition_key: 'sharepoint_pfx_file',
      ...overrides,
    };
    const form = new FormData();
    for (const [k, v] of Object.entries(parts)) form.append(k, v);
    return form;
  }

  it('stores the file with the credential and answers a CredentialBase without key material', async () => {
    const id = await sharepointCredential();
    const r = await call<Record<string, unknown>>(
      'PUT',
      `/manage/admin/credential/private-key/${id}`,
      { form: keyForm() },
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      credential_json: {
        sp_client_id: '••••••••••••',
        sp_certificate_password: '••••••••••••',
        sp_private_key: '(pri...tor)',
      },
      admin_public: true,
      source: 'sharepoint',
      name: 'SharePoint certificate',
      curator_public: false,
      groups: [],
    });
    expect(r.text).not.toContain('pw-2');
    const stored = emulator.state.credentials().find((c) => c.id === id);
    expect(stored?.private_key_file).toEqual({
      file_name: 'certificate.pfx',
      size: PFX_BYTES.byteLength,
      field_key: 'sp_private_key',
      type_definition_key: 'sharepoint_pfx_file',
    });
    expect(stored?.credential_json_keys).toEqual([
      'sp_client_id',
      'sp_certificate_password',
      'sp_private_key',
    ]);
  });

  it('answers 400 for bad JSON in credential_json, naming the part', async () => {
    const id = await sharepointCredential();
    const r = await call<{ detail: string }>('PUT', `/manage/admin/credential/private-key/${id}`, {
      form: keyForm({ credential_json: '{"sp_client_id": ' }),
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/^Invalid JSON in credential_json/);
    const notObject = await call<{ detail: string }>(
      'PUT',
      `/manage/admin/credential/private-key/${id}`,
      { form: keyForm({ credential_json: '[1]' }) },
    );
    expect(notObject.status).toBe(400);
  });

  it('answers 400 for an unknown type_definition_key or a file that is not PKCS#12', async () => {
    const id = await sharepointCredential();
    const badType = await call<{ detail: string }>(
      'PUT',
      `/manage/admin/credential/private-key/${id}`,
      { form: keyForm({ type_definition_key: 'pem_file' }) },
    );
    expect(badType.status).toBe(400);
    expect(badType.body.detail).toMatch(/sharepoint_pfx_file/);
    const badFile = await call<{ detail: string }>(
      'PUT',
      `/manage/admin/credential/private-key/${id}`,
      { form: keyForm({ uploaded_file: new File(['-----BEGIN KEY-----'], 'key.pem') }) },
    );
    expect(badFile.status).toBe(400);
    expect(badFile.body.detail).toMatch(/PKCS#12/);
  });

  it('answers 404 for an unknown credential', async () => {
    const r = await call<{ detail: string }>('PUT', '/manage/admin/credential/private-key/99', {
      form: keyForm(),
    });
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatch(/Credential 99 does not exist/);
  });
});
