/**
 * `kis connector delete` asks on the terminal before deleting: run in-process with a stdin that
 * is a terminal, against the emulator; "no" deletes nothing (exit 2), "y" starts the deletion.
 */
import { PassThrough } from 'node:stream';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/index.js';

const KEY = 'kis-confirm-admin-key-7c1d9e';
let emu: Emulator;
let pairId: number;

async function call(method: string, path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${emu.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return r.json();
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dbPath: ':memory:', adminKey: KEY });
  const connector = (await call('POST', '/manage/admin/connector', {
    name: 'site',
    source: 'web',
    input_type: 'load_state',
    access_type: 'public',
    connector_specific_config: { base_url: 'https://example.com', web_connector_type: 'single' },
  })) as { id: number };
  const pair = (await call('PUT', `/manage/connector/${connector.id}/credential/0`, {
    name: 'site',
    access_type: 'public',
  })) as { data: number };
  pairId = pair.data;
});

afterAll(async () => {
  await emu?.close();
});

/** `kis connector delete PAIR` with `answer` typed on a terminal; the exit code and stderr. */
async function deleteAnswering(answer: string): Promise<{ code: number; stderr: string }> {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  stdin.end(`${answer}\n`);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  stdout.resume();
  const code = await run(['connector', 'delete', String(pairId)], {
    io: {
      stdin,
      stdout,
      stderr,
      env: { KIS_BASE_URL: emu.baseUrl, KIS_API_KEY: KEY, NO_COLOR: '1' },
      cwd: process.cwd(),
    },
  });
  return { code, stderr: err };
}

describe('kis connector delete on a terminal', () => {
  it('asks, and deletes nothing on "n" (exit 2)', async () => {
    const r = await deleteAnswering('n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Delete pair ${pairId} "site" (0 documents) and remove their documents from the index? [y/N] `,
    );
    expect(r.stderr).toContain('error: nothing was deleted (1 pair(s) asked for)');
    expect(emu.state.pairs().find((p) => p.id === pairId)?.status).not.toBe('DELETING');
  });

  it('starts the deletion on "y"', async () => {
    const r = await deleteAnswering('y');
    expect(r.code).toBe(0);
    const pair = emu.state.pairs().find((p) => p.id === pairId);
    expect(pair === undefined || pair.status === 'DELETING').toBe(true);
  });
});
