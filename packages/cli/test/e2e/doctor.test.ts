/**
 * `kis doctor` as a user runs it, against the emulator of the test project's profile and small
 * servers: a good server, a base URL without /api (a web application's HTML page), a wrong key,
 * a basic key, a server that is down, and `--cc-pair`. The key never appears in the output.
 */
import type { Emulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  assertBuilt,
  deadUrl,
  emulator,
  envFor,
  htmlServer,
  jsonLines,
  type KisResult,
  kis,
  USER_KEY,
} from '../helpers/cli.js';
import { testProfile } from '../helpers/profile.js';

const WRONG_KEY = 'kis-doctor-wrong-key-4e1f9a7c';

let emu: Emulator;

beforeAll(async () => {
  assertBuilt();
  emu = await emulator();
});

afterAll(async () => {
  await emu?.close();
});

/** Nothing the command wrote shows a key. */
function expectNoKeys(r: KisResult): void {
  for (const key of [ADMIN_KEY, USER_KEY, WRONG_KEY]) {
    expect(r.stdout + r.stderr).not.toContain(key);
  }
}

describe('kis doctor', () => {
  it('a good server, base URL and key: every check ✓, exit 0', async () => {
    const r = await kis(['doctor'], { env: envFor(emu) });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `✓ server reachable: ${emu.baseUrl} answered HTTP 200`,
      `✓ base URL includes /api: ${emu.baseUrl} answers with the API's JSON`,
      '✓ API key accepted: the server accepted the key',
      '✓ key can manage connectors: listing credentials works (1 visible)',
      "✓ association route: PUT /manage/connector/{connector_id}/credential/{credential_id} (deployed servers' path)",
      "✓ upload route: POST /user/projects/file/upload (deployed servers' path)",
      `✓ server version: ${emu.version}`,
      'All 7 checks passed.',
    ]);
    expect(r.stderr).toBe('');
    expectNoKeys(r);
  });

  it('--json --cc-pair: one JSON line per check, then the summary', async () => {
    const r = await kis(['doctor', '--json', '--cc-pair', '1'], { env: envFor(emu) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(9);
    expect(lines[7]).toMatchObject({ name: 'cc pair 1', ok: true });
    expect(lines[8]).toEqual({ summary: { ok: true, passed: 8, failed: 0, reachable: true } });
  });

  it('an unknown cc pair fails the check: exit 1', async () => {
    const r = await kis(['doctor', '--cc-pair', '99'], { env: envFor(emu) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ cc pair 99: no such pair visible to this key \(HTTP 40[34]/);
    expect(r.stdout).toContain('  fix: use the cc_pair_id the association answered');
  });

  it(`a wrong key: ✗ with the fix, exit 1, the key shown nowhere (${testProfile()} answers ${testProfile() === 'seed' ? 401 : 403})`, async () => {
    const r = await kis(['doctor'], { env: envFor(emu, WRONG_KEY) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `✗ API key accepted: the server rejected the key (HTTP ${testProfile() === 'seed' ? 401 : 403}`,
    );
    expect(r.stdout).toContain(
      '  fix: use a valid API key: check its value, and that it was not revoked',
    );
    expect(r.stdout).toContain('1 of 3 check(s) failed.');
    expectNoKeys(r);
  });

  it('a basic key: accepted, cannot manage connectors; the fix names the roles', async () => {
    const r = await kis(['doctor'], { env: envFor(emu, USER_KEY) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✓ API key accepted');
    expect(r.stdout).toContain('✗ key can manage connectors: listing credentials failed (HTTP 403');
    expect(r.stdout).toContain('  fix: use a key that can manage connectors (admin or curator)');
    expectNoKeys(r);
  });

  it('a base URL without /api (the web application answers HTML): the fix gives the URL with it', async () => {
    const html = await htmlServer();
    try {
      const r = await kis(['--base-url', html.url, 'doctor'], { env: { KIS_API_KEY: ADMIN_KEY } });
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n').filter(Boolean)).toEqual([
        `✓ server reachable: ${html.url} answered HTTP 200`,
        `✗ base URL includes /api: ${html.url} answered with an HTML page (HTTP 200), not the API`,
        `  fix: use ${html.url}/api (the base URL includes the /api prefix)`,
        '1 of 2 check(s) failed.',
      ]);
      expectNoKeys(r);
    } finally {
      await html.close();
    }
  });

  it('a server that cannot be reached: exit 3', async () => {
    const url = await deadUrl();
    const r = await kis(['doctor'], { env: { KIS_BASE_URL: url, KIS_API_KEY: ADMIN_KEY } });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`✗ server reachable: ${url} did not answer: connect ECONNREFUSED`);
    expect(r.stdout).toContain('  fix: check the host and port in the base URL');
    const json = await kis(['--json', 'doctor'], {
      env: { KIS_BASE_URL: url, KIS_API_KEY: ADMIN_KEY },
    });
    expect(json.code).toBe(3);
    expect(jsonLines(json.stdout).at(-1)).toEqual({
      summary: { ok: false, passed: 0, failed: 1, reachable: false },
    });
  });
});
