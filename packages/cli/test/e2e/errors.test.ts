import { writeTree } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  deadUrl,
  emulatorAndFolder,
  envFor,
  htmlServer,
  type KisResult,
  kis,
  USER_KEY,
} from '../helpers/cli.js';
import { facts, testProfile } from '../helpers/profile.js';

const ctx = emulatorAndFolder('kis-errors-', (work) =>
  writeTree(work, {
    'bad.json': '{\n  "jira_base_url": "https://x",\n  "project_key": ,\n}\n',
    'bad.yaml': 'jira_base_url: https://x\nproject_key: [A\n',
    'list.json': '{"not": "a list"}',
    'key.txt': `${ADMIN_KEY}\n`,
    'notes.txt': 'hello',
  }),
);

const run = (args: string[], extraEnv: Record<string, string> = ctx.env) =>
  kis(args, { env: extraEnv, cwd: ctx.work });

/** The command failed with exactly one line on stderr, matching `pattern`, and nothing on stdout. */
function expectOneLineError(r: KisResult, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('usage errors (exit 2)', () => {
  it('suggests the nearest command and flag', async () => {
    expectOneLineError(
      await run(['ingset', 'x']),
      2,
      /^error: unknown command 'ingset' \(did you mean ingest\?\)$/,
    );
    expectOneLineError(
      await run(['ingest', 'notes.txt', '--concurency', '4']),
      2,
      /^error: unknown option '--concurency' \(did you mean --concurrency\?\)$/,
    );
    expectOneLineError(
      await run(['connector', 'craete']),
      2,
      /^error: unknown command 'craete' \(did you mean create\?\)$/,
    );
  });

  it('names a missing required flag', async () => {
    expectOneLineError(
      await run(['connector', 'create', '--name', 'x', '--config', '{}']),
      2,
      /^error: connector create: missing required option --source \(or --from FILE/,
    );
    expectOneLineError(
      await run(['credential', 'create', '--credential-json', '{}']),
      2,
      /^error: required option '--source <source>' not specified$/,
    );
    expectOneLineError(await run(['ingest']), 2, /^error: missing required argument 'paths'$/);
  });

  it('rejects an unknown --source, listing close values from the spec', async () => {
    expectOneLineError(
      await run(['connector', 'create', '--name', 'x', '--source', 'confluense', '--config', '{}']),
      2,
      /^error: --source: unknown source "confluense"; did you mean confluence\? \(`kis sources` lists all values\)$/,
    );
    expectOneLineError(
      await run(['ingest', 'notes.txt', '--source', 'googl']),
      2,
      /^error: --source: unknown source "googl"; did you mean .*google_drive.*\?/,
    );
    expectOneLineError(
      await run(['credential', 'list', '--source', 'slak']),
      2,
      /did you mean (.*, )?slack(, .*)?\?/,
    );
  });

  it('points at the line and column of invalid JSON or YAML in --config', async () => {
    expectOneLineError(
      await run([
        'connector',
        'create',
        '--name',
        'x',
        '--source',
        'file',
        '--config',
        '{"a": 1,}',
      ]),
      2,
      /^error: --config: invalid JSON at line 1, column 9: /,
    );
    expectOneLineError(
      await run([
        'connector',
        'create',
        '--name',
        'x',
        '--source',
        'file',
        '--config',
        '@bad.json',
      ]),
      2,
      /^error: --config: bad\.json: invalid JSON at line 3, column 18: expected a value$/,
    );
    expectOneLineError(
      await run([
        'connector',
        'create',
        '--name',
        'x',
        '--source',
        'file',
        '--config',
        '@bad.yaml',
      ]),
      2,
      /^error: --config: bad\.yaml: invalid YAML at line 3, column 1: /,
    );
    expectOneLineError(
      await run(['connector', 'create', '--name', 'x', '--source', 'file', '--config', '[1]']),
      2,
      /^error: --config: expected a JSON object, got an array$/,
    );
    expectOneLineError(
      await run(['connector', 'create', '--from', 'list.json']),
      2,
      /^error: --from: list\.json: expected a list of connectors/,
    );
    expectOneLineError(
      await run(['connector', 'create', '--from', 'missing.yaml']),
      2,
      /^error: --from: cannot read file "missing\.yaml": no such file or directory$/,
    );
  });

  it('rejects bad values of typed flags', async () => {
    expectOneLineError(
      await run(['ingest', 'notes.txt', '--concurrency', 'many']),
      2,
      /^error: option '-c, --concurrency <n>' argument 'many' is invalid\. expected an integer from 1 to 256\.$/,
    );
    expectOneLineError(
      await run([
        'connector',
        'create',
        '--name',
        'x',
        '--source',
        'file',
        '--config',
        '{}',
        '--access-type',
        'everyone',
      ]),
      2,
      /^error: --access-type: unknown access type "everyone" \(expected one of: public, private, sync\)$/,
    );
    expectOneLineError(
      await run([
        'connector',
        'create',
        '--name',
        'x',
        '--source',
        'file',
        '--config',
        '{}',
        '--credential',
        'mine',
      ]),
      2,
      /^error: --credential: expected a credential id \(an integer ≥ 0\) or "auto", got "mine"$/,
    );
    expectOneLineError(
      await run(['ingest', 'nope']),
      2,
      /^error: ingest: PATH "nope": no such file or directory/,
    );
  });

  it('requires a base URL with /api and an API key', async () => {
    expectOneLineError(
      await run(['docs', 'list'], {}),
      2,
      /^error: missing base URL: pass --base-url or set KIS_BASE_URL/,
    );
    expectOneLineError(
      await run(['docs', 'list'], { KIS_BASE_URL: ctx.emu.baseUrl }),
      2,
      /^error: missing API key: pass --api-key, --api-key-file FILE or set KIS_API_KEY$/,
    );
    expectOneLineError(
      await run(['--base-url', ctx.emu.url, 'docs', 'list'], { KIS_API_KEY: ADMIN_KEY }),
      2,
      new RegExp(
        `^error: --base-url: "${ctx.emu.url}" lacks the /api prefix; the base URL includes it, e\\.g\\. ${ctx.emu.url}/api$`,
      ),
    );
    expectOneLineError(
      await run(['docs', 'list'], { KIS_BASE_URL: 'localhost:8080/api', KIS_API_KEY: ADMIN_KEY }),
      2,
      /^error: KIS_BASE_URL: "localhost:8080\/api" must be an http:\/\/ or https:\/\/ URL$/,
    );
    expectOneLineError(
      await run(['--api-key-file', 'no-such-key', 'docs', 'list'], {
        KIS_BASE_URL: ctx.emu.baseUrl,
      }),
      2,
      /^error: --api-key-file: cannot read file "no-such-key": no such file or directory$/,
    );
    // a key that could not go into a header: named by where it came from, never shown
    const bad = await run(['docs', 'list'], {
      KIS_BASE_URL: ctx.emu.baseUrl,
      KIS_API_KEY: 'clé-secrète',
    });
    expectOneLineError(
      bad,
      2,
      /^error: KIS_API_KEY: expected an API key of printable ASCII characters without spaces$/,
    );
    expect(bad.stderr + bad.stdout).not.toContain('secrète');
    expectOneLineError(
      await run(['--api-key', 'two words', 'docs', 'list'], { KIS_BASE_URL: ctx.emu.baseUrl }),
      2,
      /^error: --api-key: expected an API key of printable ASCII characters without spaces$/,
    );
  });
});

describe('failures that stop the command (exit 3)', () => {
  it('says plainly when the key is wrong (seed 401, deployed 403) or lacks the permission (403)', async () => {
    const { status, reason } = facts().badKey;
    expectOneLineError(
      await run(['docs', 'list'], envFor(ctx.emu, 'wrong-key-0123456789')),
      3,
      new RegExp(
        `^error: authentication failed: ${ctx.emu.baseUrl} answered ${status} ${reason}; the API key was rejected`,
      ),
    );
    // the seed names the roles; the main line checks a permission the key's groups grant
    const advice =
      testProfile() === 'seed'
        ? 'lacks the role: use a key that can manage connectors \\(admin or curator\\)'
        : "lacks the permission this call needs \\(a key holds its groups' grants; `kis doctor` shows what it holds and the group to add it to\\)";
    expectOneLineError(
      await run(['credential', 'list'], envFor(ctx.emu, USER_KEY)),
      3,
      new RegExp(
        `^error: permission denied: ${ctx.emu.baseUrl} answered 403 Forbidden .*; the API key was accepted but ${advice}$`,
      ),
    );
    const r = await run(['--json', 'ingest', 'notes.txt'], envFor(ctx.emu, 'wrong-key-0123456789'));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      new RegExp(`error: authentication failed: .* answered ${status} ${reason}`),
    );
  });

  it('names the URL when the server is down (connection refused)', async () => {
    const url = await deadUrl();
    expectOneLineError(
      await run(['docs', 'list'], { KIS_BASE_URL: url, KIS_API_KEY: ADMIN_KEY }),
      3,
      new RegExp(
        `^error: cannot connect to ${url}: connection refused \\(is the server running\\?\\)$`,
      ),
    );
    const ingest = await run(['ingest', 'notes.txt'], {
      KIS_BASE_URL: url,
      KIS_API_KEY: ADMIN_KEY,
    });
    expect(ingest.code).toBe(3);
    expect(ingest.stderr).toContain(`error: cannot connect to ${url}: connection refused`);
  });

  it('explains an HTML answer (a base URL pointing at a web page, a proxy or a login page)', async () => {
    const html = await htmlServer();
    try {
      expectOneLineError(
        await run(['docs', 'list'], { KIS_BASE_URL: `${html.url}/api`, KIS_API_KEY: ADMIN_KEY }),
        3,
        /^error: http:\/\/127\.0\.0\.1:\d+\/api answered with an HTML page \(HTTP 200\) instead of the API's JSON: is the \/api prefix missing from the base URL/,
      );
    } finally {
      await html.close();
    }
  });
});

describe('help, version and output hygiene', () => {
  it('prints --version and --help (with examples) on every command', async () => {
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    for (const args of [
      [],
      ['connector', 'create'],
      ['credential', 'list'],
      ['credential', 'create'],
      ['credential', 'set-private-key'],
      ['upload'],
      ['ingest'],
      ['docs', 'list'],
      ['docs', 'delete'],
      ['emulator'],
      ['sources'],
    ]) {
      const r = await run([...args, '--help']);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Usage: kis/);
      expect(r.stdout, args.join(' ')).toContain('Examples:\n  $ kis');
    }
  });

  it('says what the rule book says (sources without a credential, file kinds)', async () => {
    const help = async (args: string[]) =>
      (await run([...args, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await help(['connector', 'create'])).toContain(
      'Sources that need no credential use the default empty credential 0: ingestion_api, web, file, google_sites, mediawiki, wikipedia, xenforo, not_applicable, mock_connector, user_file, craft_file.',
    );
    expect(await help(['connector', 'associate'])).toContain(
      'credential id (0: the default empty credential, for a source that needs none)',
    );
    const ingest = await help(['ingest']);
    expect(ingest).toContain(
      'Files (.txt .text .md .markdown .html .htm .json .conf .log .sql .yml .yaml .mdx .xml .pdf .docx .pptx .xlsx .xlsm .eml .epub .csv .tsv, images .png .jpg .jpeg .gif .webp) become one document each',
    );
    expect(ingest).toContain("(default: the server's default pair, 1)");
    expect(await help(['upload'])).toContain('upload image files (.png .jpg .jpeg .gif .webp)');
    expect(await help([])).toContain(
      'Connector and credential commands need the admin role on servers that follow the seed; release 4.6.1 takes curator or admin, and asks for it on ingest and docs commands too; on the main line a key holds the grants of its groups (manage:connectors). kis doctor shows what a key may use',
    );
  });

  it('never prints the API key, whatever happens', async () => {
    const key = ADMIN_KEY;
    const runs: KisResult[] = [];
    const withFlag = (args: string[]) =>
      run(['--verbose', '--api-key', key, ...args], { KIS_BASE_URL: ctx.emu.baseUrl });
    runs.push(
      await withFlag([
        'connector',
        'create',
        '--name',
        'f',
        '--source',
        'file',
        '--config',
        '{"file_locations": []}',
      ]),
    );
    runs.push(await withFlag(['ingest', 'notes.txt', 'bad.json']));
    runs.push(await withFlag(['docs', 'list']));
    runs.push(await withFlag(['docs', 'delete', 'nope']));
    runs.push(await withFlag(['--json', 'credential', 'list']));
    runs.push(
      await run(['--verbose', '--api-key-file', 'key.txt', 'docs', 'list'], {
        KIS_BASE_URL: ctx.emu.baseUrl,
      }),
    );
    runs.push(
      await run(['--verbose', 'docs', 'list'], {
        KIS_BASE_URL: `${ctx.emu.baseUrl}`,
        KIS_API_KEY: key,
      }),
    );
    runs.push(
      await run(['--verbose', 'docs', 'list'], { KIS_BASE_URL: await deadUrl(), KIS_API_KEY: key }),
    );
    runs.push(await run(['--api-key', key, '--bogus'], {}));
    runs.push(
      await run(['--verbose', 'ingest', 'notes.txt'], envFor(ctx.emu, 'wrong-key-0123456789')),
    );
    expect(runs[0]?.code).toBe(0);
    expect(runs[0]?.stderr).toContain('authorization'); // --verbose logged the request headers…
    for (const r of runs) {
      expect(r.stdout).not.toContain(key); // …but never the key
      expect(r.stderr).not.toContain(key);
      expect(r.stderr).not.toContain('wrong-key-0123456789');
    }
  });

  it('keeps stdout to JSON lines with --json, even on failures', async () => {
    const r = await run(['--json', 'ingest', 'notes.txt', 'bad.json']);
    expect(r.code).toBe(1);
    for (const line of r.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('uses no colour codes when NO_COLOR is set', async () => {
    const r = await run(['ingest', 'nope']);
    expect(r.stderr).not.toContain('\u001b[');
  });
});
