// The example apps, run as a user runs them (built, as child processes, configured by
// environment): connector-setup against the Prism mock, folder-ingest against the emulator.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const apps = fileURLToPath(new URL('../../../apps/', import.meta.url));
const KEY = 'contract-test-key-0123456789';

async function runApp(app: string, env: Record<string, string>, args: string[] = []) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(apps, app, 'dist/main.js'), ...args],
      {
        env: { ...process.env, ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('apps/connector-setup', () => {
  it('creates a connector per project key and associates the matching credential (Prism mock)', async () => {
    const result = await runApp('connector-setup', {
      KIS_BASE_URL: inject('mockUrl'),
      KIS_API_KEY: KEY,
      KIS_PROJECT_KEYS: 'KIS,OPS',
      KIS_OUTPUT: 'json',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.project_key)).toEqual(['KIS', 'OPS']);
    for (const line of lines) {
      expect(Number.isInteger(line.connector_id)).toBe(true);
      expect(line.credential_id).toBe(3); // the mock's jira credential
    }
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('says which variable is missing', async () => {
    const result = await runApp('connector-setup', {
      KIS_BASE_URL: inject('mockUrl'),
      KIS_API_KEY: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('KIS_API_KEY');
  });
});

describe('apps/folder-ingest', () => {
  it('sets up a file connector and ingests the sample folder; a re-run updates (emulator)', async () => {
    const env = {
      KIS_BASE_URL: inject('proxyUrl'),
      KIS_API_KEY: inject('emulatorAdminKey'),
    };
    const samples = join(apps, 'folder-ingest/samples');
    const first = await runApp('folder-ingest', env, [samples]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/5 created, 0 updated, 0 skipped \(journal\), 0 failed/);
    const ccPairId = first.stdout.match(/cc_pair (\d+)/)?.[1];
    expect(ccPairId).toBeDefined();

    const second = await runApp('folder-ingest', { ...env, KIS_CC_PAIR_ID: String(ccPairId) }, [
      samples,
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/0 created, 5 updated/);

    const journal = join(mkdtempSync(join(tmpdir(), 'kis-app-')), 'journal.jsonl');
    const withJournal = { ...env, KIS_CC_PAIR_ID: String(ccPairId), KIS_JOURNAL: journal };
    await runApp('folder-ingest', withJournal, [samples]);
    const resumed = await runApp('folder-ingest', withJournal, [samples]);
    expect(resumed.stdout).toMatch(/0 created, 0 updated, 5 skipped/);
    expect(first.stdout + second.stdout + resumed.stdout).not.toContain(env.KIS_API_KEY);
  });
});

describe('the main job (pnpm start)', () => {
  const script = fileURLToPath(new URL('../../../scripts/main-job.mjs', import.meta.url));
  const mainJob = async (stateDir: string) => {
    const { stdout, stderr } = await run(process.execPath, [script], {
      env: { ...process.env, KIS_STATE_DIR: stateDir },
    });
    return { stdout, stderr };
  };

  it('sets up connectors and ingests the samples; a second run reuses the connectors and updates', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'kis-main-job-'));
    const first = await mainJob(stateDir);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(
      /project KIS: connector \d+ associated with credential \d+ \(cc_pair \d+\)/,
    );
    expect(first.stdout).toMatch(/5 created, 0 updated, 0 skipped \(journal\), 0 failed/);
    expect(first.stdout).toMatch(/indexing states: queued 0, indexed 5/);
    const connectors = first.stdout.match(/project \w+: connector \d+/g);
    expect(connectors).toHaveLength(2);

    const second = await mainJob(stateDir);
    expect(second.stderr).toBe('');
    // connector creation is not idempotent: the second run must not create more
    expect(second.stdout.match(/project \w+: connector \d+/g)).toEqual(connectors);
    expect(second.stdout).toContain('set up by an earlier run');
    expect(second.stdout).toMatch(/0 created, 5 updated/);
    expect(second.stdout).toContain('(already_existed: true)');
    const { adminKey } = JSON.parse(readFileSync(join(stateDir, 'main-job.json'), 'utf8'));
    expect(first.stdout + second.stdout).not.toContain(adminKey);
  });
});
