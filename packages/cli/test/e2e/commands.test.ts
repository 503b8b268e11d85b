import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import { JPEG_HEAD, PNG_1X1, writeTree } from '@kis/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  emulator,
  jsonLines,
  kis,
  type Recorder,
  recordingProxy,
} from '../helpers/cli.js';

let emu: Emulator;
let proxy: Recorder;
let work: string;
let env: Record<string, string>;

const JIRA_CONFIG = {
  jira_base_url: 'https://jira.example.com',
  project_key: 'KIS',
  comment_email_blacklist: null,
};

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
  proxy = await recordingProxy(emu);
  env = { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY };
  work = await mkdtemp(join(tmpdir(), 'kis-commands-'));
  await writeTree(work, {
    'jira.yaml':
      'jira_base_url: https://jira.example.com\nproject_key: KIS\ncomment_email_blacklist: null\n',
    'jira.json': JSON.stringify(JIRA_CONFIG),
    'cred.json': '{"jira_user_email": "bot@example.com", "jira_api_token": "tok-secret-value"}',
    'projects.yaml': [
      '- name: Project A',
      '  source: jira',
      '  connector_specific_config: {jira_base_url: "https://jira.example.com", project_key: A}',
      '- name: Project B',
      '  source: jirra',
      '  config: {}',
      '- name: Project C',
      '  config: {jira_base_url: "https://jira.example.com", project_key: C}',
      '  refresh_freq: 600',
      '',
    ].join('\n'),
    'cert.pfx': Buffer.from([0x30, 0x03, 0x02, 0x01, 0x03]),
    'img/a.png': PNG_1X1,
    'img/b.jpg': JPEG_HEAD,
    'img/not-image.png': 'this is text',
  });
});

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  await rm(work, { recursive: true, force: true });
});

beforeEach(() => {
  emu.state.reset();
  proxy.requests.length = 0;
});

const run = (args: string[]) => kis(args, { env, cwd: work });

// The routes the client takes on both profiles: deployed servers' (docs/deployed-servers.md,
// "Paths"), tried first; the seed emulator serves them too (the spec's operations without
// `x-kis-profiles`), so no second request to the seed's route is expected on either.
const ASSOCIATE_PATH = (connectorId: number, credentialId: number) =>
  `/api/manage/connector/${connectorId}/credential/${credentialId}`;
const UPLOAD_PATH = '/api/user/projects/file/upload';

async function createJiraCredential(): Promise<number> {
  const r = await run([
    '--json',
    'credential',
    'create',
    '--source',
    'jira',
    '--credential-json',
    '@cred.json',
    '--name',
    'jira-bot',
  ]);
  expect(r.code).toBe(0);
  return jsonLines(r.stdout)[0]?.credential_id as number;
}

