import { join } from 'node:path';
import { makeEpub, makePptx, makeXlsx, writeTree } from '@kis/test-support';
import { describe, expect, it } from 'vitest';
import { emulatorAndFolder, jsonLines, kis } from '../helpers/cli.js';

const ctx = emulatorAndFolder('kis-kinds-', (work) =>
  writeTree(join(work, 'site'), {
    'quickstart.mdx': [
      '---',
      'title: Quickstart',
      'tags: [setup]',
      '---',
      "import { Note } from '@/components'",
      '',
      '# Install',
      '',
      '<Note title="Before you start">You need Node 20.</Note>',
      '',
      '```bash',
      'npm i -g kis',
      '```',
      '',
    ].join('\n'),
    'broken.mdx': '# Broken\n\n<Note>{\n',
    'readme.md': '---\ntitle: Read me\nowner: docs-team\n---\n\nHello.\n',
    'deck.pptx': makePptx([{ boxes: [['Roadmap']], notes: ['Ship it'] }], 'Plans'),
    'sheet.xlsx': makeXlsx([
      {
        name: 'Costs',
        rows: [
          ['item', 'eur'],
          ['servers', 120],
        ],
      },
    ]),
    'mail.eml':
      'From: Ada <ada@example.com>\r\nTo: bob@example.com\r\nSubject: Launch\r\nDate: Tue, 1 Oct 2024 10:00:00 +0000\r\n\r\nWe launch Monday.\r\n',
    'book.epub': makeEpub({
      title: 'Handbook',
      authors: ['Grace Hopper'],
      chapters: [{ title: 'Welcome', body: '<p>Welcome aboard.</p>' }],
    }),
    'feed.xml': '<feed><entry title="First post"><body>Hello <b>world</b></body></entry></feed>',
    'table.tsv': 'name\tcity\nAda\tLondon\n',
    'settings.yaml': 'mode: fast\n',
    'query.sql': 'SELECT 1;\n',
    'app.log': 'started\n',
    'nginx.conf': 'listen 80;\n',
  }),
);

describe('kis ingest (every file kind)', () => {
  it('stores what each file holds, with titles and metadata; warns about a broken MDX file', async () => {
    const r = await kis(['--json', 'ingest', 'site'], { env: ctx.env, cwd: ctx.work });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).at(-1)?.summary).toMatchObject({
      created: 13,
      failed: 0,
      ignored: 0,
    });
    expect(r.stderr).toMatch(
      /warning: site\/broken\.mdx: not valid MDX \(line 4, column 1: .*\); read leniently, without its tags, statements and expressions/,
    );

    const doc = (name: string) => ctx.emu.state.document(`site%2F${name}`);
    // the text of every section, as stored
    const text = (name: string) =>
      (doc(name)?.sections ?? [])
        .map((section) =>
          isObject(section) && typeof section.text === 'string' ? section.text : '',
        )
        .join('\n\n');

    expect(doc('quickstart.mdx')).toMatchObject({
      semantic_identifier: 'Quickstart',
      title: 'Quickstart',
      metadata: { tags: ['setup'], file_type: 'mdx', relative_path: 'site/quickstart.mdx' },
    });
    expect(text('quickstart.mdx')).toBe(
      'Install\n\nBefore you start\n\nYou need Node 20.\n\nnpm i -g kis',
    );
    expect(text('broken.mdx')).toBe('Broken\n\n{');
    expect(doc('readme.md')).toMatchObject({
      semantic_identifier: 'Read me',
      metadata: { owner: 'docs-team', file_type: 'md' },
    });
    expect(text('readme.md')).toBe('Hello.\n');
    expect(doc('deck.pptx')).toMatchObject({ semantic_identifier: 'Plans' });
    expect(text('deck.pptx')).toBe('Slide 1\n\nRoadmap\n\nSpeaker notes:\nShip it');
    expect(text('sheet.xlsx')).toBe('Costs\n\nitem: servers\neur: 120');
    expect(doc('mail.eml')).toMatchObject({
      semantic_identifier: 'Launch',
      metadata: {
        from: 'Ada <ada@example.com>',
        to: ['bob@example.com'],
        date: '2024-10-01T10:00:00.000Z',
      },
    });
    expect(text('mail.eml')).toBe('We launch Monday.');
    expect(doc('book.epub')).toMatchObject({
      semantic_identifier: 'Handbook',
      metadata: { author: 'Grace Hopper', language: 'en' },
    });
    expect(text('book.epub')).toBe('Welcome\n\nWelcome aboard.');
    expect(text('feed.xml')).toBe('First post\nHello world');
    expect(text('table.tsv')).toBe('name: Ada\ncity: London');
    expect(doc('settings.yaml')?.metadata).toMatchObject({ file_type: 'yaml' });
    expect(text('settings.yaml')).toBe('mode: fast\n');
    expect(text('query.sql')).toBe('SELECT 1;\n');
    expect(text('app.log')).toBe('started\n');
    expect(text('nginx.conf')).toBe('listen 80;\n');
  });
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
