/**
 * A connector name a pair already answers to, as a user meets it with default flags: `kis
 * connector create` refuses it (exit 2, one line naming the pair) unless `--allow-duplicate-name`,
 * `--from` fails only the entries that repeat a name, and `kis apply` warns before making one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { emulatorAndFolder, jsonLines, kis } from '../helpers/cli.js';
import { expectOneError, newPair } from '../helpers/pairs.js';

const ctx = emulatorAndFolder('kis-duplicate-names-');
const run = (args: string[]) => kis(args, { env: ctx.env, cwd: ctx.work });
const FILE_CONFIG = ['--source', 'file', '--config', '{"file_locations": []}'];
const connectorNames = () =>
  ctx.emu.state
    .connectors({ all: true })
    .filter((c) => c.id !== 0)
    .map((c) => `${c.source}:${c.name}`)
    .sort();

beforeEach(() => ctx.emu.state.reset());

describe('kis connector create with a name a pair already has', () => {
  it('refuses it with exit 2, naming the pair, and creates nothing', async () => {
    const corpus = await newPair(ctx.emu, 'Corpus', 'file');
    const connectorId = ctx.emu.state.pairs().find((p) => p.id === corpus)?.connector_id;
    expectOneError(
      await run(['connector', 'create', '--name', 'Corpus', ...FILE_CONFIG]),
      2,
      new RegExp(
        `^error: --name: pair ${corpus} \\(connector ${connectorId}, source file\\) already has the name "Corpus", and commands that take a name would then fit both; use that pair \\(by its id\\), choose another name, or pass --allow-duplicate-name$`,
      ),
    );
    // another source does not make the name free: commands look pairs up by name alone
    const web = await run([
      'connector',
      'create',
      '--name',
      'Corpus',
      '--source',
      'web',
      '--set',
      'base_url=https://example.com',
      '--set',
      'web_connector_type=single',
    ]);
    expect(web.code).toBe(2);
    expect(web.stderr).toContain('already has the name "Corpus"');
    expect(connectorNames()).toEqual(['file:Corpus']);
    expect((await run(['connector', 'status', 'Corpus'])).code).toBe(0);
  });

  it('creates it with --allow-duplicate-name', async () => {
    await newPair(ctx.emu, 'Corpus', 'file');
    const r = await run([
      '--json',
      'connector',
      'create',
      '--name',
      'Corpus',
      '--source',
      'web',
      '--set',
      'base_url=https://example.com',
      '--set',
      'web_connector_type=single',
      '--allow-duplicate-name',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(connectorNames()).toEqual(['file:Corpus', 'web:Corpus']);
    expect((await run(['connector', 'status', 'Corpus'])).stderr).toContain('names 2 pairs');
  });

  it('--help names the flag', async () => {
    const help = await run(['connector', 'create', '--help']);
    expect(help.stdout).toContain('--allow-duplicate-name');
  });
});

describe('kis connector create --from with repeated names', () => {
  it('fails the entries whose name the server or an earlier entry has; the others are created', async () => {
    const corpus = await newPair(ctx.emu, 'Corpus', 'file');
    await writeFile(
      join(ctx.work, 'list.yaml'),
      `- name: A
  config: { file_locations: [] }
- name: Corpus
  config: { file_locations: [] }
- name: A
  config: { file_locations: [] }
- name: B
  config: { file_locations: [] }
`,
    );
    const r = await run([
      '--json',
      'connector',
      'create',
      '--from',
      'list.yaml',
      '--source',
      'file',
    ]);
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toMatchObject({ name: 'A', cc_pair_id: expect.any(Number) });
    expect(lines[1]).toMatchObject({ name: 'Corpus', entry: 2 });
    expect(String(lines[1]?.error)).toMatch(
      new RegExp(
        `^list\\.yaml: entry 2 \\("Corpus"\\): name: pair ${corpus} \\(connector \\d+, source file\\) already has the name "Corpus"`,
      ),
    );
    expect(lines[2]).toMatchObject({ name: 'A', entry: 3 });
    expect(String(lines[2]?.error)).toMatch(
      /^list\.yaml: entry 3 \("A"\): name: entry 1 of the file has the name "A" too/,
    );
    expect(lines[3]).toMatchObject({ name: 'B', cc_pair_id: expect.any(Number) });
    expect(lines[4]).toEqual({ summary: { created: 2, failed: 2, total: 4 } });
    expect(connectorNames()).toEqual(['file:A', 'file:B', 'file:Corpus']);
  });
});

describe('kis apply and names pairs already have', () => {
  it('adopts a connector of the same name and source, and warns before making a second name', async () => {
    await newPair(ctx.emu, 'Corpus', 'file');
    await writeFile(
      join(ctx.work, 'kis.yaml'),
      `connectors:
  - name: Corpus
    source: file
    config: { file_locations: [] }
  - name: Corpus
    source: web
    config: { base_url: https://example.com, web_connector_type: single }
`,
    );
    const dry = await run(['apply', '-f', 'kis.yaml', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(
      /warning: "Corpus" is created with a name pair \d+ \(connector \d+, source file\) already has: commands that take the name will fit both/,
    );
    expect(connectorNames()).toEqual(['file:Corpus']);
  });
});
