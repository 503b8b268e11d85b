import { readdir } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { EMULATOR_FLAGS } from '@kis/emulator';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ExitCode, run } from '../src/index.js';
import type { CommandEnv } from '../src/internal/action.js';
import type { CommandBuilder } from '../src/internal/command-table.js';
import { applyCommand } from '../src/internal/commands/apply/index.js';
import { connectorCommand } from '../src/internal/commands/connector/index.js';
import { credentialCommand } from '../src/internal/commands/credential/index.js';
import { docsCommand } from '../src/internal/commands/docs/index.js';
import { docsetCommand } from '../src/internal/commands/docset/index.js';
import { doctorCommand } from '../src/internal/commands/doctor/index.js';
import { emulatorCommand } from '../src/internal/commands/emulator/index.js';
import { exportCommand } from '../src/internal/commands/export/index.js';
import { groupCommand } from '../src/internal/commands/group/index.js';
import { ingestCommand } from '../src/internal/commands/ingest/index.js';
import { queueCommand } from '../src/internal/commands/queue/index.js';
import { sourcesCommand } from '../src/internal/commands/sources/index.js';
import { syncCommand } from '../src/internal/commands/sync/index.js';
import { uploadCommand } from '../src/internal/commands/upload/index.js';
import { verifyCommand } from '../src/internal/commands/verify/index.js';
import { workerCommand } from '../src/internal/commands/worker/index.js';
import type { Io } from '../src/internal/output.js';
import { createProgram } from '../src/internal/program.js';

