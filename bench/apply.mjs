// `pnpm bench:apply`: `kis apply -f kis.yaml --yes` with default flags, of a kis.yaml holding 40
// connectors (their pairs; half `file`, half `ingestion_api`, every other one private to two of
// the groups), 10 user groups (two members each) and 30 document sets (three pairs each, two
// thirds shared with groups), into an emulator playing a deployed enterprise server whose groups
// and sets sync their changes (`tasks.syncMs`, short: SYNC_MS); first from empty, then the same
// file again (no change). Counts the requests the emulator served, by route (its `logRequest`
// lines), against the fewest the routes allow, and times each run from the spawn. Prints the
// figures and writes bench/results/apply.json; never fails on time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@kis/emulator';
import { stringify } from 'yaml';
import { KIS, runKis } from './lib/kis-process.mjs';
import { judged, said } from './lib/targets.mjs';
import { provenance } from './provenance.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'kis-bench-apply-admin-key-0123456789';
const CONNECTORS = 40;
const GROUPS = 10;
const SETS = 30;
/** A group's or set's sync on the emulator: long enough to be seen, short against the run. */
const SYNC_MS = 200;
const work = mkdtempSync(join(tmpdir(), 'kis-bench-apply-'));
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const pad = (i) => String(i + 1).padStart(2, '0');

/**
 * The kis.yaml: connector i is private when odd, linked to groups k and k+1 (k = ⌊i/2⌋ mod 10),
 * so each group has four private pairs; set j is public over three public pairs when j mod 3 = 0,
 * else shared with group g = j mod 10 over two private pairs linked to g and one public pair.
 */
function kisFile(accounts) {
  const group = (k) => `Group ${pad(k % GROUPS)}`;
  const groupsOf = (i) => [group(Math.floor(i / 2)), group(Math.floor(i / 2) + 1)];
  const connectors = Array.from({ length: CONNECTORS }, (_, i) => {
    const file = i < CONNECTORS / 2;
    return {
      name: `Pair ${pad(i)}`,
      source: file ? 'file' : 'ingestion_api',
      config: file ? { file_locations: [] } : {},
      ...(i % 2 === 1 ? { access_type: 'private', groups: groupsOf(i) } : {}),
    };
  });
  const publicPairs = connectors.filter((c) => c.access_type === undefined).map((c) => c.name);
  const privateOf = (g) =>
    connectors.filter((c) => c.groups?.includes(group(g))).map((c) => c.name);
  const user_groups = Array.from({ length: GROUPS }, (_, k) => ({
    name: group(k),
    users: [accounts[k % accounts.length], accounts[(k + 1) % accounts.length]],
  }));
  const document_sets = Array.from({ length: SETS }, (_, j) => {
    const name = `Set ${pad(j)}`;
    if (j % 3 === 0) {
      const pairs = [0, 1, 2].map((n) => publicPairs[(j + n) % publicPairs.length]);
      return { name, description: `Public set ${j + 1}`, pairs };
    }
    const g = j % GROUPS;
    const own = privateOf(g);
    const pairs = [
      own[j % own.length],
      own[(j + 1) % own.length],
      publicPairs[j % publicPairs.length],
    ];
    return { name, description: `Set ${j + 1} of ${group(g)}`, pairs, groups: [group(g)] };
  });
  return { user_groups, connectors, document_sets };
}

/**
 * The fewest requests the routes allow, and how they are derived. A plan reads each list once:
 * credentials (matched by name and source, and those only the server has reported), connectors
 * (a connector without a pair is in no other listing), pairs (the connector status listing, with
 * each pair's groups), user groups (with the seeded ones, whose members resolve e-mails) and
 * document sets: 5 GETs, nothing more for a file that names no credential. From empty, each entry
 * is one create: a connector (`POST /manage/admin/connector`), its pair
 * (`PUT /manage/connector/{id}/credential/{id}`, the default credential; its groups go in that
 * body, so no group update), a group (`POST /manage/admin/user-group`, members in the body), a set
 * (`POST /manage/admin/document-set`, pairs and groups in the body); no route makes a connector
 * and its pair in one. A create never waits for a sync (only a change to a group or set does, and
 * the first apply changes none), so 0 polling GETs. The re-apply: the 5 listings, 0 writes.
 */
