// `kis apply` and `kis export` with their default flags against the emulator (both profiles,
// through a recording proxy): the requests sent are exactly what differs from the file, a second
// apply sends nothing, secrets never appear in any output or file, an interrupted apply converges.

import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '@kis/emulator';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFinished,
} from 'vitest';
import { defaultSecretsFile } from '../../src/internal/commands/apply/index.js';
import {
  ADMIN_KEY,
  assertBuilt,
  emulator,
  kis,
  type Recorder,
  recordingProxy,
} from '../helpers/cli.js';

const TOKEN = 'jira-token-7d1e5c9b3a0f42';
const NEW_TOKEN = 'jira-token-rotated-88c2a1';

const fileText = (projectKey = 'KIS', withWeb = true) => `# the team's set-up
credentials:
  - name: Jira bot
    source: jira
    credential_json:
      jira_user_email: bot@example.com
      jira_api_token: \${JIRA_TOKEN}
connectors:
  - name: Jira KIS
    source: jira
    refresh_freq: 3600
    config: { jira_base_url: https://jira.example.com, project_key: ${projectKey} }
    credential: Jira bot
${
  withWeb
    ? `  - &web
    name: Docs site
    source: web
    config:
      base_url: https://docs.example.com
      web_connector_type: recursive
`
    : ''
}`;

let emu: Emulator;
let proxy: Recorder;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
  proxy = await recordingProxy(emu);
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

beforeEach(async () => {
  emu.state.reset();
  work = await mkdtemp(join(tmpdir(), 'kis-apply-'));
  env = { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY, JIRA_TOKEN: TOKEN };
  await writeFile(join(work, 'kis.yaml'), fileText());
  proxy.requests.length = 0;
});

afterEach(() => rm(work, { recursive: true, force: true }));

const run = (args: string[], extraEnv: Record<string, string> = {}) =>
  kis(args, { env: { ...env, ...extraEnv }, cwd: work });