// Every command of `kis` (path|aliases) with its arguments and options (flags, "(required)",
// "= default"), as they were when program.ts held them all (the split changed none of them),
// with the commands added since (pair operations, queue mode).
// `kis emulator` takes @kis/emulator's own flags (EMULATOR_FLAGS), read from it.
const PINNED: Record<string, readonly string[]> = {
  '': [
    '-V, --version',
    '--base-url <url>',
    '--api-key <key>',
    '--allow-insecure-http',
    '--api-key-file <file>',
    '--json',
    '-q, --quiet',
    '-v, --verbose',
    '--no-color',
  ],
  'connector|connectors': [],
  'connector create': [
    '--name <name>',
    '--for-ingestion',
    '--source <source>',
    '--config <json>',
    '--set <key=value> = []',
    '--input-type <type> = "poll"',
    '--access <type>',
    '--access-type <type>',
    '--group <group> = []',
    '--refresh-freq <seconds>',
    '--prune-freq <seconds>',
    '--credential <id|auto> = "auto"',
    '--allow-duplicate-name',
    '--from <file>',
  ],
  'connector fields': ['<source>'],
  'connector associate': [
    '<connector-id>',
    '--credential <id> (required)',
    '--name <name>',
    '--access-type <type> = "public"',
  ],
  'connector list': [],
  'connector status': ['<pair>', '--watch', '--interval <duration> = 2000'],
  'connector run': ['<pairs...>', '--from-beginning'],
  'connector pause': ['<pairs...>'],
  'connector resume': ['<pairs...>'],
  'connector prune': ['<pair>', '--delete-pushed-documents'],
  'connector delete': ['<pairs...>', '-y, --yes', '--wait', '--wait-for <duration> = 600000'],
  'group|groups': [],
  'group list': ['--all'],
  'group create': [
    '<name>',
    '--user <account> = []',
    '--pair <pair> = []',
    '--wait',
    '--wait-for <duration> = 600000',
  ],
  'group update': [
    '<group>',
    '--name <name>',
    '--user <account> = []',
    '--no-users',
    '--pair <pair> = []',
    '--no-pairs',
    '--wait',
    '--wait-for <duration> = 600000',
  ],
  'group delete': ['<groups...>', '-y, --yes', '--wait', '--wait-for <duration> = 600000'],
  'group add-users': ['<group>', '<accounts...>'],
  'group add-pairs': ['<group>', '<pairs...>', '--wait', '--wait-for <duration> = 600000'],
  'group docsets': [
    '<group>',
    '--add <set> = []',
    '--remove <set> = []',
    '--wait',
    '--wait-for <duration> = 600000',
  ],
  'docset|docsets': [],
  'docset list': ['--editable'],
  'docset create': [
    '<name>',
    '--pair <pair> = []',
    '--description <text>',
    '--public',
    '--private',
    '--group <group> = []',
    '--user <account> = []',
    '--wait',
    '--wait-for <duration> = 600000',
  ],
  'docset update': [
    '<set>',
    '--name <name>',
    '--description <text>',
    '--public',
    '--private',
    '--pair <pair> = []',
    '--group <group> = []',
    '--no-groups',
    '--user <account> = []',
    '--wait',
    '--wait-for <duration> = 600000',
  ],
  'docset delete': ['<sets...>', '-y, --yes', '--wait', '--wait-for <duration> = 600000'],
  'docset add': ['<set>', '<pairs...>', '--wait', '--wait-for <duration> = 600000'],
  'docset remove': ['<set>', '<pairs...>', '--wait', '--wait-for <duration> = 600000'],
  'credential|credentials': [],
  'credential list': ['--source <source>'],
  'credential create': [
    '--source <source> (required)',
    '--credential-json <json>',
    '--set <key=value> = []',
    '--name <name>',
    '--admin-public',
  ],
  'credential set-private-key': [
    '<id>',
    '--file <path> (required)',
    '--name <name> (required)',
    '--credential-json <json> (required)',
    '--field-key <key> (required)',
    '--type-definition-key <key> (required)',
  ],
  upload: ['<files...>'],
  ingest: [
    '<paths...>',
    '--source <source>',
    '-c, --concurrency <n> = 64',
    '--min-concurrency <n>',
    '--fixed-concurrency',
    '--retry-for <duration>',
    '--max-outage <duration>',
    '--include <glob> = []',
    '--exclude <glob> = []',
    '--base-dir <dir>',
    '--query <sql>',
    '--table <name>',
    '--id <column>',
    '--title <column>',
    '--text <columns>',
    '--heading <column>',
    '--metadata <columns>',
    '--updated-at <column>',
    '--link <template>',
    '--full',
    '--connection <name>',
    '--queue <url>',
    '--root <dir>',
    '--wait',
    '--batch-size <n>',
    '--rate <rate>',
    '--max-in-flight <n>',
    '--max-waiting <jobs>',
    '--queue-name <name>',
    '--cc-pair <id>',
    '--journal <file>',
    '--no-journal',
    '--namespace <prefix>',
    '--dry-run',
  ],
  sync: [
    '<paths...>',
    '--source <source>',
    '-c, --concurrency <n> = 64',
    '--min-concurrency <n>',
    '--fixed-concurrency',
    '--retry-for <duration>',
    '--max-outage <duration>',
    '--include <glob> = []',
    '--exclude <glob> = []',
    '--base-dir <dir>',
    '--query <sql>',
    '--table <name>',
    '--id <column>',
    '--title <column>',
    '--text <columns>',
    '--heading <column>',
    '--metadata <columns>',
    '--updated-at <column>',
    '--link <template>',
    '--full',
    '--connection <name>',
    '--queue <url>',
    '--root <dir>',
    '--wait',
    '--batch-size <n>',
    '--rate <rate>',
    '--max-in-flight <n>',
    '--max-waiting <jobs>',
    '--queue-name <name>',
    '--cc-pair <id>',
    '--prune',
    '--max-delete <n|p%>',
    '--force',
    '--namespace <prefix>',
    '--journal <file>',
    '--dry-run',
    '--from <file>',
    '--watch',
  ],
  worker: [
    '--queue <url>',
    '--queue-name <name>',
    '--root <dir>',
    '-c, --concurrency <n> = 8',
    '--fixed-concurrency',
    '--retry-for <duration>',
    '--max-outage <duration>',
    '--max-in-flight <n>',
    '--rate <rate>',
    '--name <name>',
    '--lock-duration <duration>',
    '--stalled-interval <duration>',
    '--connection <name=env_var>',
  ],
  queue: [],
  'queue status': ['[run]', '--queue <url>', '--queue-name <name>', '--failures <n> = 5'],
  'queue failed': ['[run]', '--queue <url>', '--queue-name <name>', '--limit <n>'],
  'queue retry': ['[run]', '--queue <url>', '--queue-name <name>'],
  'queue clean': ['[run]', '--queue <url>', '--queue-name <name>', '--force'],
  'queue limits': ['--queue <url>', '--queue-name <name>', '--max-in-flight <n>', '--rate <rate>'],
  'queue dashboard': [
    '--queue <url>',
    '--queue-name <name>',
    '--port <port> = 3000',
    '--host <host> = "127.0.0.1"',
    '--read-only',
  ],
  verify: [
    '[paths...]',
    '--source <source>',
    '--include <glob> = []',
    '--exclude <glob> = []',
    '--base-dir <dir>',
    '--cc-pair <id>',
    '--as <env>',
    '--checks <list>',
    '--sample <n>',
    '--seed <n>',
    '--repair',
    '--journal <file>',
    '--no-journal',
    '--from-journal',
    '--report <file>',
    '-c, --concurrency <n> = 16',
    '--max-ids <n> = 1000',
  ],
  'docs|doc': [],
  'docs list': ['--cc-pair <id>'],
  'docs delete': ['<ids...>'],
  'docs status': ['<ids...>'],
  emulator: EMULATOR_FLAGS.map(
    (f) => `--${f.name}${f.value === undefined ? '' : ` <${f.value.toLowerCase()}>`}`,
  ),
  apply: [
    '-f, --file <file> (required)',
    '--dry-run',
    '--prune',
    '-y, --yes',
    '--delete-pushed-documents',
    '--secrets-file <file>',
  ],
  export: ['-o, --output <file>', '--format <format>'],
  doctor: ['--cc-pair <id>'],
  sources: [],
};

