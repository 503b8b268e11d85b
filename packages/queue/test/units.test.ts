import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConnection, redactUrl } from '../src/connection.js';
import { jobDataProblem, jobIdOf, runOfJobId } from '../src/job-data.js';
import { parseRate } from '../src/limits.js';
import { jsonlRanges } from '../src/plan/jsonl-ranges.js';
import { OverloadWatch } from '../src/worker/overload.js';
import { connectionMisfit, rootMisfit } from '../src/worker/root-fit.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('units');
afterAll(() => tmp.remove());

async function ranges(text: string | Buffer, batch: number) {
  const file = join(tmp.dir, `f-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, text);
  const out = [];
  for await (const r of jsonlRanges(file, batch)) out.push(r);
  return { out, bytes: typeof text === 'string' ? Buffer.from(text) : text };
}

describe('jsonlRanges', () => {
  it('cuts whole lines, skips blank ones, numbers lines as the reader does', async () => {
    const { out, bytes } = await ranges('{"a":1}\n\n  \n{"a":2}\r\n{"a":3}\n\n{"a":4}', 2);
    expect(out).toEqual([
      { offset: 0, length: 21, line: 1, count: 2 },
      { offset: 21, length: 16, line: 5, count: 2 },
    ]);
    const slice = (r: (typeof out)[number]) =>
      bytes.subarray(r.offset, r.offset + r.length).toString();
    expect(slice(out[0] as (typeof out)[number])).toBe('{"a":1}\n\n  \n{"a":2}\r\n');
    expect(slice(out[1] as (typeof out)[number])).toBe('{"a":3}\n\n{"a":4}');
  });

  it('reads lines that span chunks, and a BOM or NBSP line as blank', async () => {
    const long = `{"t":"${'x'.repeat(3 << 20)}"}`;
    const { out } = await ranges(`\uFEFF\n${long}\n\u00a0\n{"b":1}\n`, 1);
    expect(out.map((r) => [r.line, r.count])).toEqual([
      [2, 1],
      [4, 1],
    ]);
    expect(out[0]?.length).toBe(Buffer.byteLength(long) + 1);
  });

  it('gives nothing for an empty file', async () => {
    expect((await ranges('', 5)).out).toEqual([]);
    expect((await ranges('\n \n', 5)).out).toEqual([]);
  });
});

describe('rates', () => {
  it('parses per second, minute and hour', () => {
    expect(parseRate('50/s')).toBe(50);
    expect(parseRate('3000/min')).toBe(50);
    expect(parseRate('7200/h')).toBe(2);
    expect(parseRate(12)).toBe(12);
    expect(() => parseRate('fast')).toThrow(
      'rate must be requests per second, minute or hour such as 50/s, 3000/min or 100000/h (got "fast")',
    );
    expect(() => parseRate('0/s')).toThrow('rate must be above 0');
  });
});

describe('root fit', () => {
  const root = join(tmp.dir, 'root');
  mkdirSync(join(root, 'docs', 'a'), { recursive: true });
  writeFileSync(join(root, 'docs', 'a', 'kept.md'), '# kept');
  writeFileSync(join(root, 'top.jsonl'), '{}\n');
  const base = { v: 2 as const, run: 'r1', seq: 3, start: 0, count: 2 };

  it('fits a job whose files (or only their folders) are under the root', () => {
    const files = { ...base, kind: 'files' as const, paths: ['docs/a/kept.md', 'docs/a/gone.md'] };
    expect(rootMisfit(files, root)).toBeUndefined();
    // deleted since the enqueue: their folder is still there, so each fails alone
    expect(rootMisfit({ ...files, paths: ['docs/a/gone.md'] }, root)).toBeUndefined();
    expect(rootMisfit({ ...files, dir: 'docs', paths: ['a/kept.md'] }, root)).toBeUndefined();
    const jsonl = { ...base, kind: 'jsonl' as const, file: 'top.jsonl', name: 'top.jsonl' };
    expect(rootMisfit({ ...jsonl, offset: 0, length: 3, line: 1 }, root)).toBeUndefined();
    expect(rootMisfit({ ...base, kind: 'documents', documents: [] }, root)).toBeUndefined();
    const git = {
      ...base,
      v: 3 as const,
      kind: 'git' as const,
      commit: 'c',
      ref: 'main',
      idPrefix: 'x/',
      files: [],
    };
    expect(rootMisfit({ ...git, repo: 'docs' }, root)).toBeUndefined();
    expect(rootMisfit({ ...git, repo: 'handbook' }, root)).toBe(
      `root ${root} does not hold the repository handbook, which run r1 reads`,
    );
  });

  it('names an SQL connection the worker does not hold, never its string', () => {
    const sql = {
      ...base,
      v: 3 as const,
      kind: 'sql' as const,
      connection: 'crm',
      database: 'postgres://kis@db:5432/crm',
      mapping: { id: 'id', text: 'body' },
      after: null,
      upTo: 2,
    };
    expect(connectionMisfit(sql, { crm: 'postgres://kis:pw@db/crm' })).toBeUndefined();
    expect(connectionMisfit(sql, { erp: 'postgres://kis:pw@db/erp' })).toBe(
      'this worker holds no connection "crm" (postgres://kis@db:5432/crm), which run r1 reads; it holds "erp": start it with connections: { crm: <connection string> }',
    );
  });

  it('names a root that holds none of the files nor their folders', () => {
    const files = { ...base, kind: 'files' as const, paths: ['handbook/x.md', 'handbook/y.md'] };
    expect(rootMisfit(files, root)).toBe(
      `root ${root} holds none of the 2 file(s) job r1.3 names (such as handbook/x.md) nor their folders`,
    );
    const jsonl = { ...base, kind: 'jsonl' as const, file: 'other.jsonl', name: 'other.jsonl' };
    expect(rootMisfit({ ...jsonl, offset: 0, length: 3, line: 1 }, root)).toBe(
      `root ${root} does not hold other.jsonl, which run r1 reads`,
    );
  });
});

describe('overload', () => {
  it('trips on a refused majority, not on random faults', () => {
    const pauses: number[] = [];
    const watch = new OverloadWatch((ms) => pauses.push(ms));
    for (let i = 0; i < 200; i++) watch.observe(i % 10 === 0 ? 503 : 200, undefined, 0);
    expect(pauses).toEqual([]);
    // 12 of 20 refused: 60 %
    for (let i = 0; i < 20; i++) watch.observe(i % 5 < 3 ? 429 : 200, undefined, 1000);
    expect(pauses).toEqual([1000]);
    for (let i = 0; i < 10; i++) watch.observe(503, undefined, 2000);
    expect(pauses).toEqual([1000, 2000]);
    // a long quiet spell starts again from the first pause
    for (let i = 0; i < 10; i++) watch.observe(503, undefined, 60_000);
    expect(pauses).toEqual([1000, 2000, 1000]);
  });

  it('trips at once on a refusal asking to wait a second or more', () => {
    const pauses: number[] = [];
    const watch = new OverloadWatch((ms) => pauses.push(ms));
    watch.observe(429, 0, 0);
    expect(pauses).toEqual([]);
    watch.observe(429, 5000, 0);
    expect(pauses).toEqual([5000]);
  });
});

describe('job data and names', () => {
  it('names jobs by run and place', () => {
    expect(jobIdOf('r1-abc', 7)).toBe('r1-abc.7');
    expect(runOfJobId('r1-abc.7')).toBe('r1-abc');
    expect(runOfJobId('other')).toBeUndefined();
  });

  it('says what is wrong with job data', () => {
    expect(jobDataProblem(null)).toBe('job data is not an object');
    expect(jobDataProblem({ v: 4 })).toBe(
      'job data version 4 is not one this worker reads (1, 2 or 3): upgrade the worker',
    );
    const base = { v: 1, run: 'r', seq: 0, start: 0, count: 1 };
    expect(jobDataProblem({ ...base, kind: 'files', paths: ['a.md'] })).toBeUndefined();
    expect(
      jobDataProblem({ ...base, v: 2, kind: 'files', dir: 'a', keyPrefix: 'x/', paths: ['a.md'] }),
    ).toBeUndefined();
    expect(jobDataProblem({ ...base, v: 2, kind: 'files', dir: 3, paths: ['a.md'] })).toBe(
      'files job dir must be a string',
    );
    expect(jobDataProblem({ ...base, kind: 'files', paths: [] })).toBe(
      'files job must list `count` paths',
    );
    expect(jobDataProblem({ ...base, kind: 'zip' })).toBe('unknown job kind "zip"');
    const sql = {
      ...base,
      v: 3,
      kind: 'sql',
      connection: 'crm',
      database: 'postgres://kis@db/crm',
    };
    expect(
      jobDataProblem({ ...sql, mapping: { id: 'id', text: 'body' }, after: null, upTo: 10 }),
    ).toBeUndefined();
    expect(jobDataProblem({ ...sql, mapping: {}, after: null })).toBe(
      'sql job must give connection, database, mapping and a key range (after, upTo)',
    );
    const git = {
      ...base,
      v: 3,
      kind: 'git',
      repo: 'handbook',
      commit: 'c',
      ref: 'main',
      idPrefix: 'handbook/',
    };
    expect(jobDataProblem({ ...git, files: [{ path: 'a.md', blob: 'b' }] })).toBeUndefined();
    expect(jobDataProblem({ ...git, files: [] })).toBe(
      'git job must give repo, commit, ref, idPrefix and `count` files',
    );
  });

  it('checks Redis URLs and never shows their password', () => {
    expect(() => checkConnection('http://x')).toThrow(
      'connection must be a redis:// or rediss:// URL (got "http://x")',
    );
    expect(() => checkConnection('redis://:s3cret@host:6379/0')).not.toThrow();
    expect(redactUrl('redis://user:s3cret@host:6379/0')).toBe('redis://***@host:6379/0');
  });
});