describe('kis connector create', () => {
  it('runs the three-step set-up with the exact seed requests and prints the ids', async () => {
    const credentialId = await createJiraCredential();
    proxy.requests.length = 0;
    const r = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'KIS tracker',
      '--source',
      'jira',
      '--config',
      '@jira.yaml',
      '--refresh-freq',
      '3600',
      '--prune-freq',
      '86400',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(1);
    const out = lines[0] as { connector_id: number; credential_id: number; cc_pair_id: number };
    expect(Object.keys(out)).toEqual([
      'connector_id',
      'credential_id',
      'cc_pair_id',
      'access_type',
      'groups',
    ]);
    expect(out.credential_id).toBe(credentialId);

    const calls = proxy.requests.map((q) => `${q.method} ${q.path}`);
    // the pair listing first: a name a pair already has is refused before anything is created
    expect(calls).toEqual([
      'GET /api/manage/admin/connector/status',
      'GET /api/manage/admin/credential',
      'POST /api/manage/admin/connector',
      `PUT ${ASSOCIATE_PATH(out.connector_id, credentialId)}`,
    ]);
    expect(proxy.requests[2]?.json).toEqual({
      name: 'KIS tracker',
      source: 'jira',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: JIRA_CONFIG,
      refresh_freq: 3600,
      prune_freq: 86400,
    });
    // deployed servers require a pair name (since 3.1): the client sends one on every server
    expect(proxy.requests[3]?.json).toMatchObject({
      access_type: 'public',
      name: expect.any(String),
    });

    const pair = emu.state.pairs().find((p) => p.id === out.cc_pair_id);
    expect(pair).toMatchObject({ connector_id: out.connector_id, credential_id: credentialId });
    expect(emu.state.connectors().map((c) => c.name)).toContain('KIS tracker');
  });

  it('uses credential 0 for the file source and prints human-readable ids', async () => {
    const r = await run([
      'connector',
      'create',
      '--name',
      'Uploads',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Created connector "Uploads" \(source file\)\n {2}connector_id: {2}\d+\n {2}credential_id: 0\n {2}cc_pair_id: {4}\d+\n {2}access: {8}public\n$/,
    );
    expect(proxy.requests.map((q) => q.method)).toEqual(['GET', 'POST', 'PUT']);
    expect(proxy.requests[2]?.path).toMatch(/^\/api\/manage\/connector\/\d+\/credential\/0$/);
  });

  it('takes --config from a JSON file and an explicit --credential', async () => {
    const credentialId = await createJiraCredential();
    proxy.requests.length = 0;
    const r = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'J',
      '--source',
      'JIRA',
      '--config',
      '@jira.json',
      '--credential',
      String(credentialId),
      '--access-type',
      'PUBLIC',
      '--input-type',
      'load_state',
    ]);
    expect(r.code).toBe(0);
    const create = proxy.requests.find(
      (q) => q.method === 'POST' && q.path === '/api/manage/admin/connector',
    );
    expect(create?.json).toMatchObject({
      source: 'jira',
      access_type: 'public',
      input_type: 'load_state',
    });
    // the name (the pair listing) and the explicit id (exists, source jira) are checked before
    // anything is created
    expect(proxy.requests.map((q) => q.method)).toEqual(['GET', 'GET', 'POST', 'PUT']);
  });

  it('refuses an unknown or wrong-source --credential before creating anything', async () => {
    const credentialId = await createJiraCredential();
    const config: Record<string, string> = {
      jira: '@jira.json',
      confluence:
        '{"wiki_base": "https://w.example.com", "is_cloud": true, "include_attachments": false}',
    };
    const create = (source: string, credential: string) =>
      run([
        'connector',
        'create',
        '--name',
        'typo',
        '--source',
        source,
        '--config',
        config[source] as string,
        '--credential',
        credential,
      ]);
    const unknown = await create('jira', '999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `error: --credential 999: no such credential (ids: 0, ${credentialId}; see \`kis credential list\`); no connector was created\n`,
    );
    const mismatch = await create('confluence', String(credentialId));
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      `--credential ${credentialId}: that credential is for source "jira", not "confluence"`,
    );
    expect(
      proxy.requests.filter((q) => q.method !== 'GET' && q.path.includes('/connector')),
    ).toEqual([]);
    expect(emu.state.connectors().map((c) => c.name)).not.toContain('typo');
  });

  it('names the --credential flag when several credentials or none match the source', async () => {
    await createJiraCredential();
    await createJiraCredential();
    const args = ['-q', 'connector', 'create', '--name', 'x', '--source', 'jira'];
    const several = await run([...args, '--set', 'jira_base_url=https://jira.example.com']);
    expect(several.code).toBe(1);
    expect(several.stderr).toMatch(
      /^error: 2 credentials have source "jira" \(ids \d+, \d+\): choose one with --credential ID; no connector was created\n$/,
    );
    const none = await run([
      ...args.slice(0, 6),
      'confluence',
      '--set',
      'wiki_base=https://w.example.com',
    ]);
    expect(none.stderr).toContain(
      'no credential has source "confluence" (credentials exist for: jira, not_applicable): create one with `kis credential create --source confluence --credential-json @FILE`, or choose one with --credential ID',
    );
    expect(none.stderr).not.toContain('setupConnector');
  });

  it('creates many with --from, reporting each; one failure does not stop the rest', async () => {
    const credentialId = await createJiraCredential();
    const r = await run([
      '--json',
      'connector',
      'create',
      '--from',
      'projects.yaml',
      '--source',
      'jira',
    ]);
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ name: 'Project A', credential_id: credentialId });
    expect(lines[1]).toMatchObject({ name: 'Project B', entry: 2 });
    expect(lines[1]?.error).toMatch(
      /projects\.yaml: entry 2 \("Project B"\): source: unknown source "jirra"; did you mean jira\?/,
    );
    expect(lines[2]).toMatchObject({ name: 'Project C', credential_id: credentialId });
    expect(lines[3]).toEqual({ summary: { created: 2, failed: 1, total: 3 } });
    const names = emu.state.connectors().map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Project A', 'Project C']));
    expect(names).not.toContain('Project B');
    const projectC = proxy.requests.filter(
      (q) => q.method === 'POST' && q.path === '/api/manage/admin/connector',
    )[1];
    expect(projectC?.json).toMatchObject({ name: 'Project C', source: 'jira', refresh_freq: 600 });
  });
});