/** Each command module's builder and the one top-level command it must build. */
const MODULES: readonly [string, CommandBuilder][] = [
  ['connector', connectorCommand],
  ['credential', credentialCommand],
  ['group', groupCommand],
  ['docset', docsetCommand],
  ['upload', uploadCommand],
  ['ingest', ingestCommand],
  ['sync', syncCommand],
  ['worker', workerCommand],
  ['queue', queueCommand],
  ['verify', verifyCommand],
  ['docs', docsCommand],
  ['emulator', emulatorCommand],
  ['apply', applyCommand],
  ['export', exportCommand],
  ['doctor', doctorCommand],
  ['sources', sourcesCommand],
];

// The layout (ARCHITECTURE.md, "Where to add: a command"): a folder per command, its index.ts the
// command (or, with sub-commands, their table), one module per sub-command, named for it, and
// the parts a command's modules share beside them.
const LAYOUT: Record<string, readonly string[]> = {
  apply: ['access-lines.ts', 'index.ts'],
  connector: [
    'associate.ts',
    'create.ts',
    'delete.ts',
    'each-pair.ts',
    'fields.ts',
    'index.ts',
    'list.ts',
    'pair-help.ts',
    'pause.ts',
    'prune.ts',
    'resume.ts',
    'run.ts',
    'status.ts',
  ],
  credential: ['create.ts', 'index.ts', 'list.ts', 'redact.ts', 'set-private-key.ts'],
  docs: ['delete.ts', 'index.ts', 'list.ts', 'status.ts'],
  docset: [
    'add.ts',
    'create.ts',
    'delete.ts',
    'index.ts',
    'list.ts',
    'pairs.ts',
    'remove.ts',
    'sets.ts',
    'update.ts',
  ],
  doctor: ['index.ts'],
  emulator: ['index.ts'],
  export: ['index.ts', 'scope.ts'],
  group: [
    'add-pairs.ts',
    'add-users.ts',
    'create.ts',
    'delete.ts',
    'docsets.ts',
    'groups.ts',
    'index.ts',
    'list.ts',
    'update.ts',
  ],
  ingest: [
    'index.ts',
    'pair.ts',
    'queued-source.ts',
    'queued.ts',
    'reading.ts',
    'report.ts',
    'tally.ts',
  ],
  queue: [
    'clean.ts',
    'dashboard.ts',
    'failed.ts',
    'format.ts',
    'index.ts',
    'limits.ts',
    'retry.ts',
    'status.ts',
  ],
  sources: ['index.ts'],
  sync: [
    'declared.ts',
    'index.ts',
    'journal.ts',
    'options.ts',
    'ownership.ts',
    'pass.ts',
    'passes.ts',
    'plan-report.ts',
    'queued-source.ts',
    'queued.ts',
    'result-line.ts',
    'source.ts',
    'watch.ts',
  ],
  upload: ['index.ts'],
  verify: ['as-key.ts', 'index.ts', 'report.ts', 'server-refusal.ts', 'source.ts'],
  worker: ['connections.ts', 'index.ts'],
};
const COMMANDS_DIR = fileURLToPath(new URL('../src/internal/commands/', import.meta.url));

