// The example apps and the main job, run as a user runs them (built, as child processes,
// configured by environment) against the emulator of this project's server profile: the apps
// through the validating proxy, the main job (`pnpm start`) with its own emulator of the profile
// (KIS_PROFILE). The connector-setup app against the Prism mock is in mock.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createKisClient } from '@kis/client';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { APPS_DIR, runApp } from '../src/apps.js';

const run = promisify(execFile);
const profile = inject('profile');
/** Where the main job keeps its state (and admin key), per profile. */
const STATE_FILE = { seed: 'main-job.json', deployed: 'main-job-deployed.json' } as const;

describe('apps/connector-setup', () => {
  it('creates a connector per project key and associates the jira credential (emulator)', async () => {
    const env = { KIS_BASE_URL: inject('proxyUrl'), KIS_API_KEY: inject('emulatorAdminKey') };
    const kis = createKisClient({ baseUrl: env.KIS_BASE_URL, apiKey: env.KIS_API_KEY });
    await kis.credentials.create({
      name: 'Jira (apps test)',
      source: 'jira',
      admin_public: true,
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'apps-test-token' },
    });
    const result = await runApp('connector-setup', {
      ...env,
      KIS_PROJECT_KEYS: 'APPA,APPB',
      KIS_OUTPUT: 'json',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.project_key)).toEqual(['APPA', 'APPB']);
    // the app takes the first jira credential listed (the other test file may have made one too)
    const jiraIds = (await kis.credentials.list())
      .filter((c) => c.source === 'jira')
      .map((c) => c.id);
    for (const line of lines) {
      expect(jiraIds).toContain(line.credential_id);
      expect(Number.isInteger(line.cc_pair_id)).toBe(true);
    }
    expect(result.stdout + result.stderr).not.toContain(env.KIS_API_KEY);
  });

  it('says which variable is missing', async () => {
    const result = await runApp('connector-setup', {
      KIS_BASE_URL: inject('proxyUrl'),
      KIS_API_KEY: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('KIS_API_KEY');
  });
});

describe('apps/folder-ingest', () => {
  it('sets up a pair to push into and ingests the sample folder; a re-run updates (emulator)', async () => {
    const env = {
      KIS_BASE_URL: inject('proxyUrl'),
      KIS_API_KEY: inject('emulatorAdminKey'),
    };
    const samples = join(APPS_DIR, 'folder-ingest/samples');
    const first = await runApp('folder-ingest', env, [samples]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/5 created, 0 updated, 0 skipped \(journal\), 0 failed/);
    expect(first.stdout).toMatch(/set up connector \d+ with credential 0\n/);
    const ccPairId = first.stdout.match(/cc_pair (\d+)/)?.[1];
    expect(ccPairId).toBeDefined();

    const second = await runApp('folder-ingest', { ...env, KIS_CC_PAIR_ID: String(ccPairId) }, [
      samples,
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/0 created, 5 updated/);

    const journalDir = mkdtempSync(join(tmpdir(), 'kis-app-'));
    onTestFinished(() => rmSync(journalDir, { recursive: true, force: true }));
    const journal = join(journalDir, 'journal.jsonl');
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
      env: { ...process.env, KIS_STATE_DIR: stateDir, KIS_PROFILE: profile },
    });
    return { stdout, stderr };
  };

  it('sets up connectors and ingests the samples; a second run reuses the connectors and updates', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'kis-main-job-'));
    onTestFinished(() => rmSync(stateDir, { recursive: true, force: true }));
    const first = await mainJob(stateDir);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(new RegExp(`^ {2}profile: ${profile} \\(`, 'm'));
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
    const { adminKey } = JSON.parse(readFileSync(join(stateDir, STATE_FILE[profile]), 'utf8'));
    expect(first.stdout + second.stdout).not.toContain(adminKey);
  });
});