const READS = 5;
const MINIMUM = {
  derivation:
    'a plan reads 5 lists once (credentials, connectors, pairs with their groups, user groups, document sets); from empty one create per connector, pair (its association with the default credential carries its groups), group (members in the body) and set (pairs and groups in the body); no route makes a connector and its pair at once; creates wait for no sync (0 polling GETs); a no-op re-apply reads the 5 lists and writes nothing',
  first_apply: {
    reads: READS,
    writes: CONNECTORS * 2 + GROUPS + SETS,
    sync_polls: 0,
    total: READS + CONNECTORS * 2 + GROUPS + SETS,
  },
  re_apply: { reads: READS, writes: 0, total: READS },
};

/** `GET /manage/admin/cc-pair/{id}`: a request line's route, ids folded. */
const routeOf = (method, path) =>
  `${method} ${path.replace(/^\/api/, '').replace(/\/\d+(?=\/|$)/g, '/{id}')}`;

/** What the emulator served while `fn` ran (its `logRequest` lines: `METHOD path status ms`). */
async function counted(log, fn) {
  log.length = 0;
  const run = await fn();
  const byRoute = {};
  const statuses = {};
  let serverMs = 0;
  for (const line of log) {
    const [method, path, status, ms] = line.split(' ');
    const route = routeOf(method, path);
    byRoute[route] = (byRoute[route] ?? 0) + 1;
    statuses[status] = (statuses[status] ?? 0) + 1;
    serverMs += Number.parseFloat(ms);
  }
  const reads = log.filter((l) => l.startsWith('GET ')).length;
  return {
    seconds: round(run.seconds, 3),
    requests: log.length,
    reads,
    writes: log.length - reads,
    by_route: byRoute,
    statuses,
    server_ms: round(serverMs, 1),
    summary: run.summary,
  };
}

/** The groups and sets of the file still syncing on the emulator. */
function syncing(state) {
  const groups = state.groups().filter((g) => g.name.startsWith('Group ') && !g.is_up_to_date);
  const sets = state.documentSets().filter((s) => !s.is_up_to_date);
  return groups.length + sets.length;
}

