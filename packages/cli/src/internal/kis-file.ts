/**
 * Reading a `kis.yaml` (or `.json`) file for `kis apply` and `kis sync --from`: YAML 1.2 with
 * comments and anchors, `${NAME}` references to environment variables in any string (`$${` for a
 * literal `${`), and `@path` references to files (relative to the file) in `credential_json`
 * values (`@@` for a literal `@`). Values read from references are secrets: the command never
 * prints them. A connector's `documents.sql.connection` is left as written: `@kis/node` resolves
 * it when the source is opened, and refuses a file that holds the connection string itself.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DesiredStateError, type DesiredStateIssue } from '@kis/client';
import type { DesiredState } from '@kis/node';
import { UsageError } from './errors.js';
import { type IssuePlace, type Position, PositionFinder } from './kis-file-positions.js';
import { fsReason } from './structured.js';
import { loadYaml } from './yaml-lib.js';

export interface KisFile {
  path: string;
  state: DesiredState;
  /** The values read from `${NAME}` and `@path` references (to keep out of any output). */
  secrets: string[];
  /**
   * `path:line:col` of what an issue names (the key or value at its path in its entry), when the
   * file is YAML; else `path`.
   */
  where(issue: IssuePlace): string;
  /** The references that could not be resolved (`${NAME}` unset, a file unreadable). */
  problems?: DesiredStateError | undefined;
}

/** Paths in an entry whose references are resolved by `@kis/node`, not here. */
const LEFT_AS_WRITTEN = new Set(['documents.sql.connection']);

/** Resolves references in place; collects the problems (every one) and the values read. */
class References {
  readonly issues: DesiredStateIssue[] = [];
  readonly secrets: string[] = [];
  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  private fail(entry: string, path: string, message: string): void {
    this.issues.push({ entry, path, message, keyword: 'reference' });
  }

  text(entry: string, path: string, value: string): string {
    return value.replace(/\$?\$\{([^}]*)\}/g, (whole, name: string) => {
      if (whole.startsWith('$$')) return whole.slice(1);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        this.fail(entry, path, `"\${${name}}" is not a reference to an environment variable`);
        return whole;
      }
      const v = this.env[name];
      if (v === undefined || v === '') {
        this.fail(entry, path, `environment variable ${name} is not set`);
        return whole;
      }
      this.secrets.push(v);
      return v;
    });
  }

  async file(entry: string, path: string, value: string): Promise<string> {
    if (value.startsWith('@@')) return value.slice(1);
    const file = value.slice(1);
    try {
      const text = (await readFile(resolve(this.dir, file), 'utf8')).replace(/\r?\n$/, '');
      this.secrets.push(text);
      return text;
    } catch (error) {
      this.fail(entry, path, `cannot read file "${file}": ${fsReason(error)}`);
      return value;
    }
  }

  async walk(entry: string, path: string, value: unknown, files: boolean): Promise<unknown> {
    if (typeof value === 'string') {
      if (files && value.startsWith('@')) return this.file(entry, path, value);
      return this.text(entry, path, value);
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const [i, v] of value.entries())
        out.push(await this.walk(entry, `${path}[${i}]`, v, files));
      return out;
    }
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const inner = path === '' ? k : `${path}.${k}`;
        out[k] = LEFT_AS_WRITTEN.has(inner)
          ? v
          : await this.walk(entry, inner, v, files || inner === 'credential_json');
      }
      return out;
    }
    return value;
  }
}

async function parse(path: string, text: string) {
  if (/\.json$/i.test(path)) {
    try {
      return { value: JSON.parse(text) as unknown, find: (): Position | undefined => undefined };
    } catch (error) {
      throw new UsageError(`${path}: not valid JSON: ${(error as Error).message}`);
    }
  }
  const yaml = await loadYaml();
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const first = doc.errors[0];
  if (first !== undefined) {
    const at = lines.linePos(first.pos[0]);
    throw new UsageError(
      `${path}:${at.line}:${at.col}: not valid YAML: ${first.message.split('\n')[0]}`,
    );
  }
  const finder = new PositionFinder(yaml, doc, lines);
  return { value: doc.toJS({ maxAliasCount: 1000 }) as unknown, find: finder.find.bind(finder) };
}

/** Reads, parses and resolves a kis file; the problems of its references are returned with it. */
export async function readKisFile(
  path: string,
  io: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<KisFile> {
  const full = resolve(io.cwd, path);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch (error) {
    throw new UsageError(`-f: cannot read file "${path}": ${fsReason(error)}`);
  }
  const { value, find } = await parse(path, text);
  const where = (issue: IssuePlace) => {
    const at = find(issue);
    return at === undefined ? path : `${path}:${at.line}:${at.col}`;
  };
  if (value === null || value === undefined) return { path, state: {}, secrets: [], where };
  const refs = new References(dirname(full), io.env);
  const state = { ...(value as Record<string, unknown>) };
  for (const list of ['credentials', 'connectors', 'user_groups', 'document_sets'] as const) {
    const entries = state[list];
    if (!Array.isArray(entries)) continue;
    state[list] = await Promise.all(
      entries.map((e, i) => {
        const name = typeof e?.name === 'string' ? ` "${e.name}"` : '';
        return refs.walk(`${list}[${i}]${name}`, '', e, false);
      }),
    );
  }
  const problems =
    refs.issues.length > 0
      ? new DesiredStateError(`${refs.issues.length} unresolved references in ${path}`, refs.issues)
      : undefined;
  return { path, state: state as DesiredState, secrets: refs.secrets, where, problems };
}
