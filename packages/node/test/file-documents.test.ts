/**
 * Files of every kind as documents (what `kis ingest` sends): the file's title as title and
 * semantic identifier, its metadata merged under the file's own keys, one section per slide,
 * sheet or chapter; warnings heard; a corrupt file of each kind failing alone, in one line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestTools } from '@kis/client';
import {
  makeDocx,
  makeEpub,
  makePdf,
  makePptx,
  makeXlsx,
  makeZip,
  writeTree,
} from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource, type SourceItem } from '../src/index.js';

const tools: IngestTools = {
  imageFileId: async () => 'file-1',
  signal: new AbortController().signal,
};

async function loaded(item: SourceItem): Promise<Record<string, unknown>> {
  try {
    return (await item.load?.(tools)) as Record<string, unknown>;
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-documents-'));
  await writeTree(dir, {
    'good/guide.mdx':
      '---\ntitle: The guide\nfile_type: spoofed\nsidebar_label: Guide\n---\nimport X from "x"\n\n<Note>Read me</Note>\n',
    'good/broken.mdx': '# Broken\n\n<Note>{\n',
    'good/deck.pptx': makePptx(
      [{ boxes: [['Hello']] }, { boxes: [['Bye']], notes: ['Wave'] }],
      'Deck',
    ),
    'good/sheet.xlsx': makeXlsx([
      {
        name: 'Q1',
        rows: [
          ['k', 'v'],
          ['a', 1],
        ],
      },
    ]),
    'good/mail.eml': 'From: a@example.com\r\nSubject: Hi\r\n\r\nBody\r\n',
    'good/book.epub': makeEpub({
      title: 'Book',
      authors: ['Ada'],
      chapters: [
        { title: 'One', body: '<h1>One</h1><p>First</p>' },
        { title: 'Two', body: '<p>Second</p>' },
      ],
    }),
    'good/app.log': 'started\n',
    'bad/a.pptx': 'not a zip',
    'bad/b.xlsx': makeZip({ 'x.txt': 'x' }),
    'bad/c.eml': 'no headers here\n',
    'bad/d.epub': makeZip({ mimetype: 'application/epub+zip' }),
    'bad/e.xml': '<open>',
    'bad/f.tsv': 'a\tb\n1\t2\t3\n',
    'bad/g.docx': 'not a zip',
    'bad/h.pdf': makePdf('x').subarray(0, 60),
    'bad/i.mdx': Buffer.from([0xff, 0xfe, 0x00]),
    'bad/j.md': Buffer.from([0x61, 0x00]),
    'bad/k.csv': 'a,b\n1,2,3\n',
    'bad/l.yaml': Buffer.from([0xc3, 0x28]),
  });
  // a docx to show the existing kinds are unchanged
  await writeTree(dir, { 'good/letter.docx': makeDocx(['Dear team,']) });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('documents of every kind', () => {
  it('carry the title, the metadata and one section per slide, sheet or chapter', async () => {
    const warnings: string[] = [];
    const source = folderSource(['good'], {
      baseDir: dir,
      onWarning: (ref, message) => warnings.push(`${ref}: ${message}`),
    });
    const docs = Object.fromEntries(
      await Promise.all([...source].map(async (item) => [item.ref, await loaded(item)])),
    );
    expect(docs['good/guide.mdx']).toMatchObject({
      id: 'good/guide.mdx',
      semantic_identifier: 'The guide',
      title: 'The guide',
      // the file's own keys win over the front matter's
      metadata: { sidebar_label: 'Guide', file_type: 'mdx', relative_path: 'good/guide.mdx' },
      sections: [{ text: 'Read me' }],
    });
    expect(docs['good/broken.mdx']).toMatchObject({
      semantic_identifier: 'broken.mdx',
      sections: [{ text: 'Broken\n\n{' }],
    });
    expect(docs['good/broken.mdx']).not.toHaveProperty('title');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^good\/broken\.mdx: not valid MDX \(line 4, column 1: .*\); read leniently, without its tags, statements and expressions$/,
      ),
    ]);
    expect(docs['good/deck.pptx']).toMatchObject({
      semantic_identifier: 'Deck',
      metadata: { file_type: 'pptx', relative_path: 'good/deck.pptx' },
      sections: [{ text: 'Slide 1\n\nHello' }, { text: 'Slide 2\n\nBye\n\nSpeaker notes:\nWave' }],
    });
    expect(docs['good/sheet.xlsx']).toMatchObject({
      semantic_identifier: 'sheet.xlsx',
      sections: [{ text: 'Q1\n\nk: a\nv: 1' }],
    });
    expect(docs['good/mail.eml']).toMatchObject({
      semantic_identifier: 'Hi',
      title: 'Hi',
      metadata: { from: 'a@example.com', file_type: 'eml', relative_path: 'good/mail.eml' },
      sections: [{ text: 'Body' }],
    });
    // a chapter whose first line is its title does not get it twice
    expect(docs['good/book.epub']).toMatchObject({
      semantic_identifier: 'Book',
      metadata: { author: 'Ada', language: 'en', file_type: 'epub' },
      sections: [{ text: 'One\n\nFirst' }, { text: 'Two\n\nSecond' }],
    });
    expect(docs['good/app.log']).toMatchObject({
      semantic_identifier: 'app.log',
      metadata: { file_type: 'log', relative_path: 'good/app.log' },
      sections: [{ text: 'started\n' }],
    });
    expect(docs['good/letter.docx']).toMatchObject({
      semantic_identifier: 'letter.docx',
      sections: [{ text: 'Dear team,' }],
    });
  });

  it('fails a corrupt file of each kind alone, with a one-line reason', async () => {
    const items = [...folderSource(['bad'], { baseDir: dir })];
    const reasons = Object.fromEntries(
      await Promise.all(items.map(async (item) => [item.ref, (await loaded(item)).failed])),
    );
    expect(reasons).toEqual({
      'bad/a.pptx': 'not a valid PPTX presentation: invalid zip data',
      'bad/b.xlsx': 'not a valid XLSX workbook: xl/workbook.xml is missing',
      'bad/c.eml': 'not an e-mail message: no From, To, Subject, Date or Message-ID header',
      'bad/d.epub': 'not a valid EPUB book: META-INF/container.xml is missing',
      'bad/e.xml': 'invalid XML at line 1, column 6: unclosed tag: open',
      'bad/f.tsv': expect.stringMatching(/^invalid TSV: .*line 2/),
      'bad/g.docx': expect.stringMatching(/^not a valid DOCX document: /),
      'bad/h.pdf': expect.stringMatching(/^not a valid PDF: /),
      'bad/i.mdx': 'not valid UTF-8 text',
      'bad/j.md': 'binary content, expected text',
      'bad/k.csv': expect.stringMatching(/^invalid CSV: .*line 2/),
      'bad/l.yaml': 'not valid UTF-8 text',
    });
    for (const reason of Object.values(reasons)) expect(reason).not.toContain('\n');
  });
});
