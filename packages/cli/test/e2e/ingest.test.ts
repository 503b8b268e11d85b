import { existsSync } from 'node:fs';
import { rm, truncate, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JPEG_HEAD, makeDocx, makePdf, PNG_1X1, writeTree } from '@kis/test-support';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  emulator,
  emulatorAndFolder,
  envFor,
  jsonLines,
  kis,
  type Recorder,
  recordingProxy,
} from '../helpers/cli.js';

const ctx = emulatorAndFolder('kis-ingest-', (work) =>
  writeTree(join(work, 'docs'), {
    'notes.txt': 'plain text notes',
    'guide/intro.md': '# Intro\n\nWelcome to the guide.',
    'page.html':
      '<html><head><title>Release notes</title></head><body><h1>v2</h1><p>New things</p></body></html>',
    'report.pdf': makePdf('Quarterly revenue grew', 'Q3 report'),
    'letter.docx': makeDocx(['Dear team,', 'Thanks for the work.']),
    'people.csv': 'name,city\nAda,London\nGrace,Arlington\n',
    'data.json': '{"project":"kis","tags":["a","b"]}',
    'diagram.png': PNG_1X1,
    'photo.jpg': JPEG_HEAD,
    'broken.pdf': makePdf('never read').subarray(0, 80),
    'bad.json': '{"a": 1,,}',
    'tool.exe': 'MZ not supported',
    '.hidden.md': 'hidden file',
  }),
);

beforeEach(async () => {
  ctx.emu.state.reset();
  // the pairs' journals of earlier tests (pair 1's too, kept by runs without --cc-pair, in the
  // folder they ran in): the reset emulator reuses their pair ids
  await rm(join(ctx.work, '.kis'), { recursive: true, force: true });
  await rm(join(ctx.work, 'docs', '.kis'), { recursive: true, force: true });
});

/**
 * Creates a file connector with `kis` and returns its cc pair id (with the `file_locations`
 * deployed servers require of a file connector).
 */
async function filePair(name = 'files'): Promise<number> {
  const config = '{"file_locations": []}';
  const r = await kis(
    ['--json', 'connector', 'create', '--name', name, '--source', 'file', '--config', config],
    {
      env: ctx.env,
      cwd: ctx.work,
    },
  );
  expect(r.code).toBe(0);
  const [created] = jsonLines(r.stdout);
  return created?.cc_pair_id as number;
}

const GOOD = [
  'docs/data.json',
  'docs/diagram.png',
  'docs/guide/intro.md',
  'docs/letter.docx',
  'docs/notes.txt',
  'docs/page.html',
  'docs/people.csv',
  'docs/photo.jpg',
  'docs/report.pdf',
];

