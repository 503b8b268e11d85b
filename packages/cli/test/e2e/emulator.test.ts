import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  collect,
  emulator,
  jsonLines,
  kis,
  spawnKis,
} from '../helpers/cli.js';
import { testProfile } from '../helpers/profile.js';

const profile = testProfile();

let work: string;
beforeAll(async () => {
  assertBuilt();
  work = await mkdtemp(join(tmpdir(), 'kis-emulator-cmd-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Resolves with the first line the child prints on stdout (its ready line). */
function readyLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end !== -1) {
        child.stdout?.off('data', onData);
        resolve(buffer.slice(0, end));
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`kis emulator exited with ${code} before it was ready`)),
    );
  });
}

describe('kis emulator', () => {
  it('serves the API with the CLI key until SIGTERM', async () => {
    const child = spawnKis(
      ['--json', 'emulator', '--port', '0', '--db', 'emu.db', '--profile', profile],
      { env: { KIS_API_KEY: ADMIN_KEY }, cwd: work },
    );
    const done = collect(child);
    const ready = JSON.parse(await readyLine(child)) as Record<string, unknown>;
    expect(ready).toMatchObject({
      admin_key_source: 'KIS_API_KEY',
      db: join(work, 'emu.db'),
      profile,
    });
    expect(ready).not.toHaveProperty('admin_key');
    expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const env = { KIS_BASE_URL: ready.base_url as string, KIS_API_KEY: ADMIN_KEY };
    const created = await kis(
      [
        '--json',
        'connector',
        'create',
        '--name',
        'n',
        '--source',
        'web',
        '--config',
        '{"base_url":"https://example.com","web_connector_type":"single"}',
      ],
      { env, cwd: work },
    );
    expect(created.code).toBe(0);
    expect(jsonLines(created.stdout)[0]).toMatchObject({ credential_id: 0 });
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(ADMIN_KEY);
    expect(result.stderr).toContain('kis emulator stopped');
  });

  it('prints a generated development key when none is given, and stops on Ctrl-C', async () => {
    const child = spawnKis(['emulator', '--port', '0', '--db', ':memory:', '--profile', profile], {
      cwd: work,
    });
    const done = collect(child);
    const first = await readyLine(child);
    expect(first).toMatch(/^kis emulator ready at http:\/\/127\.0\.0\.1:\d+\/api$/);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  profile:   ${profile}\n`);
    const key = /admin key: (\S+) {2}\(development key/.exec(result.stdout)?.[1];
    expect(key).toMatch(/^kis-dev-admin-/);
    expect(result.stdout).toContain(`export KIS_API_KEY=${key}`);
  });

  it('says when the port is taken (exit 2)', async () => {
    const taken = await emulator();
    try {
      const r = await kis(['emulator', '--port', String(taken.port), '--db', ':memory:'], {
        cwd: work,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: --port: port ${taken.port} on 127.0.0.1 is already in use; pick another (0 picks a free one)\n`,
      );
    } finally {
      await taken.close();
    }
  });
});