const apply = (...extra: string[]) => run(['apply', '-f', 'kis.yaml', ...extra]);
const writes = () => {
  const list = proxy.requests
    .filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.path.replace(/\?.*$/, '')}`);
  proxy.requests.length = 0;
  return list.sort();
};
const serverState = () => ({
  credentials: emu.state
    .credentials()
    .filter((c) => c.id !== 0)
    .map((c) => `${c.source}:${c.name}`)
    .sort(),
  connectors: emu.state
    .connectors({ all: true })
    .filter((c) => c.id !== 0)
    .map((c) => `${c.source}:${c.name}`)
    .sort(),
  pairs: emu.state
    .pairs()
    .filter((p) => p.connector_id !== 0)
    .map((p) => p.name)
    .sort(),
});
const everything = async (...outputs: string[]) =>
  [
    ...outputs,
    await readFile(join(work, defaultSecretsFile(proxy.baseUrl)), 'utf8'),
    JSON.stringify(emu.state.snapshot()),
  ].join('\n');

describe('kis apply', () => {
  it('creates everything from empty, in dependency order, and prints the ids', async () => {
    const first = await apply();
    expect(first.code, first.stderr).toBe(0);
    expect(writes()).toEqual([
      'POST /api/manage/admin/connector',
      'POST /api/manage/admin/connector',
      'POST /api/manage/credential',
      expect.stringMatching(/^PUT \/api\/manage\/(admin\/)?connector\/\d+\/credential\/\d+$/),
      expect.stringMatching(/^PUT \/api\/manage\/(admin\/)?connector\/\d+\/credential\/0$/),
    ]);
    expect(serverState()).toEqual({
      credentials: ['jira:Jira bot'],
      connectors: ['jira:Jira KIS', 'web:Docs site'],
      pairs: ['Docs site', 'Jira KIS'],
    });
    expect(first.stdout).toMatch(
      /Jira KIS \(jira\): connector \d+, credential \d+, cc_pair_id \d+/,
    );
    expect(await everything(first.stdout, first.stderr)).not.toContain(TOKEN);
  });

  it('changes nothing the second time', async () => {
    expect((await apply()).code).toBe(0);
    writes();
    const again = await apply();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to change.');
    expect(writes()).toEqual([]);
  });

  it('adopts what exists by name and source instead of making a duplicate', async () => {
    const made = await run([
      'connector',
      'create',
      '--name',
      'Docs site',
      '--source',
      'web',
      '--set',
      'base_url=https://docs.example.com',
      '--set',
      'web_connector_type=recursive',
    ]);
    expect(made.code, made.stderr).toBe(0);
    writes();
    expect((await apply()).code).toBe(0);
    expect(serverState().connectors).toEqual(['jira:Jira KIS', 'web:Docs site']);
    expect(writes().filter((w) => w.startsWith('POST /api/manage/admin/connector'))).toHaveLength(
      1,
    );
  });

  it('updates one config field with one request, showing the diff', async () => {
    expect((await apply()).code).toBe(0);
    writes();
    await writeFile(join(work, 'kis.yaml'), fileText('KIS2'));
    const dry = await apply('--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('~ config.project_key: "KIS" → "KIS2"');
    expect(writes()).toEqual([]);
    const changed = await apply();
    expect(changed.code, changed.stderr).toBe(0);
    expect(writes()).toEqual([
      expect.stringMatching(/^PATCH \/api\/manage\/admin\/connector\/\d+$/),
    ]);
    expect((await apply()).stdout).toContain('Nothing to change.');
  });

  it('compares secrets with what it sent, never shows them, and sends a changed one', async () => {
    expect((await apply()).code).toBe(0);
    writes();
    const rotated = await run(['apply', '-f', 'kis.yaml'], { JIRA_TOKEN: NEW_TOKEN });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('~ credential_json.jira_api_token: changed (secret)');
    expect(rotated.stdout).not.toContain('jira_user_email');
    expect(writes()).toEqual([
      expect.stringMatching(/^PUT \/api\/manage\/admin\/credential\/\d+$/),
    ]);
    const all = await everything(rotated.stdout, rotated.stderr);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(NEW_TOKEN);
  });

  it('reports what the file no longer has, and deletes it only with --prune and a confirmation', async () => {
    expect((await apply()).code).toBe(0);
    await writeFile(join(work, 'kis.yaml'), fileText('KIS', false));
    writes();
    const kept = await apply();
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(
      /keep +connector "Docs site" \(web\) #\d+ \(not in the file; --prune deletes it\)/,
    );
    expect(writes()).toEqual([]);
    const unconfirmed = await apply('--prune');
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes to confirm');
    expect(writes()).toEqual([]);
    const pruned = await apply('--prune', '--yes');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(writes()).toContain('POST /api/manage/admin/deletion-attempt');
    expect(serverState().connectors).toEqual(['jira:Jira KIS']);
    expect((await apply('--prune')).stdout).toContain('Nothing to change.');
  });

  it('reports every problem of the file at once, with its line, and sends nothing', async () => {
    await writeFile(
      join(work, 'kis.yaml'),
      `credentials:
  - name: Jira bot
    source: jira
    credential_json: { jira_api_token: "\${JIRA_TOKEN}" }
