/**
 * Every file kind the service's own file connector takes, extracted from small files made here:
 * the text each yields (JSX, imports and front matter absent, code kept), its title, metadata and
 * sections, and a corrupt file of each kind failing with a one-line reason.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEpub, makePptx, makeXlsx, makeZip } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Extracted, extractFile } from '../src/sources/extract.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-kinds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function extract(name: string, content: string | Buffer): Promise<Extracted> {
  const path = join(dir, name);
  await writeFile(path, content);
  const { modified, ...rest } = await extractFile(path);
  expect(modified).toBeInstanceOf(Date);
  return rest as Extracted;
}

/** The reason extracting a file fails with (and that it is one line). */
async function failure(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  try {
    await extractFile(path);
  } catch (error) {
    const message = (error as Error).message;
    expect((error as Error).name).toBe('ExtractionError');
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`${name} was extracted`);
}

describe('plain text kinds', () => {
  it.each([
    ['app.log', 'log', '2024-10-01 12:00:00 INFO started\n2024-10-01 12:00:01 WARN slow\n'],
    ['nginx.conf', 'conf', 'server {\n  listen 80;\n}\n'],
    ['schema.sql', 'sql', 'CREATE TABLE t (id int);\n-- a comment\n'],
    ['config.yml', 'yaml', 'name: kis\nlist:\n  - a\n'],
    ['config.YAML', 'yaml', '---\nname: kis\n'],
  ])('reads %s as text (file_type %s), as it is', async (name, fileType, text) => {
    expect(await extract(name, text)).toEqual({ kind: 'text', fileType, sections: [{ text }] });
  });

  it('fails on binary content', async () => {
    expect(await failure('core.log', Buffer.from([0x41, 0, 0x42]))).toBe(
      'binary content, expected text',
    );
  });
});

describe('Markdown front matter', () => {
  it('takes the title and the scalar and list keys; never puts front matter in the text', async () => {
    const md = [
      '---',
      'title: "Getting started"',
      'description: Install and run',
      'sidebar_position: 2',
      'draft: false',
      'tags: [setup, cli]',
      'authors:',
      '  - name: Ada',
      'nav: { parent: guides }',
      'empty:',
      '---',
      '',
      '# Getting started',
      '',
      'Run `kis`.',
    ].join('\n');
    expect(await extract('start.md', md)).toEqual({
      kind: 'text',
      fileType: 'md',
      title: 'Getting started',
      metadata: {
        description: 'Install and run',
        sidebar_position: '2',
        draft: 'false',
        tags: ['setup', 'cli'],
      },
      sections: [{ text: '# Getting started\n\nRun `kis`.' }],
    });
  });

  it('drops front matter that is not valid YAML, with a warning naming its line', async () => {
    const result = await extract('bad-front.md', '---\ntitle: a: b\n---\nBody\n');
    expect(result).toEqual({
      kind: 'text',
      fileType: 'md',
      sections: [{ text: 'Body\n' }],
      warnings: [
        'front matter is not valid YAML (line 2: Nested mappings are not allowed in compact mappings); ignored',
      ],
    });
  });

  it('leaves a file without front matter as it is (a later --- is a rule)', async () => {
    const md = 'Intro\n\n---\n\ntitle: not front matter\n';
    expect(await extract('plain.md', md)).toEqual({
      kind: 'text',
      fileType: 'md',
      sections: [{ text: md }],
    });
    // text between two rules at the start is not keys and values: it stays text
    const ruled = '---\nA paragraph between rules.\n---\n\nMore.\n';
    expect(await extract('ruled.md', ruled)).toEqual({
      kind: 'text',
      fileType: 'md',
      sections: [{ text: ruled }],
    });
  });
});

const MDX = `---
title: Quickstart
description: From zero to a first document
tags:
  - guide
---
import { Tabs, Tab } from '@site/components'
import Diagram from './diagram.svg'

export const meta = { hidden: true }

# Quickstart for {props.product}

Install the CLI with <Kbd>npm</Kbd> and run it.{' '}

<Note>
  Keep your **API key** secret.
</Note>

<Tabs items={['npm', 'pnpm']}>
  <Tab title="Using npm">
    Run the installer from npm.
  </Tab>
  <Tab title="Using pnpm" icon="box" href="/pnpm">
    Run the installer from pnpm.
  </Tab>
</Tabs>

<Card title="Next steps" icon="rocket" href="/next" className="card wide" />

\`\`\`bash
npm install --global kis
kis ingest ./docs
\`\`\`

1. First step
2. Second step

{/* a comment that readers never see */}
`;