const env: CommandEnv = {
  act: () => async () => undefined,
  interrupts: process,
  command: (name) => new Command(name),
};

/** `PINNED`'s entries for `command` and everything under it. */
function describeTree(command: Command, path: string[] = []): Record<string, string[]> {
  const key = [path.join(' '), ...command.aliases()].join('|');
  const entries: Record<string, string[]> = {
    [key]: [
      ...command.registeredArguments.map((a) => {
        const name = `${a.name()}${a.variadic ? '...' : ''}`;
        return a.required ? `<${name}>` : `[${name}]`;
      }),
      ...command.options.map(
        (o) =>
          `${o.flags}${o.mandatory ? ' (required)' : ''}${
            o.defaultValue === undefined ? '' : ` = ${JSON.stringify(o.defaultValue)}`
          }`,
      ),
    ],
  };
  for (const sub of command.commands) {
    Object.assign(entries, describeTree(sub, [...path, sub.name()]));
  }
  return entries;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => {
    text += d.toString('utf8');
  });
  return { stream, text: () => text };
}

const io = (): { io: Io; out: () => string; err: () => string } => {
  const out = capture();
  const err = capture();
  return {
    io: { stdout: out.stream, stderr: err.stream, stdin: process.stdin, env: {}, cwd: '.' },
    out: out.text,
    err: err.text,
  };
};