connectors:
  - name: Jira KIS
    source: jira
    conifg: {}
    credential: Jira bott
  - name: Jira 2
    source: jira
    config: { jira_base_url: https://j.example.com, projekt_key: K }
    credential: Jira bot
  - name: Jira 2
    source: jira
    config: { jira_base_url: https://j.example.com }
    credential: Jira bot
`,
    );
    const bad = await apply();
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'kis.yaml:8:5: connectors[0] "Jira KIS": conifg: is not a key of this entry (did you mean config?)',
    );
    expect(bad.stderr).toContain(
      'kis.yaml:9:17: connectors[0] "Jira KIS": credential: names no credential of the file: "Jira bott" (did you mean "Jira bot"?)',
    );
    expect(bad.stderr).toMatch(
      /kis\.yaml:12:53: connectors\[1\] "Jira 2": config\.projekt_key: .*did you mean project_key/,
    );
    expect(bad.stderr).toContain(
      'kis.yaml:14:11: connectors[2] "Jira 2": name: repeats connectors[1]',
    );
    expect(proxy.requests).toEqual([]);
  });

  it('points at the line and column of the key or value at fault, not at its entry', async () => {
    await writeFile(
      join(work, 'kis.yaml'),
      `connectors:
  - name: Docs site
    source: web
    access_type: public
    refresh_frq: 3600
    config:
      base_url: https://docs.example.com
      web_connector_type: recursive
  - name: Wiki
    source: web
    refresh_freq: hourly
    config:
      base_url: https://wiki.example.com
      web_connector_type: sideways
`,
    );
    const bad = await apply();
    expect(bad.code).toBe(2);
    const lines = bad.stderr.split('\n');
    // the misspelled key, on the entry's 4th line
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^error: kis\.yaml:5:5: connectors\[0\] "Docs site": refresh_frq: is not a key of this entry \(did you mean refresh_freq\?\)/,
      ),
    );
    // wrong values: where the value starts
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^error: kis\.yaml:11:19: connectors\[1\] "Wiki": refresh_freq: must be a whole number of seconds/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^error: kis\.yaml:14:27: connectors\[1\] "Wiki": config\.web_connector_type: expected one of /,
      ),
    );
    expect(proxy.requests).toEqual([]);

    await writeFile(
      join(work, 'kis.yaml'),
      `credentials:
  - name: Jira bot
    source: jira
    credential_json:
      jira_user_email: bot@example.com
      jira_api_token: \${JIRA_TOKN}
`,
    );
    const unset = await apply();
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      'error: kis.yaml:6:23: credentials[0] "Jira bot": credential_json.jira_api_token: environment variable JIRA_TOKN is not set',
    );
  });

  it('round-trips through kis export: applying the export changes nothing and holds no secret', async () => {
    expect((await apply()).code).toBe(0);
    const exported = await run(['export', '-o', 'exported.yaml']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(join(work, 'exported.yaml'), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('secret keys kept on the server');
    writes();
    const again = await run(['apply', '-f', 'exported.yaml', '--secrets-file', 'fresh.json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to change.');
    expect(writes()).toEqual([]);
  });
});

/** A proxy that lets `limit` changing requests reach the server, then kills it after the last. */
async function killingProxy(target: () => string, limit: number, kill: () => Promise<void>) {
  let changes = 0;
  let dead = false;
  const server = createServer(async (req: IncomingMessage, res) => {
    if (dead) return void req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const last = req.method !== 'GET' && ++changes === limit;
    const upstream = httpRequest(
      `${target()}${req.url}`,
      { method: req.method, headers: req.headers },
      async (answer) => {
        if (last) {
          dead = true;
          answer.resume();
          await kill();
          req.socket.destroy(); // the server acted; its answer is lost
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.end(Buffer.concat(chunks));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    revive: () => {
      dead = false;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('kis apply, interrupted', () => {
  it('converges on the next run when the server dies in mid-apply (no duplicate)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kis-apply-kill-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const dbPath = join(dir, 'emulator.db');
    let server = await emulator({ dbPath });
    const proxy2 = await killingProxy(
      () => server.url,
      3,
      () => server.close(),
    );
    try {
      await writeFile(join(dir, 'kis.yaml'), fileText());
      const runIn = () =>
        kis(['apply', '-f', 'kis.yaml'], {
          env: { KIS_BASE_URL: proxy2.baseUrl, KIS_API_KEY: ADMIN_KEY, JIRA_TOKEN: TOKEN },
          cwd: dir,
        });
      const killed = await runIn();
      expect(killed.code).toBe(3);
      expect(killed.stderr).toContain('run kis apply again to finish');
      server = await emulator({ dbPath });
      proxy2.revive();
      const resumed = await runIn();
      expect(resumed.code, resumed.stderr).toBe(0);
      const final = await runIn();
      expect(final.stdout).toContain('Nothing to change.');
      const names = (list: { name: string | null; id: number }[]) =>
        list
          .filter((r) => r.id !== 0)
          .map((r) => r.name)
          .sort();
      expect(names(server.state.connectors({ all: true }))).toEqual(['Docs site', 'Jira KIS']);
      expect(names(server.state.credentials())).toEqual(['Jira bot']);
      expect(server.state.pairs().filter((p) => p.connector_id !== 0)).toHaveLength(2);
      const secrets = await readFile(join(dir, defaultSecretsFile(proxy2.baseUrl)), 'utf8');
      expect([killed.stderr, resumed.stdout, resumed.stderr, secrets].join('\n')).not.toContain(
        TOKEN,
      );
    } finally {
      await proxy2.close();
      await server.close();
    }
  });
});