describe('kis ingest (files and folders)', () => {
  it('turns every supported file into one document, with extracted text and metadata', async () => {
    const pair = await filePair();
    const r = await kis(['--json', 'ingest', 'docs', '--cc-pair', String(pair)], {
      env: ctx.env,
      cwd: ctx.work,
    });
    expect(r.code).toBe(1); // two corrupt files
    const lines = jsonLines(r.stdout);
    const summary = lines.at(-1)?.summary as Record<string, unknown>;
    expect(summary).toMatchObject({ created: 9, updated: 0, failed: 2, skipped: 0, ignored: 2 });
    expect(summary.ignored_by_reason).toEqual({
      'hidden file (its name starts with ".")': 1,
      'unsupported file type .exe': 1,
    });
    const results = lines.slice(0, -1);
    expect(
      results
        .filter((l) => l.status === 'created')
        .map((l) => l.ref)
        .sort(),
    ).toEqual(GOOD);
    const failed = results
      .filter((l) => l.status === 'failed')
      .sort((a, b) => String(a.ref).localeCompare(String(b.ref)));
    expect(failed).toEqual([
      expect.objectContaining({
        ref: 'docs/bad.json',
        error: expect.stringMatching(/invalid JSON at line 1, column 9/),
      }),
      expect.objectContaining({
        ref: 'docs/broken.pdf',
        error: expect.stringMatching(/^not a valid PDF/),
      }),
    ]);
    expect(results.filter((l) => l.status === 'ignored').map((l) => l.ref)).toEqual([
      'docs/.hidden.md',
      'docs/tool.exe',
    ]);

    const docs = ctx.emu.state.documents({ limit: -1 });
    expect(docs.map((d) => d.id).sort()).toEqual(GOOD.map((k) => k.replaceAll('/', '%2F')).sort());
    for (const d of docs) expect(d.cc_pair_ids).toEqual([pair]);

    const html = ctx.emu.state.document('docs%2Fpage.html');
    expect(html).toMatchObject({
      semantic_identifier: 'Release notes',
      title: 'Release notes',
      source: 'file',
    });
    expect(html?.metadata).toEqual({ file_type: 'html', relative_path: 'docs/page.html' });
    expect(JSON.stringify(html?.sections)).toContain('New things');

    const pdf = ctx.emu.state.document('docs%2Freport.pdf');
    expect(pdf).toMatchObject({ semantic_identifier: 'Q3 report', title: 'Q3 report' });
    expect(pdf?.sections).toEqual([expect.objectContaining({ text: 'Quarterly revenue grew' })]);
    expect(ctx.emu.state.document('docs%2Fletter.docx')?.sections).toEqual([
      expect.objectContaining({ text: 'Dear team,\n\nThanks for the work.' }),
    ]);
    expect(ctx.emu.state.document('docs%2Fpeople.csv')?.sections).toEqual([
      expect.objectContaining({ text: 'name: Ada\ncity: London\n\nname: Grace\ncity: Arlington' }),
    ]);
    expect(ctx.emu.state.document('docs%2Fguide%2Fintro.md')).toMatchObject({
      semantic_identifier: 'intro.md',
      metadata: { file_type: 'md', relative_path: 'docs/guide/intro.md' },
    });

    // Images were uploaded first and became image sections pointing at the uploaded files.
    const files = ctx.emu.state.files();
    expect(files.map((f) => f.name).sort()).toEqual(['diagram.png', 'photo.jpg']);
    const png = ctx.emu.state.document('docs%2Fdiagram.png');
    const pngFile = files.find((f) => f.name === 'diagram.png');
    expect(png?.sections).toEqual([expect.objectContaining({ image_file_id: pngFile?.file_id })]);
    expect(png?.metadata).toEqual({ file_type: 'png', relative_path: 'docs/diagram.png' });
  });

  it("keeps the pair's journal: a re-run skips what is unchanged; --no-journal updates all", async () => {
    const pair = await filePair();
    const args = ['--json', 'ingest', 'docs', '--cc-pair', String(pair), '--exclude', 'b*'];
    const first = await kis(args, { env: ctx.env, cwd: ctx.work });
    expect(first.code).toBe(0);
    const summary = jsonLines(first.stdout).at(-1)?.summary as Record<string, unknown>;
    expect(summary).toMatchObject({ created: 9, updated: 0, failed: 0 });
    // the journal kis sync keeps for this server and pair
    const server = ctx.emu.baseUrl.replace(/^http:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_');
    expect(summary.journal).toBe(join(ctx.work, '.kis', 'sync', `${server}-pair-${pair}.jsonl`));
    const second = await kis(args, { env: ctx.env, cwd: ctx.work });
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout).at(-1)?.summary).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 9,
    });
    // stable ids: sent again, the documents are updated, not duplicated
    const third = await kis([...args, '--no-journal'], { env: ctx.env, cwd: ctx.work });
    expect(third.code).toBe(0);
    const last = jsonLines(third.stdout).at(-1)?.summary as Record<string, unknown>;
    expect(last).toMatchObject({ created: 0, updated: 9, failed: 0 });
    expect(last).not.toHaveProperty('journal');
    expect(ctx.emu.state.documents({ limit: -1 })).toHaveLength(9);
  });

  it('sends exactly {document, cc_pair_id} to POST /svc-api/ingestion', async () => {
    const pair = await filePair();
    const proxy: Recorder = await recordingProxy(ctx.emu);
    try {
      const r = await kis(
        ['ingest', 'docs/notes.txt', '--cc-pair', String(pair), '--source', 'web'],
        {
          env: { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY },
          cwd: ctx.work,
        },
      );
      expect(r.code).toBe(0);
      const posts = proxy.requests.filter((q) => q.method === 'POST');
      expect(posts).toHaveLength(1);
      const [post] = posts;
      expect(post?.path).toBe('/api/svc-api/ingestion');
      expect(post?.contentType).toContain('application/json');
      expect(post?.headers.authorization).toBe(`Bearer ${ADMIN_KEY}`);
      expect(post?.json).toEqual({
        document: {
          // a file given alone is its name
          id: 'notes.txt',
          semantic_identifier: 'notes.txt',
          sections: [{ text: 'plain text notes' }],
          source: 'web',
          metadata: { file_type: 'txt', relative_path: 'notes.txt' },
          doc_updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
        cc_pair_id: pair,
      });
    } finally {
      await proxy.close();
    }
  });

  it('honours --include, --exclude and --base-dir', async () => {
    const r = await kis(
      [
        '--json',
        'ingest',
        '.',
        '--include',
        '*.md',
        '--include',
        '*.txt',
        '--exclude',
        'guide/**',
        '--base-dir',
        '.',
      ],
      { env: ctx.env, cwd: join(ctx.work, 'docs') },
    );
    expect(r.code).toBe(0);
    expect(ctx.emu.state.documents({ limit: -1 }).map((d) => d.id)).toEqual(['notes.txt']);
  });

  it('validates and extracts everything with --dry-run, sending nothing (no server needed)', async () => {
    const r = await kis(['--json', 'ingest', 'docs', '--dry-run'], { env: {}, cwd: ctx.work });
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines.at(-1)?.summary).toMatchObject({ valid: 9, failed: 2, ignored: 2, dry_run: true });
    expect(lines.filter((l) => l.status === 'valid')).toHaveLength(9);
    expect(ctx.emu.state.documents({ limit: -1 })).toHaveLength(0);
  });

  it('prints a human summary listing every failure with its file', async () => {
    const r = await kis(['ingest', 'docs'], { env: ctx.env, cwd: ctx.work });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Done: 9 document\(s\) ingested into cc pair 1 in .* \(.*\/s\)/);
    expect(r.stdout).toMatch(/\s9 created/);
    expect(r.stdout).toMatch(/\s0 skipped \(already acknowledged, from the journal\)/);
    expect(r.stdout).toMatch(/\s2 failed/);
    expect(r.stdout).toMatch(/\s2 ignored \(found in directories, not sent\):\n +1 hidden file/);
    expect(r.stdout).toContain('Failures:\n');
    expect(r.stdout).toMatch(/ {2}docs\/bad\.json: invalid JSON at line 1, column 9/);
    expect(r.stdout).toMatch(/ {2}docs\/broken\.pdf: not a valid PDF/);
  });

  it('reports an unreadable file and goes on', async () => {
    if (process.getuid?.() === 0) return; // root can read anything
    const locked = join(ctx.work, 'locked.txt');
    await writeFile(locked, 'secret', { mode: 0o000 });
    const r = await kis(['--json', 'ingest', 'locked.txt', 'docs/notes.txt'], {
      env: ctx.env,
      cwd: ctx.work,
    });
    expect(r.code).toBe(1);
    expect(jsonLines(r.stdout)).toContainEqual(
      expect.objectContaining({
        ref: 'locked.txt',
        status: 'failed',
        error: 'cannot read file: permission denied',
      }),
    );
    await rm(locked, { force: true });
  });
});