describe('one module per command', () => {
  it('commands/ holds a folder per command, a module per sub-command', async () => {
    const folders = await readdir(COMMANDS_DIR, { withFileTypes: true });
    expect(folders.every((f) => f.isDirectory())).toBe(true);
    const layout = Object.fromEntries(
      await Promise.all(
        folders.map(async (f) => [f.name, (await readdir(`${COMMANDS_DIR}${f.name}`)).sort()]),
      ),
    );
    expect(layout).toEqual(LAYOUT);
    for (const [name] of MODULES) {
      const command = await Promise.resolve(MODULES.find(([n]) => n === name)?.[1](env));
      // each sub-command's module is named for it
      for (const sub of command?.commands ?? []) expect(LAYOUT[name]).toContain(`${sub.name()}.ts`);
    }
  });

  it.each(MODULES)(
    'the %s module builds exactly its command, with what was pinned',
    async (name, build) => {
      const command = await build(env);
      expect(command.name()).toBe(name);
      expect(command.parent).toBeNull();
      const pinned = Object.fromEntries(
        Object.entries(PINNED).filter(([key]) => key.split(/[ |]/)[0] === name),
      );
      expect(describeTree(command, [name])).toEqual(pinned);
    },
  );

  it('the program is the root command and these modules, in the order the help lists them', async () => {
    const program = await createProgram(io().io, env);
    expect(program.commands.map((c) => c.name())).toEqual(MODULES.map(([name]) => name));
    expect(describeTree(program)).toEqual(PINNED);
  });

  it.each([
    [
      ['connector', 'list'],
      ['connector', 'connector list'],
    ],
    [
      ['--json', 'connectors', '--api-key', 'k', 'list', '--help'],
      ['connector', 'connector list'],
    ],
    [
      ['docs', 'status', 'x'],
      ['docs', 'docs status'],
    ],
    // an option the table does not know (the sub-command's own) before its name: all are built
    [
      ['queue', '--queue', 'redis://h', 'status'],
      [
        'queue',
        ...['status', 'failed', 'retry', 'clean', 'limits', 'dashboard'].map((s) => `queue ${s}`),
      ],
    ],
    [['sync', 'docs', '--cc-pair', '2'], ['sync']],
    [['--json', '--version', 'connector'], []],
  ])('kis %j builds only what it runs: %j', async (argv, built) => {
    const program = await createProgram(io().io, env, argv);
    const paths = Object.keys(describeTree(program))
      .filter((key) => key !== '')
      .map((key) => key.split('|')[0]);
    expect(paths).toEqual(built);
  });

  it('the tables know every name and alias the modules give: each chooses its command alone', async () => {
    const all = await createProgram(io().io, env);
    for (const command of all.commands) {
      for (const name of [command.name(), ...command.aliases()]) {
        const subs = command.commands.length > 0 ? command.commands : [undefined];
        for (const sub of subs) {
          const subNames = sub ? [sub.name(), ...sub.aliases()] : [undefined];
          for (const subName of subNames) {
            const argv = subName === undefined ? [name] : [name, subName];
            const program = await createProgram(io().io, env, argv);
            const built = Object.keys(describeTree(program)).filter((key) => key !== '');
            const path = [command.name(), ...(sub ? [sub.name()] : [])];
            expect(
              built.map((key) => key.split('|')[0]),
              argv.join(' '),
            ).toEqual(path.map((_, i) => path.slice(0, i + 1).join(' ')));
          }
        }
      }
    }
  });

  it.each([[[]], [['--help']], [['help', 'connector']], [['conector', 'list']], [['-qv', 'docs']]])(
    'kis %j builds every command, so that help and suggestions read as ever',
    async (argv) => {
      const program = await createProgram(io().io, env, argv);
      expect(describeTree(program)).toEqual(PINNED);
    },
  );

  it('kis --help lists the same commands', async () => {
    const { io: streams, out } = io();
    expect(await run(['--help'], { io: streams })).toBe(ExitCode.Ok);
    const listed = out()
      .split('\nCommands:\n')[1]
      ?.split('\n\n')[0]
      ?.split('\n')
      .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(listed).toEqual([
      'connector|connectors',
      'credential|credentials',
      'group|groups',
      'docset|docsets',
      'upload',
      'ingest',
      'sync',
      'worker',
      'queue',
      'verify',
      'docs|doc',
      'emulator',
      'apply',
      'export',
      'doctor',
      'sources',
      'help',
    ]);
  });

  it("subcommands built apart get the program's settings: help flag, one-line errors, exit 2", async () => {
    const help = io();
    expect(await run(['docs', 'list', '--help'], { io: help.io })).toBe(ExitCode.Ok);
    expect(help.out()).toMatch(
      /-h, --help +show help \(every command has its own, with examples\)/,
    );
    const wrong = io();
    expect(await run(['credential', 'lst'], { io: wrong.io })).toBe(ExitCode.Usage);
    expect(wrong.err()).toBe("error: unknown command 'lst' (did you mean list?)\n");
  });
});
