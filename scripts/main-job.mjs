// The main job (`pnpm start`): starts the emulator on an embedded SQLite file, runs the two
// example apps against it as a user would (connector set-up, then ingestion of a folder of sample
// documents into a new pair to push into, an `ingestion_api` connector), and prints what
// happened. Run it twice: the second run updates the same documents (`already_existed: true`)
// instead of duplicating them.
//
// The emulator plays the seed's contract by default; `--profile deployed` (or KIS_PROFILE=deployed)
// makes it play the servers people run (docs/deployed-servers.md). Each profile keeps its own state.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKisClient } from '@kis/client';
import { startEmulator } from '@kis/emulator';
import { DEFAULT_PROFILE, PROFILES } from '@kis/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `--profile NAME` / `--profile=NAME`, else KIS_PROFILE, else the seed. */
function chosenProfile(argv, env) {
  let value = env.KIS_PROFILE || undefined;
  let where = 'KIS_PROFILE';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--profile') {
      value = argv[i + 1];
      where = '--profile';
      i++;
    } else if (argv[i].startsWith('--profile=')) {
      value = argv[i].slice('--profile='.length);
      where = '--profile';
    } else {
      console.error(
        `main job: unknown argument "${argv[i]}" (expected --profile ${PROFILES.join('|')})`,
      );
      process.exit(2);
    }
  }
  if (value === undefined) return DEFAULT_PROFILE;
  if (!PROFILES.includes(value)) {
    console.error(`main job: ${where}: expected one of ${PROFILES.join(', ')}, got "${value}"`);
    process.exit(2);
  }
  return value;
}
const profile = chosenProfile(process.argv.slice(2), process.env);
/** State files of the default profile keep their names; another profile's get its name added. */
const stateName = (base, ext) =>
  profile === DEFAULT_PROFILE ? `${base}${ext}` : `${base}-${profile}${ext}`;

// KIS_STATE_DIR moves the state (the tests use a temporary directory).
const stateDir = process.env.KIS_STATE_DIR
  ? resolve(process.env.KIS_STATE_DIR)
  : join(root, '.kis');
mkdirSync(stateDir, { recursive: true });
const dbPath = join(stateDir, stateName('emulator', '.db'));
/** A path as the user would type it from the repository root. */
const shown = (path) => (relative(root, path).startsWith('..') ? path : relative(root, path));
const statePath = join(stateDir, stateName('main-job', '.json'));
const saved = existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : {};

const say = (line = '') => process.stdout.write(`${line}\n`);

// The emulator runs in this process, so the apps run as asynchronous child processes (a
// synchronous spawn would block the event loop the emulator answers on).
function runApp(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout }));
  });
}
const step = (n, title) => say(`\n[${n}/4] ${title}`);
const saveState = (changes) => {
  Object.assign(saved, changes);
  writeFileSync(statePath, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
};

// The admin key is stable across runs so the journal and saved ids stay meaningful; it is a
// development key of this local emulator only, and it is never printed.
const adminKey = saved.adminKey ?? `kis-dev-${crypto.randomUUID()}`;
saved.adminKey = adminKey;
const emulator = await startEmulator({ port: 0, dbPath, adminKey, profile });
say(`Knowledge Indexing Service emulator at ${emulator.baseUrl}`);
say(
  `  profile: ${emulator.profile} (${
    profile === 'deployed'
      ? 'what the servers people run do where they differ from the seed'
      : 'the seed contract; --profile deployed plays the servers people run'
  })`,
);
say(`  state: ${shown(dbPath)} (SQLite, WAL); admin page: ${emulator.url}/`);

let exitCode = 0;
try {
  const env = { ...process.env, KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: adminKey };
  const kis = createKisClient({ baseUrl: emulator.baseUrl, apiKey: adminKey });

  step(1, 'A jira credential (the admin interface would create it; here: createCredential)');
  const credentials = await kis.credentials.list();
  let jira = credentials.find((c) => c.source === 'jira');
  if (!jira) {
    const created = await kis.credentials.create({
      name: 'Jira (sample)',
      source: 'jira',
      admin_public: true,
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'sample-token' },
    });
    jira = { id: created.id, source: 'jira' };
    say(`  created credential ${jira.id} (source jira)`);
  } else {
    say(`  credential ${jira.id} (source jira) already exists`);
  }

  step(2, 'apps/connector-setup: create jira connectors, pick the credential, associate');
  // Connector creation is not idempotent: a second run reuses the connectors of the first.
  let jiraConnectors = saved.jiraConnectors;
  if (Array.isArray(jiraConnectors) && jiraConnectors.length > 0) {
    for (const c of jiraConnectors) {
      say(
        `  project ${c.project_key}: connector ${c.connector_id} (cc_pair ${c.cc_pair_id}), set up by an earlier run`,
      );
    }
    say(`  (delete ${shown(stateDir)}/ to start over)`);
  } else {
    const setup = await runApp(join(root, 'apps/connector-setup/dist/main.js'), [], {
      ...env,
      KIS_PROJECT_KEYS: 'KIS,OPS',
      KIS_OUTPUT: 'json',
    });
    jiraConnectors = setup.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    for (const c of jiraConnectors) {
      say(
        `  project ${c.project_key}: connector ${c.connector_id} associated with credential ${c.credential_id} (cc_pair ${c.cc_pair_id})`,
      );
    }
    if (setup.status !== 0) throw new Error(`connector-setup exited with ${setup.status}`);
    saveState({ jiraConnectors });
  }

  step(3, 'apps/folder-ingest: ingest apps/folder-ingest/samples into an ingestion pair');
  const ingestEnv = { ...env };
  delete ingestEnv.KIS_JOURNAL; // no journal: a second run re-sends, and the server says already_existed
  if (saved.ccPairId) ingestEnv.KIS_CC_PAIR_ID = String(saved.ccPairId);
  const ingest = await runApp(
    join(root, 'apps/folder-ingest/dist/main.js'),
    [join(root, 'apps/folder-ingest/samples')],
    ingestEnv,
  );
  for (const line of ingest.stdout.trim().split('\n')) say(`  ${line}`);
  if (ingest.status !== 0) throw new Error(`folder-ingest exited with ${ingest.status}`);
  const pairLine = ingest.stdout.match(/cc_pair (\d+)/);
  const ccPairId = pairLine ? Number(pairLine[1]) : saved.ccPairId;
  saveState({ ccPairId });

  step(4, 'What the emulator holds now');
  await emulator.waitForIndexing?.();
  const docs = await kis.ingestion.listConnectorDocuments(ccPairId);
  const states = emulator.state.indexing();
  say(`  cc_pair ${ccPairId}: ${docs.length} documents`);
  for (const doc of docs) say(`    ${doc.document_id}  "${doc.semantic_id}"`);
  say(
    `  indexing states: ${Object.entries(states)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  say(
    `\nDone. Run \`pnpm start\` again: the same documents come back as updated (already_existed: true).`,
  );
} catch (error) {
  exitCode = 1;
  console.error(`main job failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await emulator.close();
}
process.exit(exitCode);
