/**
 * Where a problem of a `kis.yaml` sits: the line and column of the key or value an issue names
 * (`connectors[0]` and `config.project_key`), found in the YAML library's node ranges, so a typo
 * on an entry's fourth line is reported there and not at the entry's first.
 */
import type { Document, LineCounter, Node, Pair } from 'yaml';

type Yaml = typeof import('yaml');

/** A place in the file, 1-based. */
export interface Position {
  line: number;
  col: number;
}

/** What an issue names: its entry (`connectors[1] "Jira"`, `file`), path and keyword. */
export interface IssuePlace {
  entry: string;
  path?: string | undefined;
  keyword?: string | undefined;
}

const ENTRY = /^(credentials|connectors)\[(\d+)\]/;

/** `config.file_locations[0]` → `config`, `file_locations`, 0. */
function segments(path: string): (string | number)[] {
  return [...path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((m) =>
    m[1] !== undefined ? Number(m[1]) : (m[2] as string),
  );
}

/** Finds the positions of issues in one parsed document. */
export class PositionFinder {
  constructor(
    private readonly yaml: Yaml,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /**
   * The key an unknown-key issue names, the value any other issue names, or (for what the file
   * lacks, such as a required key) the deepest key on the way there; else the entry's start.
   */
  find(issue: IssuePlace): Position | undefined {
    const { isMap, isSeq } = this.yaml;
    const m = ENTRY.exec(issue.entry);
    let node: unknown = this.doc.contents;
    if (m) {
      const list = this.doc.get(m[1] as string, true);
      node = isSeq(list) ? list.items[Number(m[2])] : undefined;
    }
    let at = m ? this.start(node) : undefined;
    const path = issue.path ? segments(issue.path) : [];
    for (const [i, segment] of path.entries()) {
      node = this.resolve(node);
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => this.keyText(p) === String(segment));
        if (pair === undefined) break;
        at = this.start(pair.key) ?? at;
        if (last && issue.keyword !== 'additionalProperties') at = this.start(pair.value) ?? at;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        at = this.start(node) ?? at;
      } else break;
    }
    return at === undefined ? undefined : this.position(at);
  }

  private resolve(node: unknown): unknown {
    return this.yaml.isAlias(node) ? node.resolve(this.doc) : node;
  }

  private keyText(pair: Pair): string | undefined {
    return this.yaml.isScalar(pair.key) ? String(pair.key.value) : undefined;
  }

  private start(node: unknown): number | undefined {
    return this.yaml.isNode(node) ? ((node as Node).range?.[0] ?? undefined) : undefined;
  }

  private position(offset: number): Position {
    const { line, col } = this.lines.linePos(offset);
    return { line, col };
  }
}
