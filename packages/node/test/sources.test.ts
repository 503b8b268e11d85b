/**
 * The folder and JSONL sources of `@kis/node`: ids known before reading, fingerprints,
 * ownership, a bad file or line failing alone; and `kis.sync` over a folder end to end.
 */
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createKisClient, type IngestTools } from '@kis/client';
import { type Emulator, startEmulator } from '@kis/emulator';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  folderSource,
  jsonlSource,
  openJournal,
  SameNameError,
  type SourceItem,
  sync,
} from '../src/index.js';

const tools: IngestTools = {
  imageFileId: async () => 'file-1',
  signal: new AbortController().signal,
};

/** What a load gives: the document, or the reason it failed. */
async function loaded(item: SourceItem): Promise<unknown> {
  try {
    return item.document ?? (await item.load?.(tools));
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

async function collect<T>(source: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const x of source) all.push(x);
  return all;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-sources-'));
  await writeTree(dir, {
    'docs/a.md': '# A',
    'docs/sub/b.txt': 'B',
    'docs/bad.json': '{"x": ',
    'docs/skip.bin': 'binary',
    'notes/c.txt': 'C',
    'export.jsonl': [
      '{"id": "e1", "semantic_identifier": "E1", "sections": [{"text": "one"}]}',
      '',
      '[1, 2]',
      '{"document": {"semantic_identifier": "E3", "sections": []}, "cc_pair_id": 7}',
      '{"id": ',
    ].join('\n'),
  });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('folderSource', () => {
  it('yields each file with its id, ref and fingerprint before reading it', async () => {
    const ignored: string[] = [];
    const source = folderSource(['docs'], {
      baseDir: dir,
      onIgnored: (ref, reason) => ignored.push(`${ref}: ${reason}`),
    });
    const items = [...source];
    expect(items.map((i) => [i.ref, i.id])).toEqual([
      ['docs/a.md', 'docs/a.md'],
      ['docs/bad.json', 'docs/bad.json'],
      ['docs/sub/b.txt', 'docs/sub/b.txt'],
    ]);
    expect(ignored).toEqual(['docs/skip.bin: unsupported file type .bin']);
    expect(items.every((i) => /^\d+:[\d.]+:file:\d+$/.test(i.fingerprint ?? ''))).toBe(true);
    expect(source.count()).toBe(4); // the walk counts the ignored file too: nothing is read
    const [a, bad] = await Promise.all(items.slice(0, 2).map(loaded));
    expect(a).toMatchObject({
      id: 'docs/a.md',
      source: 'file',
      semantic_identifier: 'a.md',
      sections: [{ text: '# A' }],
      metadata: { file_type: 'md', relative_path: 'docs/a.md' },
    });
    // a bad file fails alone, with the reason
    expect(bad).toEqual({ failed: expect.stringMatching(/^invalid JSON at line 1, column 7/) });
  });

  it('owns the ids under its directories and its files, or its namespace', () => {
    const source = folderSource(['docs', 'notes/c.txt'], { baseDir: dir });
    expect(source.ownsEverything).toBe(false);
    expect(source.owns('docs%2Fgone.md')).toBe(true);
    expect(source.owns('notes%2Fc.txt')).toBe(true);
    expect(source.owns('notes%2Fother.txt')).toBe(false);
    expect(source.owns('elsewhere')).toBe(false);

    const namespaced = folderSource(['docs'], { baseDir: dir, idPrefix: 'wiki/' });
    expect([...namespaced][0]?.id).toBe('wiki/docs/a.md');
    expect(namespaced.owns('wiki%2Fanything')).toBe(true);
    expect(namespaced.owns('docs%2Fa.md')).toBe(false);

    const whole = folderSource(['.'], { baseDir: dir });
    expect(whole.ownsEverything).toBe(true);
    expect(whole.owns('anything')).toBe(true);
  });
});

describe('folderSource without a base directory', () => {
  const ids = (source: Iterable<SourceItem>) => [...source].map((i) => i.id);

  it("names a folder's files <folder name>/<path inside>, a file alone by its name, wherever it runs", async () => {
    const fromParent = folderSource([join(dir, 'docs')]);
    expect(fromParent.baseDir).toBeUndefined();
    expect(ids(fromParent)).toEqual(['docs/a.md', 'docs/bad.json', 'docs/sub/b.txt']);
    // the same folder reached another way: the same ids
    expect(ids(folderSource([join(dir, 'docs', 'sub', '..')]))).toEqual(ids(fromParent));
    expect(ids(folderSource([join(dir, 'docs', 'sub', 'b.txt')]))).toEqual(['b.txt']);
    const [a] = [...fromParent];
    // relative_path is the id's path, never an absolute one
    expect(await loaded(a as SourceItem)).toMatchObject({
      id: 'docs/a.md',
      metadata: { relative_path: 'docs/a.md' },
    });
  });

  it("owns what is under each folder's name, never every id", () => {
    const source = folderSource([join(dir, 'docs'), join(dir, 'notes', 'c.txt')]);
    expect(source.ownsEverything).toBe(false);
    expect(source.owns('docs%2Fgone.md')).toBe(true);
    expect(source.owns('c.txt')).toBe(true);
    expect(source.owns('notes%2Fc.txt')).toBe(false);
    expect(source.owns('other%2Fx.md')).toBe(false);
  });

  it('refuses two paths of the same name, naming both', async () => {
    const other = await mkdtemp(join(tmpdir(), 'kis-same-name-'));
    try {
      await writeTree(other, { 'docs/z.md': 'z' });
      const both = () => folderSource([join(dir, 'docs'), join(other, 'docs')]);
      expect(both).toThrow(SameNameError);
      expect(both).toThrow(
        `"${join(dir, 'docs')}" and "${join(other, 'docs')}" would give their files the same document ids (both are named "docs")`,
      );
      // the same folder twice is not a clash
      expect(ids(folderSource([join(dir, 'docs'), join(dir, 'docs')]))).toHaveLength(3);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('tells onIgnored about hidden entries and unsupported types, with why', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kis-hidden-'));
    try {
      await writeTree(root, {
        'kb/a.md': 'a',
        'kb/.draft.md': 'draft',
        'kb/.git/HEAD': 'ref',
        'kb/tool.exe': 'MZ',
      });
      const ignored: string[] = [];
      const source = folderSource([join(root, 'kb')], {
        onIgnored: (ref, reason) => ignored.push(`${ref}: ${reason}`),
      });
      expect(ids(source)).toEqual(['kb/a.md']);
      expect(ignored).toEqual([
        'kb/.draft.md: hidden file (its name starts with ".")',
        'kb/.git: hidden directory (its name starts with "."), not walked',
        'kb/tool.exe: unsupported file type .exe',
      ]);
      expect(source.count()).toBe(4);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('gives each file its path', () => {
    const items = [...folderSource([join(dir, 'docs')], { include: ['*.md', '*.txt'] })];
    expect(items.map((i) => [i.ref, i.id, i.path])).toEqual([
      ['docs/a.md', 'docs/a.md', join(dir, 'docs/a.md')],
      ['docs/sub/b.txt', 'docs/sub/b.txt', join(dir, 'docs/sub/b.txt')],
    ]);
  });

  it('keyPrefix puts a name before each key: the ids of the folder read as its own base', async () => {
    const source = folderSource(['a.md', 'sub'], {
      baseDir: join(dir, 'docs'),
      keyPrefix: 'docs/',
    });
    const items = [...source];
    expect(items.map((i) => [i.ref, i.id])).toEqual([
      ['docs/a.md', 'docs/a.md'],
      ['docs/sub/b.txt', 'docs/sub/b.txt'],
    ]);
    expect(await loaded(items[0] as SourceItem)).toMatchObject({
      id: 'docs/a.md',
      metadata: { relative_path: 'docs/a.md' },
    });
    expect(source.owns('docs%2Fsub%2Fgone.txt')).toBe(true);
    expect(source.owns('sub%2Fgone.txt')).toBe(false);
  });
});

describe('jsonlSource', () => {
  it('reads documents and ingestion requests; a bad line fails alone, with its line', async () => {
    const items = await collect(
      jsonlSource(join(dir, 'export.jsonl'), { name: 'export.jsonl', source: 'web' }),
    );
    expect(items.map((i) => i.ref)).toEqual([
      'export.jsonl:1',
      'export.jsonl:3',
      'export.jsonl:4',
      'export.jsonl:5',
    ]);
    expect(items[0]?.document).toMatchObject({ id: 'e1', source: 'web' });
    expect(await loaded(items[1] as SourceItem)).toEqual({
      failed: expect.stringMatching(/^expected a JSON object .*, got an array$/),
    });
    expect(items[2]?.ccPairId).toBe(7);
    expect(await loaded(items[3] as SourceItem)).toEqual({
      failed: 'invalid JSON at column 8: expected a value',
    });
  });

  it('reads a stream, puts ids under a namespace, and names a file it cannot read', async () => {
    const stream = Readable.from(['{"semantic_identifier": "S", "sections": []}\n']);
    const [item] = await collect(jsonlSource(stream, { idPrefix: 'crm/' }));
    expect(item?.ref).toBe('stdin:1');
    expect(item?.document?.id).toBe('crm/S');
    const missing = await collect(jsonlSource(join(dir, 'missing.jsonl'), { name: 'missing' }));
    expect(missing.map((i) => i.ref)).toEqual(['missing']);
    expect(await loaded(missing[0] as SourceItem)).toEqual({
      failed: 'cannot read: no such file or directory',
    });
  });
});

describe('JSONL lines and the journal', () => {
  const lines = (texts: string[]) => Readable.from([`${texts.join('\n')}\n`]);
  const line = (id: string, text: string) =>
    JSON.stringify({ id, semantic_identifier: id, sections: [{ text }], metadata: {} });

  it('gives a line with an id its fingerprint: its text and the options that shape it', async () => {
    const texts = [line('a', 'one'), line('b', 'two')];
    const plain = await collect(jsonlSource(lines(texts)));
    expect(plain.map((i) => i.id)).toEqual(['a', 'b']);
    expect(plain[0]?.fingerprint).toMatch(/^line:[0-9a-f]+::$/);
    expect(plain[0]?.fingerprint).not.toBe(plain[1]?.fingerprint);
    expect((await collect(jsonlSource(lines(texts))))[0]?.fingerprint).toBe(plain[0]?.fingerprint);
    const [prefixed] = await collect(
      jsonlSource(lines(texts), { idPrefix: 'crm/', source: 'web' }),
    );
    expect(prefixed?.id).toBe('crm/a');
    expect(prefixed?.fingerprint).toBe(`${plain[0]?.fingerprint?.slice(0, -2)}:web:crm/`);
    const [noId] = await collect(jsonlSource(lines(['{"semantic_identifier":"S","sections":[]}'])));
    expect(noId?.fingerprint).toBeUndefined();
  });

  it('a re-run skips unchanged lines unread and sends a changed one', async () => {
    const emulator = await startEmulator({ port: 0, dbPath: ':memory:' });
    const root = await mkdtemp(join(tmpdir(), 'kis-jsonl-resume-'));
    try {
      const kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
      });
      const journal = openJournal(join(root, 'journal.jsonl'), { fsync: false });
      const texts = [line('a', 'one'), line('b', 'two'), line('c', 'three')];
      const first = await kis.ingestMany(jsonlSource(lines(texts)), { journal }).done();
      expect(first).toMatchObject({ created: 3, failed: 0 });
      journal.close(); // a new process: the journal reads what the first run acknowledged
      const reopened = openJournal(join(root, 'journal.jsonl'), { fsync: false });
      texts[1] = line('b', 'two, edited');
      let hashed = 0;
      const counting = {
        has: (id: string, hash: string) => {
          hashed++;
          return reopened.has(id, hash);
        },
        hasFingerprint: reopened.hasFingerprint.bind(reopened),
        record: reopened.record.bind(reopened),
      };
      const results: string[] = [];
      const again = await kis
        .ingestMany(jsonlSource(lines(texts)), {
          journal: counting,
          onResult: (r) => results.push(`${r.documentId} ${r.status}`),
        })
        .done();
      expect(again).toMatchObject({ skipped: 2, updated: 1, failed: 0 });
      expect(results.sort()).toEqual(['a skipped', 'b updated', 'c skipped']);
      expect(hashed).toBe(1); // the unchanged lines were neither built nor hashed
      reopened.close();
    } finally {
      await emulator.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

for (const profile of ['seed', 'deployed'] as const) {
  describe(`sync over a folder (${profile} profile)`, () => {
    let emulator: Emulator;
    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, dbPath: ':memory:', profile });
    });
    afterAll(async () => {
      await emulator?.close();
    });

    it('sends only what changed on disk, prunes what was deleted, reads no unchanged file', async () => {
      const root = await mkdtemp(join(tmpdir(), 'kis-folder-sync-'));
      await writeTree(root, { 'kb/one.md': '1', 'kb/two.md': '2', 'kb/three.md': '3' });
      const kis = createKisClient({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.adminKey,
        logLevel: 'off',
      });
      const { ccPairId } = await kis.setupConnector({
        connector: {
          name: `Folder ${profile}`,
          source: 'file',
          input_type: 'load_state',
          access_type: 'public',
          connector_specific_config: { file_locations: [] },
        },
      });
      const journal = openJournal(join(root, 'journal.jsonl'), { fsync: false });
      const syncOnce = async () => {
        const source = folderSource(['kb'], { baseDir: root });
        const loads: string[] = [];
        const items = [...source].map((item) => ({
          ...item,
          load: (t: IngestTools) => {
            loads.push(item.ref);
            return item.load!(t);
          },
        }));
        const session = await sync(kis, items, {
          ccPairId: ccPairId as number,
          owns: source.owns,
          prune: true,
          journal,
        });
        const summary = await session.run().done();
        return { plan: session.plan, summary, loads };
      };
      const first = await syncOnce();
      expect(first.summary).toMatchObject({ created: 3, failed: 0 });

      await writeFile(join(root, 'kb/two.md'), '2, edited');
      await unlink(join(root, 'kb/three.md'));
      const second = await syncOnce();
      expect(second.plan.unchanged.map((e) => e.documentId)).toEqual(['kb%2Fone.md']);
      expect(second.plan.update.map((e) => e.documentId)).toEqual(['kb%2Ftwo.md']);
      expect(second.plan.delete.map((e) => e.documentId)).toEqual(['kb%2Fthree.md']);
      expect(second.loads).toEqual(['kb/two.md']); // the unchanged file was never read
      expect(second.summary).toMatchObject({ updated: 1, deleted: 1, failed: 0 });
      const stored = await kis.ingestion.listConnectorDocuments(ccPairId as number);
      expect(stored.map((d) => d.document_id).sort()).toEqual(['kb%2Fone.md', 'kb%2Ftwo.md']);
      journal.close();
      await rm(root, { recursive: true, force: true });
    });
  });
}
