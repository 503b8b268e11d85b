/**
 * Commands listed by name and loaded only when a command line chooses them: the program's
 * commands (program.ts) and the sub-commands of each (`commands/<cmd>/index.ts`). `kis
 * connector list` loads the connector table and `list.ts`, not what `kis ingest` or `kis
 * connector create` import; help, a typo or no command loads all, so they read as ever.
 */
import type { Command, Option } from 'commander';
import type { CommandEnv } from './action.js';

/**
 * Builds a command. `argv`, the arguments after its name, lets a command with sub-commands load
 * only the one they name; undefined loads them all.
 */
export type CommandBuilder = (
  env: CommandEnv,
  argv?: readonly string[],
) => Command | Promise<Command>;

/** A command as its parent lists it: the names that choose it, and its module, loaded if chosen. */
export interface CommandEntry {
  readonly name: string;
  readonly aliases?: readonly string[];
  load(): Promise<CommandBuilder>;
}

/** What a command line needs of a table: no command, one (with the arguments after it), or all. */
export type Needed =
  | { kind: 'none' }
  | { kind: 'one'; entry: CommandEntry; argv: readonly string[] }
  | { kind: 'all' };

/** The option `arg` names among `options` (`--flag=value` by its flag), with its inline value. */
function optionOf(
  arg: string,
  options: readonly Option[],
): { option: Option | undefined; inline: string | undefined } {
  const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
  return { option: options.find((o) => o.long === flag || o.short === flag), inline };
}

/**
 * `rest` without the parent's `options` and their values: commander reads a command's options
 * wherever they stand, so what follows a sub-command's name is its own once they are gone.
 */
function withoutOptions(rest: readonly string[], options: readonly Option[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') return [...kept, ...rest.slice(i)];
    const { option, inline } = arg.startsWith('-')
      ? optionOf(arg, options)
      : { option: undefined, inline: undefined };
    if (option === undefined || option.optional) kept.push(arg);
    else if (option.required && inline === undefined) i++;
  }
  return kept;
}

/**
 * Which of `entries` a command line needs, from `argv` (the arguments after the parent's name)
 * and the parent's `options`: the command its first operand names, alone; none when `--version`
 * comes first (it prints the version and stops there); else all of them, for help, no command,
 * a typo or an option not read with certainty (a help flag, combined short flags).
 */
export function needed(
  entries: readonly CommandEntry[],
  options: readonly Option[],
  argv: readonly string[],
): Needed {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('-')) {
      const { option, inline } = optionOf(arg, options);
      if (option === undefined || option.optional) return { kind: 'all' };
      if (option.long === '--version') return { kind: 'none' };
      if (option.required && inline === undefined) i++;
      continue;
    }
    const entry = entries.find((e) => e.name === arg || e.aliases?.includes(arg));
    if (entry === undefined) return { kind: 'all' };
    return { kind: 'one', entry, argv: withoutOptions(argv.slice(i + 1), options) };
  }
  return { kind: 'all' };
}

/**
 * Adds to `parent`, in the table's order, the commands of `entries` the command line `argv`
 * needs ({@link needed}; all when `argv` is undefined); says which it added.
 */
export async function addCommands(
  parent: Command,
  entries: readonly CommandEntry[],
  env: CommandEnv,
  argv: readonly string[] | undefined,
): Promise<Needed['kind']> {
  const need: Needed = argv === undefined ? { kind: 'all' } : needed(entries, parent.options, argv);
  const chosen = need.kind === 'one' ? [need.entry] : need.kind === 'all' ? entries : [];
  // the modules load together; the commands are added one by one, in the order help lists them
  const builders = await Promise.all(chosen.map((entry) => entry.load()));
  for (const build of builders) {
    parent.addCommand(await build(env, need.kind === 'one' ? need.argv : undefined));
  }
  return need.kind;
}
