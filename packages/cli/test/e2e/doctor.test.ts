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
    // who the key is: a role on the seed's emulator, a service account on the main line
    const identity =
      testProfile() === 'seed'
        ? [
            '✓ key role: admin (a key with a role, as on release 4.6.1: its rights come from the role, and connector calls take a key of role admin)',
            '✓ may use connectors (kis connector): yes (role admin)',
            '✓ may use credentials (kis credential): yes (role admin)',
            '✓ may use ingestion (kis ingest, sync, upload, docs list and delete): yes (role admin)',
            '✓ may use documents (kis docs status): yes (role admin)',
          ]
        : [
            "✓ key account: SERVICE_ACCOUNT (main line: a key's rights are the grants of its groups)",
            "✓ key groups: not shown to the key itself; the permissions below are its groups' grants",
            '✓ key permissions: admin',
            '✓ may use connectors (kis connector): yes (needs manage:connectors)',
            '✓ may use credentials (kis credential): yes (needs manage:connectors)',
            '✓ may use ingestion (kis ingest, sync, upload, docs list and delete): yes (needs basic, manage:connectors)',
            '✓ may use documents (kis docs status): yes (needs basic)',
          ];
    const lines = [
      `✓ server reachable: ${emu.baseUrl} answered HTTP 200`,
      `✓ base URL includes /api: ${emu.baseUrl} answers with the API's JSON`,
      '✓ API key accepted: the server accepted the key',
      '✓ key can manage connectors: listing credentials works (1 visible)',
      ...identity,
      "✓ association route: PUT /manage/connector/{connector_id}/credential/{credential_id} (deployed servers' path)",
      "✓ upload route: POST /user/projects/file/upload (deployed servers' path)",
      `✓ server version: ${emu.version}`,
      '✓ model switch: none in progress',
      '✓ prune risk: no pair holds documents a prune would delete (0 file pair(s) checked)',
    ];
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      ...lines,
      `All ${lines.length} checks passed.`,
    ]);
    expect(r.stderr).toBe('');
    expectNoKeys(r);
  });

  it('--json --cc-pair: one JSON line per check, then the summary', async () => {
    const r = await kis(['doctor', '--json', '--cc-pair', '1'], { env: envFor(emu) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    const checks = lines.length - 1;
    expect(lines.at(-2)).toMatchObject({ name: 'cc pair 1', ok: true });
    expect(lines.at(-1)).toEqual({
      summary: { ok: true, passed: checks, failed: 0, warnings: 0, reachable: true },
    });
    // the checks as the client names them, without the commands the human view adds
    expect(lines.map((l) => l.name)).toContain('may use connectors');
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

  it('a basic key: accepted, cannot manage connectors; the fix fits the key model', async () => {
    const r = await kis(['doctor'], { env: envFor(emu, USER_KEY) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✓ API key accepted');
    expect(r.stdout).toContain('✗ key can manage connectors: listing credentials failed (HTTP 403');
    if (testProfile() === 'seed') {
      // the seed's emulator answers /me with a role but checks roles the seed's way
      expect(r.stdout).toContain('  fix: use a key that can manage connectors (admin or curator)');
      expect(r.stdout).toContain(
        '✓ key role: basic (a server that checks roles the seed\'s way: see "key can manage connectors")',
      );
      expect(r.stdout).not.toContain('may use');
    } else {
      expect(r.stdout).toContain('  fix: add the key to a group that grants manage:connectors');
      expect(r.stdout).toContain('✓ key permissions: basic');
      expect(r.stdout).toContain(
        '✗ may use connectors (kis connector): refused: needs manage:connectors, and the key holds basic',
      );
      expect(r.stdout).toContain('✓ may use documents (kis docs status): yes (needs basic)');
    }
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
      summary: { ok: false, passed: 0, failed: 1, warnings: 0, reachable: false },
    });
  });
});

/** A key made by the admin key with `body` (groups on the main line, a role on 4.6.1). */
async function newKey(on: Emulator, body: Record<string, unknown>): Promise<string> {
  const r = await fetch(`${on.baseUrl}/admin/api-key`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await r.json()) as { api_key?: unknown };
  if (typeof answer.api_key !== 'string') throw new Error(`no key made: ${r.status}`);
  return answer.api_key;
}

// Keys of deployed servers: a group member on the main line, a role on release 4.6.1.
describe.runIf(testProfile() === 'deployed')('kis doctor and the key models', () => {
  it('main line, a key made without a group: no group, write:chat, and the group to add it to', async () => {
    const key = await newKey(emu, { name: 'ci' });
    const r = await kis(['doctor'], { env: envFor(emu, key) });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('  fix: add the key to a group that grants manage:connectors');
    expect(lines[at - 1]).toMatch(
      /^✗ key can manage connectors: listing credentials failed \(HTTP 403: You do not have the required permissions for this action\./,
    );
    expect(lines.slice(at + 1, at + 6)).toEqual([
      "✓ key account: SERVICE_ACCOUNT (main line: a key's rights are the grants of its groups)",
      '✓ key groups: none: the key holds only write:chat, what a key in no group holds',
      '✓ key permissions: write:chat',
      '✗ may use connectors (kis connector): refused: needs manage:connectors, and the key holds write:chat',
      '  fix: add the key to a group that grants manage:connectors',
    ]);
    expect(r.stdout).toContain('  fix: add the key to a group that grants basic');
    const json = jsonLines((await kis(['--json', 'doctor'], { env: envFor(emu, key) })).stdout);
    expect(json.find((l) => l.name === 'may use credentials')).toEqual({
      name: 'may use credentials',
      ok: false,
      detail: 'refused: needs manage:connectors, and the key holds write:chat',
      fix: 'add the key to a group that grants manage:connectors',
    });
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('release 4.6.1, a basic key: its role, and the role to use instead', async () => {
    const release = await emulator({ release: 'v4.6.1' });
    try {
      const key = await newKey(release, { name: 'ci', role: 'basic' });
      const r = await kis(['doctor'], { env: envFor(release, key) });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        '✓ key role: basic (a key with a role, as on release 4.6.1: its rights come from the role, and connector calls take a key of role admin)',
      );
      expect(r.stdout).toContain(
        '✗ may use connectors (kis connector): refused: a key of role basic is answered 403 "Access denied. User is not a curator or admin."\n  fix: use a key of role admin (POST /admin/api-key with {"role": "admin"})',
      );
      expect(r.stdout).toContain('✓ may use documents (kis docs status): yes (role basic)');
      expect(r.stdout).not.toContain('key account');
    } finally {
      await release.close();
    }
  });
});
