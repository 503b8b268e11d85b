import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runBin, spawnBin } from './bin-process.js';
import { doc, PACKAGE_VERSION } from './helpers.js';

let dir: string;
const children: { kill: (s?: NodeJS.Signals) => boolean; exitCode: number | null }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kis-emulator-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function ingest(baseUrl: string, key: string, document: Record<string, unknown>) {
  const r = await fetch(`${baseUrl}/svc-api/ingestion`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ document }),
  });
  return { status: r.status, body: (await r.json()) as { document_id: string } };
}

describe('kis-emulator --port N --db FILE', () => {
  it('survives kill -9: every document acknowledged with 200 is there after a restart', async () => {
    const db = join(dir, 'state.db');
    const key = 'durability-admin-key';
    const first = await spawnBin(['--port', '0', '--db', db, '--admin-key', key, '--json']);
    children.push(first.child);
    const base = first.ready.base_url;
    const acknowledged: string[] = [];
    // Concurrent writers, then SIGKILL right after the last answer.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 40; i++) {
          const r = await ingest(base, key, doc({ id: `w${w}-d${i}` }));
          expect(r.status).toBe(200);
          acknowledged.push(r.body.document_id);
        }
      }),
    );
    first.child.kill('SIGKILL');
    const gone = await first.exited;
    expect(gone.signal).toBe('SIGKILL');
    expect(existsSync(`${db}-wal`)).toBe(true);

    const second = await spawnBin(['--port', '0', '--db', db, '--admin-key', key, '--json']);
    children.push(second.child);
    const list = await fetch(`${second.ready.base_url}/svc-api/ingestion`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const ids = ((await list.json()) as { document_id: string }[]).map((d) => d.document_id);
    expect(new Set(ids)).toEqual(new Set(acknowledged));
    expect(ids).toHaveLength(320);
    // Re-posting after the restart is an update, and the state view still counts 320.
    const again = await fetch(`${second.ready.base_url}/svc-api/ingestion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: doc({ id: 'w0-d0' }) }),
    });
    expect(await again.json()).toEqual({ document_id: 'w0-d0', already_existed: true });
    const state = await (await fetch(`${second.ready.url}/_emulator/state`)).json();
    expect(state.documents_total).toBe(320);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('prints its base URL and a generated development admin key (human format)', async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--db', ':memory:'], {
      env: { ...process.env, KIS_EMULATOR_ADMIN_KEY: '', KIS_EMULATOR_USER_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout.setEncoding('utf8');
    const ready = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: string) => {
        out += c;
        if (out.includes('state:')) resolve(out);
      });
      child.on('exit', () => reject(new Error(out)));
    });
    const base = /base URL:\s+(\S+)/.exec(ready)?.[1];
    const key = /admin key:\s+(\S+)/.exec(ready)?.[1];
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(key).toMatch(/^kis-dev-admin-/);
    const r = await fetch(`${base}/manage/admin/credential`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
    // The key is printed once, at start; requests do not print it again.
    expect(out.split(key!).length - 1).toBe(1);
    child.kill('SIGINT');
  });

  it('takes keys from the environment without printing them; user keys are not admin', async () => {
    const running = await spawnBin(
      ['--port', '0', '--db', ':memory:', '--json', '--log-requests'],
      {
        KIS_EMULATOR_ADMIN_KEY: 'env-admin-key-1234',
        KIS_EMULATOR_USER_KEY: 'env-user-key-1, env-user-key-2',
      },
    );
    children.push(running.child);
    expect(running.ready.admin_key).toBeNull();
    const base = running.ready.base_url;
    const asAdmin = await fetch(`${base}/manage/admin/credential`, {
      headers: { authorization: 'Bearer env-admin-key-1234' },
    });
    expect(asAdmin.status).toBe(200);
    for (const userKey of ['env-user-key-1', 'env-user-key-2']) {
      const denied = await fetch(`${base}/manage/admin/credential`, {
        headers: { authorization: `Bearer ${userKey}` },
      });
      expect(denied.status).toBe(403);
      expect((await ingest(base, userKey, doc())).status).toBe(200);
    }
    running.child.kill('SIGTERM');
    await running.exited;
    const output = running.stdout() + running.stderr();
    expect(output).toContain('GET /api/manage/admin/credential 200');
    expect(output).not.toContain('env-admin-key-1234');
    expect(output).not.toContain('env-user-key-1');
  });

  it('exits 0 on SIGTERM after closing the database', async () => {
    const db = join(dir, 'term.db');
    const running = await spawnBin(['--port', '0', '--db', db, '--json']);
    children.push(running.child);
    running.child.kill('SIGTERM');
    const { code, signal } = await running.exited;
    expect({ code, signal, out: running.stdout(), err: running.stderr() }).toMatchObject({
      code: 0,
    });
    expect(running.stderr()).toContain('stopped (SIGTERM)');
  });

  it('--help prints the usage; bad arguments exit 2 with a message naming the flag', async () => {
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--max-body-bytes');
    const badPort = await runBin(['--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain("--port must be an integer from 0 to 65535 (got 'eighty')");
    const unknown = await runBin(['--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--frobnicate');
    const badLatency = await runBin(['--latency-ms', '-5']);
    expect(badLatency.code).toBe(2);
    const shortKey = await runBin(['--admin-key', 'abc', '--db', ':memory:']);
    expect(shortKey.code).toBe(2);
    expect(shortKey.stderr).toMatch(/--admin-key must be 8 to 512/);
    expect(shortKey.stderr).not.toContain('abc\n');
  });

  it('--profile deployed: the ready line names the profile and the API answers as deployed servers do', async () => {
    const running = await spawnBin(
      [
        '--port',
        '0',
        '--db',
        ':memory:',
        '--json',
        '--profile',
        'deployed',
        '--curator-key',
        'cli-curator-key-1',
      ],
      { KIS_EMULATOR_CURATOR_KEY: 'env-curator-key-1' },
    );
    children.push(running.child);
    expect(running.ready).toMatchObject({ profile: 'deployed', curator_keys: 2 });
    const base = running.ready.base_url;
    const anonymous = await fetch(`${base}/svc-api/ingestion`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({ detail: 'Access denied. User is not authenticated.' });
    for (const key of ['cli-curator-key-1', 'env-curator-key-1']) {
      expect((await ingest(base, key, doc())).status).toBe(200);
    }
    const version = await fetch(`${base}/version`);
    expect(await version.json()).toEqual({
      backend_version: `kis-emulator ${PACKAGE_VERSION} (deployed)`,
    });
    const page = await (await fetch(`${running.ready.url}/`)).text();
    expect(page).toContain('<strong class="profile">deployed</strong>');
    running.child.kill('SIGTERM');
    await running.exited;
  });

  it('the human ready text names the profile (seed by default)', async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--db', ':memory:'], {
      env: { ...process.env, KIS_EMULATOR_ADMIN_KEY: '', KIS_EMULATOR_USER_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout.setEncoding('utf8');
    const ready = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: string) => {
        out += c;
        if (out.includes('state:')) resolve(out);
      });
      child.on('exit', () => reject(new Error(out)));
    });
    expect(ready).toMatch(/^ {2}profile: +seed$/m);
    child.kill('SIGTERM');
  });

  it('a bad --profile is a one-line usage error naming the flag and the expected values', async () => {
    const r = await runBin(['--profile', 'staging', '--db', ':memory:']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'kis-emulator: --profile must be one of seed, deployed (got "staging")',
    );
    const help = await runBin(['--help']);
    expect(help.stdout).toContain('--profile NAME');
    expect(help.stdout).toContain('--curator-key KEY');
  });

  it('--release 4.6.1 --attempts fail --attempt-ms N: keys with roles, attempts that fail', async () => {
    const running = await spawnBin([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--json',
      '--profile',
      'deployed',
      '--release',
      '4.6.1',
      '--attempts',
      'fail',
      '--attempt-ms',
      '5',
      '--admin-key',
      'bin-admin-key-461',
    ]);
    children.push(running.child);
    expect(running.ready).toMatchObject({ profile: 'deployed', release: 'v4.6.1' });
    const base = running.ready.base_url;
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: 'Bearer bin-admin-key-461', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await r.json()) as Record<string, unknown>;
    };
    expect(await call('GET', '/me')).toMatchObject({ role: 'admin' });
    expect(await (await fetch(`${base}/version`)).json()).toEqual({
      backend_version: `kis-emulator ${PACKAGE_VERSION} (deployed, release 4.6.1)`,
    });
    const connector = await call('POST', '/manage/admin/connector', {
      name: 'Docs',
      source: 'web',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: { base_url: 'https://docs.example.com' },
    });
    const pair = await call('PUT', `/manage/connector/${connector.id}/credential/0`, {
      name: 'Docs',
      access_type: 'public',
    });
    const deadline = Date.now() + 5000;
    let status: unknown;
    while (status !== 'failed' && Date.now() < deadline) {
      status = (await call('GET', `/manage/admin/cc-pair/${pair.data}`)).last_index_attempt_status;
      if (status !== 'failed') await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(status).toBe('failed');
    running.child.kill('SIGTERM');
    await running.exited;
  });

  it('bad --release and --attempts values are one-line usage errors naming the flag', async () => {
    const seed = await runBin(['--release', '4.6.1', '--db', ':memory:']);
    expect(seed.code).toBe(2);
    expect(seed.stderr.split('\n')[0]).toBe(
      'kis-emulator: --release needs the deployed profile (the seed profile plays no release)',
    );
    const unknown = await runBin(['--profile', 'deployed', '--release', '5.0', '--db', ':memory:']);
    expect(unknown.stderr.split('\n')[0]).toBe(
      'kis-emulator: --release must be one of 4.6.1, main (got "5.0")',
    );
    const outcome = await runBin(['--attempts', 'explode', '--db', ':memory:']);
    expect([outcome.code, outcome.stderr.split('\n')[0]]).toEqual([
      2,
      'kis-emulator: --attempts must be one of succeed, fail, hang, errors (got "explode")',
    ]);
    const ms = await runBin(['--attempt-ms', 'soon', '--db', ':memory:']);
    expect(ms.stderr).toContain("--attempt-ms must be an integer from 0 to any (got 'soon')");
    const help = await runBin(['--help']);
    for (const flag of ['--release NAME', '--attempts OUTCOME', '--attempt-ms N']) {
      expect(help.stdout).toContain(flag);
    }
  });

  it('--edition community --server-version 3.2.16: no user groups, an old server on /version', async () => {
    const running = await spawnBin([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--json',
      '--profile',
      'deployed',
      '--edition',
      'community',
      '--server-version',
      '3.2.16',
      '--admin-key',
      'bin-admin-key-ce',
    ]);
    children.push(running.child);
    expect(running.ready).toMatchObject({ edition: 'community', server_version: '3.2.16' });
    const base = running.ready.base_url;
    expect(await (await fetch(`${base}/version`)).json()).toEqual({ backend_version: 'v3.2.16' });
    const groups = await fetch(`${base}/manage/admin/user-group`, {
      headers: { authorization: 'Bearer bin-admin-key-ce' },
    });
    expect(groups.status).toBe(404);
    running.child.kill('SIGTERM');
    await running.exited;
  });

  it('bad --edition and --server-version values are one-line usage errors', async () => {
    const edition = await runBin(['--edition', 'gold', '--db', ':memory:']);
    expect([edition.code, edition.stderr.split('\n')[0]]).toEqual([
      2,
      'kis-emulator: --edition must be one of community, enterprise, enterprise-below-business (got "gold")',
    ]);
    const seed = await runBin(['--server-version', '3.2.16', '--db', ':memory:']);
    expect(seed.stderr.split('\n')[0]).toBe(
      'kis-emulator: --server-version needs the deployed profile',
    );
    const bad = await runBin([
      '--profile',
      'deployed',
      '--server-version',
      'soon',
      '--db',
      ':memory:',
    ]);
    expect(bad.stderr.split('\n')[0]).toBe(
      'kis-emulator: --server-version must be a release number such as 3.2.16 (got "soon")',
    );
    const help = await runBin(['--help']);
    for (const flag of ['--edition NAME', '--server-version X.Y.Z', '--sync-ms N', '--port-ms N']) {
      expect(help.stdout).toContain(flag);
    }
  });

  it('exits 2 with a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runBin(['--port', String(port), '--db', ':memory:']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port}`);
      expect(r.stderr).toContain('already in use');
    } finally {
      blocker.close();
    }
  });
});