describe('MDX', () => {
  it('keeps the text of components and their titles, and code; drops imports, exports and expressions', async () => {
    const result = await extract('quickstart.mdx', MDX);
    expect(result).toEqual({
      kind: 'text',
      fileType: 'mdx',
      title: 'Quickstart',
      metadata: { description: 'From zero to a first document', tags: ['guide'] },
      sections: [
        {
          text: [
            'Quickstart for',
            'Install the CLI with npm and run it.',
            'Keep your API key secret.',
            'Using npm\n\nRun the installer from npm.',
            'Using pnpm\n\nRun the installer from pnpm.',
            'Next steps',
            'npm install --global kis\nkis ingest ./docs',
            '1. First step\n2. Second step',
          ].join('\n\n'),
        },
      ],
    });
    const text = result.kind === 'text' ? result.sections[0]?.text : '';
    for (const absent of [
      'import',
      'export',
      'props',
      'hidden',
      'rocket',
      '/next',
      'card wide',
      'comment',
      '---',
    ]) {
      expect(text).not.toContain(absent);
    }
  });

  it('reads a file that is not valid MDX leniently, with a warning giving the line', async () => {
    const broken = '---\ntitle: Broken page\n---\n# Broken\n\nA <Note> never closed {\n';
    expect(await extract('broken.mdx', broken)).toEqual({
      kind: 'text',
      fileType: 'mdx',
      title: 'Broken page',
      sections: [{ text: 'Broken\n\nA  never closed {' }],
      warnings: [
        'not valid MDX (line 6, column 24: Unexpected end of file in expression, expected a corresponding closing brace for `{`); read leniently, without its tags, statements and expressions',
      ],
    });
  });

  it('reads a page refused for one HTML comment as the same page without it', async () => {
    const valid = await extract('valid.mdx', MDX);
    const refused = await extract(
      'refused.mdx',
      MDX.replace('# Quickstart', '<!-- draft -->\n\n# Quickstart'),
    );
    expect(refused).toEqual({
      ...valid,
      warnings: [
        expect.stringMatching(/^not valid MDX \(line 12, column 2: Unexpected character `!`/),
      ],
    });
  });

  it('fails only on text that is not UTF-8', async () => {
    expect(await failure('latin1.mdx', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe(
      'not valid UTF-8 text',
    );
  });
});

describe('PowerPoint', () => {
  const deck = makePptx(
    [
      {
        boxes: [['Quarterly review'], ['Revenue grew\nin every region', 'Costs fell']],
        notes: ['Thank the team.', 'Mention Q4.'],
      },
      { boxes: [] },
      { boxes: [['Next steps']] },
    ],
    'Q3 review',
  );

  it('gives one section per slide with text in order, its number, and its speaker notes', async () => {
    expect(await extract('review.pptx', deck)).toEqual({
      kind: 'text',
      fileType: 'pptx',
      title: 'Q3 review',
      sections: [
        {
          heading: 'Slide 1',
          text: 'Quarterly review\nRevenue grew\nin every region\nCosts fell\n\nSpeaker notes:\nThank the team.\nMention Q4.',
        },
        // slide 2 has no text
        { heading: 'Slide 3', text: 'Next steps' },
      ],
    });
  });

  it('fails on a corrupt presentation with the reason', async () => {
    expect(await failure('zip.pptx', 'not a zip at all')).toBe(
      'not a valid PPTX presentation: invalid zip data',
    );
    expect(await failure('empty.pptx', makeZip({ 'readme.txt': 'x' }))).toBe(
      'not a valid PPTX presentation: ppt/presentation.xml is missing',
    );
    expect(await failure('cut.pptx', deck.subarray(0, deck.length - 30))).toMatch(
      /^not a valid PPTX presentation: /,
    );
    const brokenSlide = makeZip({
      'ppt/presentation.xml':
        '<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>',
      'ppt/_rels/presentation.xml.rels':
        '<Relationships><Relationship Id="rId1" Type="x/slide" Target="slides/slide1.xml"/></Relationships>',
      'ppt/slides/slide1.xml': '<p:sld xmlns:p="p"><p:cSld>\n<a:t>unclosed</p:cSld></p:sld>',
    });
    expect(await failure('broken.pptx', brokenSlide)).toBe(
      'invalid XML in ppt/slides/slide1.xml at line 2, column 22: unexpected close tag',
    );
  });
});

describe('zipped kinds', () => {
  it('refuse a file whose parts claim to expand beyond the cap (a zip bomb)', async () => {
    const zip = makePptx([{ boxes: [['Hello']] }]);
    // every central directory entry now claims 512 MiB once expanded
    for (let at = zip.indexOf(CENTRAL_ENTRY); at >= 0; at = zip.indexOf(CENTRAL_ENTRY, at + 4)) {
      zip.writeUInt32LE(512 * 1024 * 1024, at + 24);
    }
    expect(await failure('bomb.pptx', zip)).toBe(
      'too large: its parts expand to more than 400 MiB',
    );
  });
});

/** The signature of a zip's central directory entry. */
const CENTRAL_ENTRY = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

describe('Excel', () => {
  const workbook = makeXlsx(
    [
      {
        name: 'People',
        rows: [
          ['name', 'born', 'score', 'active', null, 'note'],
          [
            'Ada',
            { date: '1990-12-10' },
            { formula: 'B2/3', cached: 0.30000000000000004 },
            true,
            'x',
            { inline: 'first' },
          ],
          [
            'Grace',
            { date: '2024-03-01T12:30:00' },
            42,
            false,
            null,
            { formula: 'A3&"!"', cached: 'Grace!' },
          ],
          [null, null, null, null, null, null],
          ['Alan', null, { formula: 'SUM(C2:C3)' }],
        ],
      },
      { name: 'Empty', rows: [] },
      { name: 'Totals', rows: [['Total', 42.5]] },
    ],
    'Staff',
  );

  it('gives one section per sheet, rows as column: value lines, formulas as cached values', async () => {
    expect(await extract('staff.xlsx', workbook)).toEqual({
      kind: 'text',
      fileType: 'xlsx',
      title: 'Staff',
      sections: [
        {
          heading: 'People',
          text: [
            'name: Ada\nborn: 1990-12-10\nscore: 0.3\nactive: TRUE\nE: x\nnote: first',
            'name: Grace\nborn: 2024-03-01 12:30:00\nscore: 42\nactive: FALSE\nnote: Grace!',
            'name: Alan',
          ].join('\n\n'),
        },
        // a sheet of one row: its values
        { heading: 'Totals', text: 'Total\n42.5' },
      ],
      warnings: [
        'sheet "People": 1 formula cell(s) have no cached value (the workbook was saved without calculating them); left empty',
      ],
    });
  });

  it('reads .xlsm workbooks the same way', async () => {
    expect(await extract('macro.xlsm', workbook)).toMatchObject({
      fileType: 'xlsm',
      title: 'Staff',
    });
  });

  it('fails on a corrupt workbook with the reason', async () => {
    expect(await failure('zip.xlsx', Buffer.from('PK\u0003\u0004garbage'))).toMatch(
      /^not a valid XLSX workbook: /,
    );
    expect(await failure('docx.xlsx', makeZip({ 'word/document.xml': '<w:document/>' }))).toBe(
      'not a valid XLSX workbook: xl/workbook.xml is missing',
    );
  });
});

const MAIL = [
  'From: Ada Lovelace <ada@example.com>',
  'To: bob@example.com, "Carl, Jr." <carl@example.com>',
  'Cc: Team: dee@example.com;',
  'Subject: =?UTF-8?Q?Caf=C3=A9_plans?= for Friday',
  'Date: Tue, 1 Oct 2024 10:00:00 +0200',
  'Message-ID: <1@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hello Bob,=0A=0ALet=E2=80=99s meet at the caf=C3=A9.',
  '--alt',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Hello Bob,</p><p>HTML version</p>',
  '--alt--',
  '--outer',
  'Content-Type: application/pdf; name="agenda.pdf"',
  'Content-Disposition: attachment; filename="agenda.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  'JVBERi0xLjQK',
  '--outer',
  'Content-Type: text/csv; name="costs.csv"',
  'Content-Disposition: attachment; filename="costs.csv"',
  '',
  'item,cost',
  '--outer--',
  '',
].join('\r\n');

describe('e-mail', () => {
  it('takes the subject as title, the headers as metadata, the text part; lists attachments', async () => {
    expect(await extract('friday.eml', MAIL)).toEqual({
      kind: 'text',
      fileType: 'eml',
      title: 'Café plans for Friday',
      metadata: {
        from: 'Ada Lovelace <ada@example.com>',
        to: ['bob@example.com', 'Carl, Jr. <carl@example.com>'],
        cc: ['Team: dee@example.com'],
        date: '2024-10-01T08:00:00.000Z',
        attachments: ['agenda.pdf', 'costs.csv'],
      },
      sections: [{ text: 'Hello Bob,\n\nLet’s meet at the café.' }],
    });
  });

  it('reads the HTML part as text when there is no text part', async () => {
    const html = [
      'From: news@example.com',
      'Subject: Weekly',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<html><head><style>p{}</style></head><body><h1>News</h1><p>One <b>item</b>.</p></body></html>',
    ].join('\r\n');
    expect(await extract('weekly.eml', html)).toEqual({
      kind: 'text',
      fileType: 'eml',
      title: 'Weekly',
      metadata: { from: 'news@example.com' },
      sections: [{ text: 'News\n\nOne item.' }],
    });
  });

  it('fails on a file that is not a message', async () => {
    expect(await failure('notes.eml', 'just some notes\nwith two lines\n')).toBe(
      'not an e-mail message: no From, To, Subject, Date or Message-ID header',
    );
  });
});

describe('EPUB', () => {
  const chapters = [
    {
      title: 'Chapter 1: Arrival',
      body: '<h1>Arrival</h1><p>It was a dark &amp; stormy night.</p>',
    },
    { title: 'Cover', body: '<img src="../images/cover.png" alt=""/>' },
    { title: 'Chapter 2: Departure', body: '<h2>Departure</h2><p>Morning came.</p>' },
  ];

  it.each([3, 2] as const)(
    'gives chapters in spine order, headed from the table of contents (EPUB %i)',
    async (version) => {
      const book = makeEpub({
        title: 'A Short Book',
        authors: ['Ada Lovelace', 'Grace Hopper'],
        chapters,
        version,
      });
      expect(await extract(`book${version}.epub`, book)).toEqual({
        kind: 'text',
        fileType: 'epub',
        title: 'A Short Book',
        metadata: { author: ['Ada Lovelace', 'Grace Hopper'], language: 'en' },
        sections: [
          { heading: 'Chapter 1: Arrival', text: 'Arrival\n\nIt was a dark & stormy night.' },
          { heading: 'Chapter 2: Departure', text: 'Departure\n\nMorning came.' },
        ],
      });
    },
  );

  it('gives one author as a string', async () => {
    const book = makeEpub({
      title: 'Solo',
      authors: ['Ada Lovelace'],
      chapters: chapters.slice(0, 1),
    });
    expect(await extract('solo.epub', book)).toMatchObject({
      metadata: { author: 'Ada Lovelace', language: 'en' },
    });
  });

  it('fails on a corrupt book with the reason', async () => {
    expect(await failure('zip.epub', 'not a zip')).toBe('not a valid EPUB book: invalid zip data');
    expect(await failure('bare.epub', makeZip({ mimetype: 'application/epub+zip' }))).toBe(
      'not a valid EPUB book: META-INF/container.xml is missing',
    );
  });
});

describe('XML', () => {
  it('removes the tags, keeps attribute values that carry text, one line per element', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<catalog xmlns="urn:example" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <book id="bk101" lang="en" title="XML Developer's Guide">
    <author>Gambardella, Matthew</author>
    <price currency="USD">44.95</price>
    <description>An in-depth look at <em>creating</em> applications
      with XML.</description>
    <cover href="https://example.com/c.png" alt="A blue cover"/>
    <notes><![CDATA[Raw <text> kept]]></notes>
  </book>
  <?render fast?>
</catalog>`;
    expect(await extract('catalog.xml', xml)).toEqual({
      kind: 'text',
      fileType: 'xml',
      sections: [
        {
          text: [
            "XML Developer's Guide",
            'Gambardella, Matthew',
            '44.95',
            'An in-depth look at creating applications with XML.',
            'A blue cover',
            'Raw <text> kept',
          ].join('\n'),
        },
      ],
    });
  });

  it('fails on XML that is not well-formed, with line and column', async () => {
    expect(await failure('broken.xml', '<a>\n  <b>text</a>')).toBe(
      'invalid XML at line 2, column 13: unexpected close tag',
    );
  });
});

describe('TSV', () => {
  it('reads rows as column: value blocks, quotes as part of the value', async () => {
    expect(await extract('people.tsv', 'name\tquote\nAda\t"Hello"\nBob\t\n')).toEqual({
      kind: 'text',
      fileType: 'tsv',
      sections: [{ text: 'name: Ada\nquote: "Hello"\n\nname: Bob' }],
    });
  });

  it('fails on a row with more cells than the header', async () => {
    expect(await failure('bad.tsv', 'a\tb\n1\t2\t3\n')).toMatch(/^invalid TSV: .*line 2/);
  });
});
