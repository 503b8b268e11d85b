/**
 * MDX pages that strict MDX refuses but Mintlify renders (an `<img …>` never closed, HTML
 * comments, a stray `{`), read leniently: the exact text left once statements, tags, comments
 * and expressions are gone, code kept as written, and the one warning naming the parser's error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestTools } from '@kis/client';
import { writeTree } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSource } from '../src/index.js';
import { extractFile } from '../src/sources/extract.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-mdx-lenient-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The text and warnings of a page named `name` holding `mdx`. */
async function read(name: string, mdx: string): Promise<{ text: string; warnings: string[] }> {
  const path = join(dir, name);
  await writeFile(path, mdx);
  const extracted = await extractFile(path);
  if (extracted.kind !== 'text') throw new Error(`${name} was read as an image`);
  return { text: extracted.sections[0]?.text ?? '', warnings: extracted.warnings ?? [] };
}

/** The text of a page strict MDX refuses, checking it was read leniently. */
async function lenient(name: string, mdx: string): Promise<string> {
  const { text, warnings } = await read(name, mdx);
  expect(warnings).toEqual([expect.stringMatching(/^not valid MDX \(line \d+, column \d+: /)]);
  return text;
}

// an HTML comment, which strict MDX refuses, on its own and out of the way
const COMMENT = '\n<!-- refused by strict MDX -->\n';

describe('MDX read leniently', () => {
  it('keeps the alt text of an <img> never closed, and warns once with the line', async () => {
    const page =
      '---\ntitle: Setup\n---\n# Setup\n\n<img src="/diagram.png" alt="A diagram">\n\nThen run it.\n';
    expect(await read('img.mdx', page)).toEqual({
      text: 'Setup\n\nA diagram\n\nThen run it.',
      warnings: [
        'not valid MDX (line 6, column 1: Expected a closing tag for `<img>`); read leniently, without its tags, statements and expressions',
      ],
    });
  });

  it('drops HTML comments, inside a line and over several lines', async () => {
    const page = 'Before <!-- a note --> after.\n\n<!--\nA draft\n\nnever shown.\n-->\n\nEnd.\n';
    expect(await lenient('comments.mdx', page)).toBe('Before  after.\n\nEnd.');
  });

  it('keeps a bare < in prose', async () => {
    const page = `If a < b and x <= 3, go <-- back; 1<2.\n${COMMENT}`;
    expect(await lenient('less-than.mdx', page)).toBe('If a < b and x <= 3, go <-- back; 1<2.');
  });

  it('reads nested components over several lines as their titles and text', async () => {
    const page = `<Steps>\n  <Step title="Install">\n    Run it.\n  </Step>\n  <Step title="Check">\n    See \`kis --version\`.\n  </Step>\n</Steps>\n${COMMENT}`;
    expect(await lenient('steps.mdx', page)).toBe(
      'Install\n\nRun it.\n\nCheck\n\nSee kis --version.',
    );
  });

  it('reads <Note>, <Tip> and <Card title href> as their text and title, not their links', async () => {
    const page = [
      '<Note>',
      '  Keep your **API key** secret.',
      '</Note>',
      '',
      '<Tip>Use the `--json` flag.</Tip>',
      '',
      '<Card title="Next steps" href="/next" icon="rocket">',
      '  Read the [guide](/guide).',
      '</Card>',
      '',
      'Press <Kbd>Ctrl</Kbd>,<br>then <Tooltip tip="More &amp; less">hover</Tooltip>.',
      COMMENT,
    ].join('\n');
    expect(await lenient('callouts.mdx', page)).toBe(
      'Keep your API key secret.\n\nUse the --json flag.\n\nNext steps\n\nRead the guide.\n\nPress Ctrl,\nthen More & less hover.',
    );
  });

  it('drops multi-line export const objects, a blank line inside one included', async () => {
    const page = [
      'export const meta = {',
      "  title: 'Hidden',",
      '',
      '  tags: ["a", "b"],',
      '}',
      '',
      'export const Banner = () => (',
      '  <div className="banner">Not text</div>',
      ')',
      '',
      'Body.',
      COMMENT,
    ].join('\n');
    expect(await lenient('exports.mdx', page)).toBe('Body.');
  });

  it('drops import lines, one or several lines long, but not prose that starts with "import"', async () => {
    const page = [
      "import Diagram from '/snippets/diagram.mdx'",
      "import { Tabs, Tab } from 'mintlify/components'",
      'import {',
      '  Card,',
      '  CardGroup,',
      "} from 'mintlify/components'",
      '## Install',
      '',
      'import the data from a CSV file first.',
      COMMENT,
    ].join('\n');
    expect(await lenient('imports.mdx', page)).toBe(
      'Install\n\nimport the data from a CSV file first.',
    );
  });

  it('drops {expressions} in text, in attributes and over lines; a stray { stays', async () => {
    const page = [
      '# Hello {user.name}',
      '',
      "Install it.{' '}<Tabs items={['npm', 'pnpm']} {...props}>now</Tabs>",
      '',
      '{/* a comment',
      '',
      'over a blank line */}',
      '',
      'Sets look like {1, 2 in maths',
      '',
      'Write \\{ and \\<Note> for the characters.',
      COMMENT,
    ].join('\n');
    expect(await lenient('expressions.mdx', page)).toBe(
      'Hello\n\nInstall it.now\n\nSets look like {1, 2 in maths\n\nWrite { and <Note> for the characters.',
    );
  });

  it('keeps code blocks and inline code as written, indented in a component too', async () => {
    const page = [
      '<CodeGroup>',
      '  ```js index.js',
      "  import kis from '@kis/client'",
      '  <Note>{x}</Note>',
      '  ```',
      '</CodeGroup>',
      '',
      'The `<Tip>` tag and `{expressions}`.',
      COMMENT,
    ].join('\n');
    expect(await lenient('code.mdx', page)).toBe(
      "import kis from '@kis/client'\n<Note>{x}</Note>\n\nThe <Tip> tag and {expressions}.",
    );
  });

  it('ends lists and headings as the strict reading does', async () => {
    const page = [
      '## Before you start',
      '',
      '1. Sign in',
      '   <Note>Use your work account.</Note>',
      '2. Open <b>Settings</b>',
      '   <Frame>',
      '     <img src="/settings.png" alt="The settings page">',
      '   </Frame>',
      '',
      '- A [link](https://example.com) and *emphasis*',
      '',
    ].join('\n');
    expect(await lenient('structure.mdx', page)).toBe(
      'Before you start\n\n1. Sign in\n  Use your work account.\n2. Open Settings\n  The settings page\n\n- A link and emphasis',
    );
  });
});

describe('kis ingest of a page strict MDX refuses', () => {
  it('sends its lenient text and title, and says so once for the file', async () => {
    const root = join(dir, 'site');
    await writeTree(root, {
      'docs/quickstart.mdx': [
        '---',
        'title: Quickstart',
        '---',
        "import { Steps, Step } from 'mintlify/components'",
        '',
        '<Steps>',
        '  <Step title="Install">',
        '    <img src="/install.png" alt="The installer">',
        '  </Step>',
        '</Steps>',
        '',
      ].join('\n'),
    });
    const warnings: string[] = [];
    const source = folderSource(['docs'], {
      baseDir: root,
      onWarning: (ref, message) => warnings.push(`${ref}: ${message}`),
    });
    const tools: IngestTools = {
      imageFileId: async () => 'file-1',
      signal: new AbortController().signal,
    };
    const [item] = [...source];
    expect(await item?.load?.(tools)).toMatchObject({
      id: 'docs/quickstart.mdx',
      title: 'Quickstart',
      sections: [{ text: 'Install\n\nThe installer' }],
    });
    expect(warnings).toEqual([
      'docs/quickstart.mdx: not valid MDX (line 9, column 3: Unexpected closing tag `</Step>`, expected corresponding closing tag for `<img>` (8:5-8:49)); read leniently, without its tags, statements and expressions',
    ]);
  });
});