/** The emulator holds what the file says: else the figures would measure a wrong apply. */
function checkState(state) {
  const pairs = state.pairs().filter((p) => p.name?.startsWith('Pair '));
  const groups = state.groups().filter((g) => g.name.startsWith('Group '));
  const sets = state.documentSets();
  const linked = pairs.filter((p) => p.groups.length === 2).length;
  const shared = sets.filter((s) => s.groups.length === 1).length;
  const wanted = [CONNECTORS, CONNECTORS / 2, GROUPS, SETS, (SETS * 2) / 3];
  const found = [pairs.length, linked, groups.length, sets.length, shared];
  if (found.some((n, i) => n !== wanted[i])) {
    throw new Error(
      `the emulator holds ${found.join('/')} (pairs/private pairs linked to 2 groups/groups/sets/sets shared with a group), not ${wanted.join('/')}`,
    );
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `kis --version`: the process's start-up alone, median of 3, in seconds. */
function startUpSeconds() {
  const runs = Array.from({ length: 3 }, () => {
    const started = performance.now();
    execFileSync(process.execPath, [KIS, '--version'], { stdio: 'ignore' });
    return (performance.now() - started) / 1000;
  });
  return round(median(runs), 3);
}

const log = [];
const emulator = await startEmulator({
  adminKey: KEY,
  dbPath: ':memory:',
  profile: 'deployed',
  edition: 'enterprise',
  userKeys: Array.from({ length: GROUPS }, (_, k) => `kis-bench-apply-user-key-${k}-0123456789`),
  tasks: { syncMs: SYNC_MS },
  logRequest: (line) => log.push(line),
});
try {
  console.log(
    `kis apply of ${CONNECTORS} connectors (their pairs), ${GROUPS} user groups and ${SETS} document sets, from empty then again (emulator: deployed profile, enterprise edition, groups and sets sync in ${SYNC_MS} ms; Node ${process.version})`,
  );
  const accounts = emulator.state
    .accounts()
    .filter((a) => a.role === 'basic')
    .map((a) => a.id);
  const file = join(work, 'kis.yaml');
  writeFileSync(file, stringify(kisFile(accounts)));
  const env = { KIS_BASE_URL: emulator.baseUrl, KIS_API_KEY: KEY };
  const apply = async (name) => {
    const run = await runKis(['apply', '-f', file, '--yes'], { env, cwd: work });
    if (run.code !== 0) throw new Error(`${name}: kis exited with ${run.code}: ${run.stderr}`);
    return run;
  };
  const first = await counted(log, () => apply('first apply'));
  checkState(emulator.state);
  // at once, while the sets just created sync (as a CI job re-applying would), then once synced
  const syncingAtOnce = syncing(emulator.state);
  const atOnce = await counted(log, () => apply('re-apply'));
  const waitStarted = performance.now();
  while (syncing(emulator.state) > 0) await new Promise((r) => setTimeout(r, 10));
  const waitedMs = round(performance.now() - waitStarted, 0);
  const again = await counted(log, () => apply('re-apply once synced'));
  const startUp = startUpSeconds();

  const ratio = (run, min) => round(run.requests / min.total, 3);
  const targets = {
    re_apply_writes: judged(again.writes, '= 0'),
    re_apply_while_syncing_writes: judged(atOnce.writes, '= 0'),
  };
  const extra = Object.entries(first.by_route).filter(
    ([route, n]) => route.startsWith('GET ') && n > 1,
  );
  console.log(
    `first apply: ${first.seconds} s, ${first.requests} requests (${first.reads} GET listings, ${first.writes} writes; ${Object.keys(first.statuses).join('/')}) vs the minimum ${MINIMUM.first_apply.total} (${MINIMUM.first_apply.reads} listings + ${MINIMUM.first_apply.writes} creates + 0 sync polls): ${ratio(first, MINIMUM.first_apply)}×; server time ${first.server_ms} ms`,
  );
  for (const [route, n] of Object.entries(first.by_route)) {
    console.log(`  ${String(n).padStart(4)}  ${route}`);
  }
  if (extra.length > 0) {
    console.log(`  read more than once: ${extra.map(([r, n]) => `${r} ×${n}`).join(', ')}`);
  }
  console.log(
    `re-apply at once (${syncingAtOnce} groups/sets still syncing): ${atOnce.seconds} s, ${atOnce.requests} requests (${atOnce.reads} reads), ${atOnce.writes} writes (${said(targets.re_apply_while_syncing_writes)})`,
  );
  console.log(
    `re-apply once all synced (${waitedMs} ms more waited for): ${again.seconds} s, ${again.requests} requests (${again.reads} reads) vs the minimum ${MINIMUM.re_apply.total}: ${ratio(again, MINIMUM.re_apply)}×, ${again.writes} writes (${said(targets.re_apply_writes)})`,
  );
  console.log(`  start-up alone (kis --version): ${startUp} s`);
  const results = {
    benchmark:
      'kis apply -f kis.yaml --yes of 40 connectors, 10 user groups and 30 document sets from empty, then the no-op re-apply, against the emulator',
    ...provenance(),
    file: {
      connectors: CONNECTORS,
      file_connectors: CONNECTORS / 2,
      ingestion_api_connectors: CONNECTORS / 2,
      private_pairs: CONNECTORS / 2,
      groups_per_private_pair: 2,
      user_groups: GROUPS,
      members_per_group: 2,
      document_sets: SETS,
      sets_shared_with_a_group: (SETS * 2) / 3,
      pairs_per_set: 3,
    },
    emulator: { profile: 'deployed', edition: 'enterprise', sync_ms: SYNC_MS },
    minimum: MINIMUM,
    first_apply: { ...first, vs_minimum: ratio(first, MINIMUM.first_apply) },
    re_apply_at_once: { ...atOnce, syncing_at_start: syncingAtOnce },
    re_apply: { ...again, vs_minimum: ratio(again, MINIMUM.re_apply) },
    waited_for_syncs_ms: waitedMs,
    start_up_seconds: startUp,
    targets,
    load_average_after: loadavg().map((n) => round(n)),
  };
  const out = join(root, 'bench/results/apply.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