describe('kis credential', () => {
  it('creates, lists (secrets hidden) and filters by source', async () => {
    const id = await createJiraCredential();
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/manage/credential' });
    expect(proxy.requests.at(-1)?.json).toEqual({
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'tok-secret-value' },
      admin_public: false,
      source: 'jira',
      name: 'jira-bot',
    });
    const human = await run(['credential', 'list']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ID +SOURCE +NAME +ADMIN_PUBLIC\n/);
    expect(human.stdout).toMatch(new RegExp(`\\n${id} +jira +jira-bot +no\\n`));
    const json = await run(['--json', 'credential', 'list', '--source', 'jira']);
    const lines = jsonLines(json.stdout);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      id,
      source: 'jira',
      credential_json: { jira_api_token: '[REDACTED]' },
    });
    expect(lines[1]).toEqual({ summary: { count: 1 } });
    expect(json.stdout + human.stdout).not.toContain('tok-secret-value');
  });

  it('replaces a private key with the five multipart parts', async () => {
    const id = await createJiraCredential();
    proxy.requests.length = 0;
    const r = await run([
      'credential',
      'set-private-key',
      String(id),
      '--file',
      'cert.pfx',
      '--name',
      'sp',
      '--credential-json',
      '{"sp_client_id":"abc"}',
      '--field-key',
      'sp_private_key',
      '--type-definition-key',
      'sharepoint_pfx_file',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Updated the private key of credential ${id}`);
    const [put] = proxy.requests;
    expect(put).toMatchObject({
      method: 'PUT',
      path: `/api/manage/admin/credential/private-key/${id}`,
    });
    expect(put?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const body = put?.body.toString('latin1') ?? '';
    for (const part of [
      'name',
      'credential_json',
      'uploaded_file',
      'field_key',
      'type_definition_key',
    ]) {
      expect(body).toContain(`name="${part}"`);
    }
    expect(body).toContain('filename="cert.pfx"');
  });

  it('requires every set-private-key flag', async () => {
    const r = await run(['credential', 'set-private-key', '3', '--file', 'cert.pfx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: required option '--name <name>' not specified\n");
  });
});

describe('kis connector associate', () => {
  it('associates a credential with an existing connector and prints the pair id', async () => {
    const credentialId = await createJiraCredential();
    const connector = await fetch(`${emu.baseUrl}/manage/admin/connector`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Made elsewhere',
        source: 'jira',
        input_type: 'poll',
        access_type: 'public',
        connector_specific_config: JIRA_CONFIG,
      }),
    }).then((r) => r.json() as Promise<{ id: number }>);
    proxy.requests.length = 0;
    const args = ['connector', 'associate', String(connector.id), '--credential'];
    const r = await run(['--json', ...args, String(credentialId), '--access-type', 'PRIVATE']);
    expect(r.code).toBe(0);
    const out = jsonLines(r.stdout)[0] as { cc_pair_id: number };
    expect(out).toEqual({
      connector_id: connector.id,
      credential_id: credentialId,
      cc_pair_id: expect.any(Number),
    });
    expect(proxy.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      `PUT ${ASSOCIATE_PATH(connector.id, credentialId)}`,
    ]);
    expect(proxy.requests[0]?.json).toEqual({ access_type: 'private', name: expect.any(String) });
    expect(emu.state.pairs().find((p) => p.id === out.cc_pair_id)).toMatchObject({
      connector_id: connector.id,
      credential_id: credentialId,
    });

    // the same pair again: the server answers success: false, reported with exit 1
    const again = await run([...args, String(credentialId)]);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(new RegExp(`^fail {2}connector ${connector.id} and credential`));
  });
});

describe('kis upload', () => {
  it('uploads images and prints their file ids; a non-image is reported and the rest go on', async () => {
    const r = await run(['--json', 'upload', 'img/a.png', 'img/not-image.png', 'img/b.jpg']);
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    const byFile = Object.fromEntries(lines.filter((l) => 'file' in l).map((l) => [l.file, l]));
    const stored = emu.state.files();
    expect(stored.map((f) => f.name).sort()).toEqual(['a.png', 'b.jpg']);
    expect(byFile['img/a.png']?.file_id).toBe(stored.find((f) => f.name === 'a.png')?.file_id);
    expect(byFile['img/not-image.png']?.error).toBe('not a valid PNG image (unrecognised content)');
    expect(lines.at(-1)).toEqual({ summary: { uploaded: 2, failed: 1 } });
    const uploads = proxy.requests.filter((q) => q.method === 'POST');
    expect(uploads.every((q) => q.path === UPLOAD_PATH)).toBe(true);
    expect(uploads[0]?.body.toString('latin1')).toContain('name="files"');
  });

  it('a FILE that does not exist is a usage error (exit 2): nothing is uploaded', async () => {
    const before = emu.state.files().length;
    const r = await run(['upload', 'img/a.png', 'img/missing.png']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: upload: FILE "img/missing.png": no such file or directory (expected an image file)\n',
    );
    expect(emu.state.files()).toHaveLength(before);
  });

  it('prints FILE<TAB>ID lines', async () => {
    const r = await run(['upload', 'img/a.png']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^img\/a\.png\t\S+\n$/);
  });
});

describe('kis docs', () => {
  it('lists all, lists a pair, and deletes by listed id or by path', async () => {
    const created = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'f',
      '--source',
      'file',
      '--config',
      '{"file_locations": []}',
    ]);
    const pair = jsonLines(created.stdout)[0]?.cc_pair_id as number;
    await writeFile(join(work, 'one.txt'), 'one');
    await writeFile(join(work, 'two words.txt'), 'two');
    expect((await run(['ingest', 'one.txt', '--cc-pair', String(pair)])).code).toBe(0);
    expect((await run(['ingest', 'two words.txt'])).code).toBe(0);

    const all = await run(['--json', 'docs', 'list']);
    expect(jsonLines(all.stdout).map((l) => l.document_id ?? l.summary)).toEqual(
      expect.arrayContaining(['one.txt', 'two_words.txt', { count: 2 }]),
    );
    const inPair = await run(['docs', 'list', '--cc-pair', String(pair)]);
    expect(inPair.stdout).toBe('one.txt\tone.txt\n');
    expect(proxy.requests.at(-1)?.path).toBe(`/api/svc-api/connector-docs/${pair}`);

    const del = await run(['--json', 'docs', 'delete', 'one.txt', 'two words.txt', 'nope']);
    expect(del.code).toBe(1);
    expect(jsonLines(del.stdout)).toEqual([
      { document_id: 'one.txt', deleted: true },
      { document_id: 'two_words.txt', deleted: true },
      { document_id: 'nope', deleted: false, error: 'no ingested document with id "nope"' },
      { summary: { deleted: 2, failed: 1 } },
    ]);
    expect(proxy.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual([
      '/api/svc-api/ingestion/one.txt',
      '/api/svc-api/ingestion/two_words.txt',
      '/api/svc-api/ingestion/nope',
    ]);
    expect(emu.state.documents({ limit: -1 })).toHaveLength(0);
  });
});

describe('kis sources', () => {
  it('lists the DocumentSource values of the spec', async () => {
    const r = await kis(['sources']);
    expect(r.code).toBe(0);
    const values = r.stdout.trim().split('\n');
    expect(values).toHaveLength(60);
    expect(values).toContain('jira');
    const json = await kis(['--json', 'sources']);
    expect(jsonLines(json.stdout)[0]?.sources).toHaveLength(60);
  });
});

describe('typed connector configs: kis connector fields and --set', () => {
  it("prints a source's fields, kinds, defaults, choices and credential keys (and --json)", async () => {
    const human = await run(['connector', 'fields', 'jira']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^jira_base_url +string +yes *$/m);
    expect(human.stdout).toMatch(/^comment_email_blacklist +string\[\] +\[\]/m);
    expect(human.stdout).toContain('project: project_key | jql: jql_query');
    expect(human.stdout).toContain('jira_api_token (required)');
    const json = await run(['--json', 'connector', 'fields', 'web']);
    const [doc] = jsonLines(json.stdout);
    const fields = doc?.fields as { name: string; options?: string[] }[];
    expect(fields.find((f) => f.name === 'web_connector_type')?.options).toEqual([
      'recursive',
      'single',
      'sitemap',
    ]);
  });

  it('builds the config from typed --set flags, fills in defaults and creates the connector', async () => {
    const r = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'Jira KIS',
      '--source',
      'jira',
      '--set',
      'jira_base_url=https://jira.example.com',
      '--set',
      'project_key=KIS',
      '--set',
      'labels_to_skip=a,b',
      '--set',
      'labels_to_skip=c',
      '--set',
      'batch_size=8',
      '--credential',
      String(await createJiraCredential()),
    ]);
    expect(r.stderr).toContain(
      'defaults filled in: scoped_token=false, comment_email_blacklist=[]',
    );
    expect(r.code).toBe(0);
    const create = proxy.requests.find((q) => q.path === '/api/manage/admin/connector');
    expect(create?.json).toMatchObject({
      connector_specific_config: {
        jira_base_url: 'https://jira.example.com',
        project_key: 'KIS',
        labels_to_skip: ['a', 'b', 'c'],
        batch_size: 8,
        scoped_token: false,
        comment_email_blacklist: [],
      },
    });
  });

  it('needs no --name: the source and the time name the connector', async () => {
    await createJiraCredential();
    const r = await run(
      [
        'connector',
        'create',
        '--source',
        'jira',
        '--set',
        'jira_base_url=https://jira.example.com',
      ].concat(['--set', 'project_key=KIS']),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Created connector "jira-\d{8}-\d{6}" \(source jira\)$/m);
    expect(emu.state.connectors().map((c) => c.name)).toContainEqual(
      expect.stringMatching(/^jira-\d{8}-\d{6}$/),
    );
  });

  it('a misspelled key exits 2 naming the right one; nothing is sent', async () => {
    const bySet = await run([
      'connector',
      'create',
      '--name',
      'J',
      '--source',
      'jira',
      '--set',
      'jira_base_url=https://jira.example.com',
      '--set',
      'projekt_key=KIS',
    ]);
    expect(bySet.code).toBe(2);
    expect(bySet.stderr).toMatch(
      /projekt_key is not a jira config key; did you mean project_key\?/,
    );
    const byConfig = await run([
      'connector',
      'create',
      '--name',
      'J',
      '--source',
      'jira',
      '--config',
      '{"jira_base_url": "https://jira.example.com", "projekt_key": "KIS", "batch_size": "x"}',
    ]);
    expect(byConfig.code).toBe(2);
    expect(byConfig.stderr).toContain(
      'connector_specific_config.projekt_key: is not a jira key (did you mean project_key?)',
    );
    expect(byConfig.stderr).toContain('connector_specific_config.batch_size: expected integer');
    const badValue = await run(
      [
        'connector',
        'create',
        '--name',
        'J',
        '--source',
        'web',
        '--set',
        'base_url=https://x.example',
      ].concat(['--set', 'web_connector_type=singel']),
    );
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('did you mean single?');
    expect(proxy.requests).toHaveLength(0);
  });

  it('credential --set reads secrets from a file or the environment and never prints them', async () => {
    const secret = 'tok-from-env-7f3a';
    const r = await kis(
      [
        '--json',
        'credential',
        'create',
        '--source',
        'jira',
        '--set',
        'jira_user_email=bot@example.com',
        '--set',
        'jira_api_token=env:JIRA_TOKEN',
      ],
      { env: { ...env, JIRA_TOKEN: secret }, cwd: work },
    );
    expect(r.code).toBe(0);
    expect(proxy.requests[0]?.json).toMatchObject({
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: secret },
    });
    const fromFile = await run([
      'credential',
      'create',
      '--source',
      'github',
      '--set',
      'github_access_token=@cred.json',
    ]);
    expect(fromFile.code).toBe(0);
    const typo = await kis(
      ['credential', 'create', '--source', 'jira', '--set', 'jira_api_tokn=env:JIRA_TOKEN'],
      { env: { ...env, JIRA_TOKEN: secret }, cwd: work },
    );
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean jira_api_token?');
    const missing = await run([
      'credential',
      'create',
      '--source',
      'jira',
      '--set',
      'jira_user_email=x',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('credential_json.jira_api_token: is required');
    for (const out of [r, fromFile, typo, missing]) {
      expect(out.stdout + out.stderr).not.toContain(secret);
      expect(out.stdout + out.stderr).not.toContain('tok-secret-value');
    }
  });
});