describe('kis ingest ids', () => {
  // no journal: every run sends, and the summary says which ids the server had already
  const ingest = async (path: string, cwd: string, ...extra: string[]) => {
    const r = await kis(['--json', 'ingest', path, '--exclude', 'b*', '--no-journal', ...extra], {
      env: ctx.env,
      cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    return jsonLines(r.stdout).at(-1)?.summary as Record<string, unknown>;
  };

  it('are the same wherever the command runs: from the parent, inside the folder, from elsewhere', async () => {
    expect(await ingest('docs', ctx.work)).toMatchObject({ created: 9, updated: 0 });
    expect(await ingest('.', join(ctx.work, 'docs'))).toMatchObject({ created: 0, updated: 9 });
    expect(await ingest(join(ctx.work, 'docs'), tmpdir())).toMatchObject({
      created: 0,
      updated: 9,
    });
    const docs = ctx.emu.state.documents({ limit: -1 });
    expect(docs.map((d) => d.id).sort()).toEqual(GOOD.map((k) => k.replaceAll('/', '%2F')).sort());
    // relative_path is the id's path: never an absolute one
    for (const { id } of docs) {
      expect(ctx.emu.state.document(id)?.metadata?.relative_path).toBe(decodeURIComponent(id));
    }
  });

  it('are paths relative to --base-dir with it: --base-dir . keeps the ids of earlier versions', async () => {
    expect(await ingest('.', join(ctx.work, 'docs'), '--base-dir', '.')).toMatchObject({
      created: 9,
    });
    expect(await ingest('guide', join(ctx.work, 'docs'), '--base-dir', '.')).toMatchObject({
      updated: 1,
    });
    expect(await ingest('docs', ctx.work, '--base-dir', 'docs')).toMatchObject({ updated: 9 });
    const ids = ctx.emu.state.documents({ limit: -1 }).map((d) => decodeURIComponent(d.id));
    expect(ids.sort()).toEqual(GOOD.map((k) => k.slice('docs/'.length)).sort());
    expect(ctx.emu.state.document('guide%2Fintro.md')?.metadata?.relative_path).toBe(
      'guide/intro.md',
    );
  });

  it('refuses two folders of the same name in one line, sending nothing', async () => {
    await writeTree(join(ctx.work, 'elsewhere', 'docs'), { 'x.txt': 'x' });
    const r = await kis(['ingest', 'docs', 'elsewhere/docs'], { env: ctx.env, cwd: ctx.work });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: PATH: "${join(ctx.work, 'docs')}" and "${join(ctx.work, 'elsewhere', 'docs')}" are both named "docs", so their files would get the same document ids; give them one at a time, or --base-dir DIR to make ids relative to DIR\n`,
    );
    expect(r.stdout).toBe('');
    expect(ctx.emu.state.documents({ limit: -1 })).toHaveLength(0);
    const based = await ingest('docs', ctx.work, 'elsewhere/docs', '--base-dir', '.');
    expect(based).toMatchObject({ created: 10 });
    expect(ctx.emu.state.document('elsewhere%2Fdocs%2Fx.txt')).toBeDefined();
  });
});

describe('kis ingest --dry-run on a folder', () => {
  it('counts documents by file kind and what it would ignore, by reason', async () => {
    const dir = join(ctx.work, 'mixed');
    await writeTree(dir, {
      'a.md': '# A',
      'b.md': '# B',
      'c.mdx': '# C\n\n<Note>c</Note>\n',
      'd.pdf': makePdf('d'),
      'e.txt': 'e',
      'f.log': 'f',
      'g.png': PNG_1X1,
      'bad.json': '{',
      'tool.exe': 'MZ',
      'archive.zip': 'PK',
      Makefile: 'all:',
      '.env': 'SECRET=1',
      '.cache/x.md': 'x',
    });
    // a file over the 100 MiB limit, sparse: nothing is written
    await writeFile(join(dir, 'huge.pdf'), '');
    await truncate(join(dir, 'huge.pdf'), 101 * 1024 * 1024);
    const r = await kis(['--json', 'ingest', 'mixed', '--dry-run'], { env: {}, cwd: ctx.work });
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    const summary = lines.at(-1)?.summary as Record<string, unknown>;
    expect(summary).toMatchObject({ valid: 7, failed: 2, ignored: 5, dry_run: true });
    expect(summary.by_kind).toEqual({
      markdown: { valid: 2, failed: 0 },
      pdf: { valid: 1, failed: 1 },
      text: { valid: 2, failed: 0 },
      image: { valid: 1, failed: 0 },
      json: { valid: 0, failed: 1 },
      mdx: { valid: 1, failed: 0 },
    });
    expect(summary.ignored_by_reason).toEqual({
      'hidden directory (its name starts with "."), not walked': 1,
      'hidden file (its name starts with ".")': 1,
      'unsupported file type (no extension)': 1,
      'unsupported file type .exe': 1,
      'unsupported file type .zip': 1,
    });
    expect(lines).toContainEqual({
      ref: 'mixed/huge.pdf',
      status: 'failed',
      error: 'file too large: 101 MiB, over the 100 MiB limit of extraction',
    });
    expect(lines).toContainEqual({
      ref: 'mixed/.env',
      status: 'ignored',
      reason: 'hidden file (its name starts with ".")',
    });

    const text = await kis(['ingest', 'mixed', '--dry-run'], { env: {}, cwd: ctx.work });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Dry run: 7 document\(s\) valid, 2 failed, 5 ignored, in /m);
    const tail = text.stdout.slice(text.stdout.indexOf('By kind:')).trimEnd().split('\n');
    expect(tail.slice(0, -2)).toEqual([
      'By kind:',
      '      2 markdown',
      '      2 pdf (1 would fail)',
      '      2 text',
      '      1 image',
      '      1 json (1 would fail)',
      '      1 mdx',
      '      5 ignored (found in directories, not sent):',
      '        1 hidden directory (its name starts with "."), not walked',
      '        1 hidden file (its name starts with ".")',
      '        1 unsupported file type (no extension)',
      '        1 unsupported file type .exe',
      '        1 unsupported file type .zip',
      'Failures:',
    ]);
    expect(tail.slice(-2).sort()).toEqual([
      expect.stringMatching(/^ {2}mixed\/bad\.json: invalid JSON/),
      '  mixed/huge.pdf: file too large: 101 MiB, over the 100 MiB limit of extraction',
    ]);
  });
});

describe('kis ingest (JSONL)', () => {
  const jsonl = [
    JSON.stringify({
      id: 'doc-1',
      semantic_identifier: 'One',
      sections: [{ text: 'one' }],
      source: 'web',
      metadata: {},
    }),
    '',
    '{"id": "doc-2", "semantic_identifier": ',
    JSON.stringify({
      document: {
        id: 'doc-3',
        semantic_identifier: 'Three',
        sections: [{ text: '3' }],
        metadata: { k: 'v' },
      },
      cc_pair_id: 1,
    }),
    JSON.stringify([1, 2]),
    JSON.stringify({ semantic_identifier: 'No id here', sections: [{ text: 'x' }], metadata: {} }),
    JSON.stringify({
      id: 'doc-bad',
      semantic_identifier: 5,
      sections: [{ text: 'x' }],
      metadata: {},
    }),
  ].join('\n');

  it('ingests documents and full requests from a .jsonl file, naming bad lines by number', async () => {
    await writeFile(join(ctx.work, 'export.jsonl'), `${jsonl}\n`);
    const pair = await filePair('jsonl');
    const r = await kis(['--json', 'ingest', 'export.jsonl', '--cc-pair', String(pair)], {
      env: ctx.env,
      cwd: ctx.work,
    });
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines.at(-1)?.summary).toMatchObject({ created: 3, failed: 3 });
    const failed = Object.fromEntries(
      lines.filter((l) => l.status === 'failed').map((l) => [l.ref, l.error as string]),
    );
    expect(Object.keys(failed).sort()).toEqual([
      'export.jsonl:3',
      'export.jsonl:5',
      'export.jsonl:7',
    ]);
    expect(failed['export.jsonl:3']).toMatch(/^invalid JSON at column \d+/);
    expect(failed['export.jsonl:5']).toMatch(/expected a JSON object .* got an array/);
    expect(failed['export.jsonl:7']).toMatch(/semantic_identifier: must be string/);

    const docs = Object.fromEntries(ctx.emu.state.documents({ limit: -1 }).map((d) => [d.id, d]));
    expect(Object.keys(docs).sort()).toEqual(['doc-1', 'doc-3', 'ingestion_api_No_id_here']);
    expect(docs['doc-1']?.cc_pair_ids).toEqual([pair]);
    // a full request's own cc_pair_id wins over --cc-pair
    expect(docs['doc-3']?.cc_pair_ids).toEqual([1]);
  });

  it('names every cc pair the documents went to in the text summary', async () => {
    await writeFile(join(ctx.work, 'pairs.jsonl'), `${jsonl}\n`);
    const pair = await filePair('jsonl-text');
    const r = await kis(['ingest', 'pairs.jsonl', '--cc-pair', String(pair)], {
      env: ctx.env,
      cwd: ctx.work,
    });
    expect(r.code).toBe(1);
    const [a, b] = [1, pair].sort((x, y) => x - y);
    expect(r.stdout).toMatch(
      new RegExp(`Done: 3 document\\(s\\) ingested into cc pairs ${a} and ${b} in `),
    );
  });

  it('reads JSONL from stdin with "-"', async () => {
    const r = await kis(['--json', 'ingest', '-', '--source', 'web'], {
      env: ctx.env,
      cwd: ctx.work,
      input: `${JSON.stringify({ id: 's-1', semantic_identifier: 'S', sections: [{ text: 's' }], metadata: {} })}\n{oops\n`,
    });
    expect(r.code).toBe(1);
    const lines = jsonLines(r.stdout);
    expect(lines).toContainEqual(
      expect.objectContaining({ ref: 'stdin:1', status: 'created', document_id: 's-1' }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ ref: 'stdin:2', status: 'failed' }));
    expect(ctx.emu.state.document('s-1')?.source).toBe('web');
  });
});

describe('kis ingest progress', () => {
  it('prints plain progress lines on stderr when stderr is not a terminal', async () => {
    const slow = await emulator({ latencyMs: 250 });
    try {
      const dir = join(ctx.work, 'slow');
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) files[`f${i}.txt`] = `file ${i}`;
      await writeTree(dir, files);
      const r = await kis(['ingest', 'slow', '--concurrency', '1'], {
        env: envFor(slow),
        cwd: ctx.work,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^ingesting: \d+\/12 \| [\d.]+\/s \| ETA .* \| failed 0$/m);
      expect(r.stdout).toMatch(/12 created/);
    } finally {
      await slow.close();
    }
  });

  it('prints no progress with --quiet', async () => {
    const r = await kis(['--quiet', 'ingest', 'docs/notes.txt'], { env: ctx.env, cwd: ctx.work });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

/** A server that answers every request 503 with a JSON body (an overloaded service). */
async function busyServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{"detail":"busy"}');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('kis ingest (the client runs it)', () => {
  it('prints each document id in a dry run, with no server and no key', async () => {
    await writeFile(
      join(ctx.work, 'ids.jsonl'),
      `${JSON.stringify({ semantic_identifier: 'No id here', sections: [{ text: 'x' }], metadata: {} })}\n`,
    );
    const r = await kis(['ingest', 'docs', 'ids.jsonl', '--exclude', 'b*', '--dry-run'], {
      env: {},
      cwd: ctx.work,
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    for (const ref of GOOD) expect(lines).toContain(`${ref}\t${ref.replaceAll('/', '%2F')}`);
    expect(lines).toContain('ids.jsonl:1\tingestion_api_No_id_here');
    expect(r.stdout).toMatch(/^Dry run: 10 document\(s\) valid, 0 failed, 2 ignored, in /m);
    expect(r.stdout).toMatch(/^By kind:\n(?: +\d+ \w+\n)*? +1 jsonl\n/m);
    expect(ctx.emu.state.files()).toHaveLength(0);
  });

  it('skips everything on a journal re-run, image documents included, and uploads nothing again', async () => {
    const journal = join(ctx.work, 'rerun', 'journal.jsonl');
    const args = ['ingest', 'docs', '--exclude', 'b*', '--journal', journal];
    const first = await kis(args, { env: ctx.env, cwd: ctx.work });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^ +9 created$/m);
    expect(ctx.emu.state.files()).toHaveLength(2);
    const proxy = await recordingProxy(ctx.emu);
    try {
      const second = await kis(args, {
        env: { KIS_BASE_URL: proxy.baseUrl, KIS_API_KEY: ADMIN_KEY },
        cwd: ctx.work,
      });
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/^Done: 0 document\(s\) ingested into /m);
      expect(second.stdout).toMatch(/^ +9 skipped \(already acknowledged, from the journal\)$/m);
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
    expect(ctx.emu.state.files()).toHaveLength(2);
    // the uploads are recorded in the journal itself: no side file
    expect(existsSync(`${journal}.uploads`)).toBe(false);
  });

  it('shows the concurrency, retries and pauses in the summary', async () => {
    const text = await kis(['ingest', 'docs', '--exclude', 'b*'], { env: ctx.env, cwd: ctx.work });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ +0 retries$/m);
    expect(text.stdout).toMatch(/^Concurrency: \d+ at the end \(lowest \d+, highest \d+\)$/m);
    const json = await kis(
      [
        ...['--json', 'ingest', 'docs', '--exclude', 'b*', '--no-journal'],
        ...['--concurrency', '4', '--fixed-concurrency'],
      ],
      { env: ctx.env, cwd: ctx.work },
    );
    expect(json.code).toBe(0);
    const summary = jsonLines(json.stdout).at(-1)?.summary as Record<string, unknown>;
    expect(summary).toMatchObject({
      updated: 9,
      concurrency: { final: 4, min: 4, max: 4 },
      retried: 0,
      hedged: 0,
      paused_ms: 0,
      interrupted: false,
    });
    expect(summary).not.toHaveProperty('stopped');
  });

  it('takes --retry-for and --max-outage as durations, refusing bad values naming the flag', async () => {
    for (const [flag, value] of [
      ['--retry-for', '10'],
      ['--retry-for', 'soon'],
      ['--max-outage', '5 min'],
    ] as const) {
      const r = await kis(['ingest', 'docs/notes.txt', flag, value], {
        env: ctx.env,
        cwd: ctx.work,
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `error: option '${flag} <duration>' argument '${value}' is invalid. expected a duration such as 90s, 10m or 1h30m.`,
      ]);
    }
  });

  it('refuses a --min-concurrency above --concurrency or with --fixed-concurrency', async () => {
    const usage = async (args: string[]) =>
      (
        await kis(['ingest', 'docs/notes.txt', ...args], { env: ctx.env, cwd: ctx.work })
      ).stderr.trimEnd();
    expect(await usage(['--concurrency', '8', '--min-concurrency', '16'])).toBe(
      'error: --min-concurrency: 16 is above --concurrency 8',
    );
    expect(await usage(['--min-concurrency', '2', '--fixed-concurrency'])).toMatch(
      /^error: --min-concurrency: not with --fixed-concurrency/,
    );
  });

  it('gives a document up after --retry-for, and the run after --max-outage', async () => {
    const ok = await kis(
      ['--json', 'ingest', 'docs/notes.txt', '--retry-for', '90s', '--max-outage', '1m30s'],
      { env: ctx.env, cwd: ctx.work },
    );
    expect(ok.code).toBe(0);

    // against a server that answers 503 to everything: the document gives up after --retry-for…
    const busy = await busyServer();
    try {
      const busyEnv = { KIS_BASE_URL: busy.baseUrl, KIS_API_KEY: ADMIN_KEY };
      const gaveUp = await kis(['--json', 'ingest', 'docs/notes.txt', '--retry-for', '1500ms'], {
        env: busyEnv,
        cwd: ctx.work,
      });
      expect(gaveUp.code).toBe(1);
      expect(jsonLines(gaveUp.stdout)[0]).toMatchObject({
        ref: 'notes.txt',
        status: 'failed',
        error: expect.stringMatching(/retry budget 2 s/),
      });
      // …and the run, paused after 5 s of nothing succeeding, stops after --max-outage (exit 3)
      const outage = await kis(
        ['--json', 'ingest', 'docs/notes.txt', 'docs/guide/intro.md', '--max-outage', '1s'],
        { env: busyEnv, cwd: ctx.work },
      );
      expect(outage.code).toBe(3);
      expect(jsonLines(outage.stdout).at(-1)?.summary).toMatchObject({
        stopped: { reason: 'outage', message: expect.stringMatching(/has not answered/) },
      });
      expect(outage.stderr.trimEnd().split('\n').at(-1)).toMatch(
        /^error: the server has not answered successfully for more than /,
      );
    } finally {
      await busy.close();
    }
  }, 60_000);
});
