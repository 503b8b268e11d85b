import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JPEG_HEAD, makeDocx, makePdf, PNG_1X1 } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionError, extractFile, kindOf, MAX_FILE_BYTES } from '../src/sources/extract.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kis-extract-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('extractFile', () => {
  it('reads text and markdown as UTF-8, dropping a BOM', async () => {
    expect(await extractFile(await file('a.txt', '\uFEFFhello wörld'))).toEqual({
      kind: 'text',
      fileType: 'txt',
      sections: [{ text: 'hello wörld' }],
      modified: expect.any(Date),
    });
    const md = await extractFile(await file('b.md', '# Title\n\nbody'));
    expect(md).toEqual({
      kind: 'text',
      fileType: 'md',
      sections: [{ text: '# Title\n\nbody' }],
      modified: expect.any(Date),
    });
  });

  it('rejects binary content and invalid UTF-8 in text files', async () => {
    await expect(extractFile(await file('bin.txt', Buffer.from([0x61, 0, 0x62])))).rejects.toThrow(
      'binary content, expected text',
    );
    await expect(
      extractFile(await file('bad.md', Buffer.from([0xff, 0xfe, 0x41]))),
    ).rejects.toThrow('not valid UTF-8 text');
  });

  it('extracts the visible text and the <title> of HTML', async () => {
    const html =
      '<html><head><title>My &amp; Page</title><style>p{}</style></head>' +
      '<body><h1>Head</h1><p>Some <a href="https://x.example">link</a> text</p>' +
      '<script>var x = 1;</script><img src="a.png"></body></html>';
    expect(await extractFile(await file('p.html', html))).toEqual({
      kind: 'text',
      fileType: 'html',
      title: 'My & Page',
      // headings as written (html-to-text upper-cases them unless told not to)
      sections: [{ text: 'Head\n\nSome link text' }],
      modified: expect.any(Date),
    });
    expect(await extractFile(await file('q.htm', '<p>no title</p>'))).toEqual({
      kind: 'text',
      fileType: 'html',
      sections: [{ text: 'no title' }],
      modified: expect.any(Date),
    });
  });

  it('extracts PDF text and title', async () => {
    const result = await extractFile(
      await file('doc.pdf', makePdf('Quarterly report (draft)', 'Q3')),
    );
    expect(result).toEqual({
      kind: 'text',
      fileType: 'pdf',
      sections: [{ text: 'Quarterly report (draft)' }],
      title: 'Q3',
      modified: expect.any(Date),
    });
  });

  it('reports a corrupt PDF', async () => {
    const broken = makePdf('x').subarray(0, 60);
    await expect(extractFile(await file('broken.pdf', broken))).rejects.toThrow(/not a valid PDF/);
    await expect(extractFile(await file('fake.pdf', 'just text'))).rejects.toBeInstanceOf(
      ExtractionError,
    );
  });

  it('extracts DOCX paragraphs and reports a corrupt one', async () => {
    const result = await extractFile(
      await file('w.docx', makeDocx(['First para', 'Second <para>'])),
    );
    expect(result).toMatchObject({
      kind: 'text',
      fileType: 'docx',
      sections: [{ text: 'First para\n\nSecond <para>' }],
    });
    await expect(extractFile(await file('bad.docx', 'not a zip'))).rejects.toThrow(
      /not a valid DOCX document/,
    );
  });

  it('turns CSV rows into column: value blocks and reports malformed CSV with its line', async () => {
    expect(
      await extractFile(await file('ok.csv', 'name,city\nAda,London\nBob,\n,\n')),
    ).toMatchObject({
      fileType: 'csv',
      sections: [{ text: 'name: Ada\ncity: London\n\nname: Bob' }],
    });
    await expect(extractFile(await file('bad.csv', 'a,b\n1,2,3\n'))).rejects.toThrow(
      /invalid CSV: .*line 2/,
    );
  });

  it('pretty-prints JSON and reports invalid JSON with line and column', async () => {
    expect(await extractFile(await file('d.json', '{"a":[1,2]}'))).toMatchObject({
      kind: 'text',
      fileType: 'json',
      sections: [{ text: '{\n  "a": [\n    1,\n    2\n  ]\n}' }],
    });
    await expect(extractFile(await file('bad.json', '{\n  "a": 1,\n}'))).rejects.toThrow(
      /invalid JSON at line 3, column 1: expected a double-quoted property name/,
    );
  });

  it('sniffs images and rejects files that are not what their extension says', async () => {
    expect(await extractFile(await file('i.png', PNG_1X1))).toMatchObject({
      kind: 'image',
      fileType: 'png',
      mime: 'image/png',
      name: 'i.png',
    });
    expect(await extractFile(await file('p.JPG', JPEG_HEAD))).toMatchObject({ mime: 'image/jpeg' });
    await expect(extractFile(await file('fake.png', JPEG_HEAD))).rejects.toThrow(
      'not a valid PNG image (image/jpeg content)',
    );
    await expect(extractFile(await file('t.jpg', 'text'))).rejects.toThrow(
      'not a valid JPG image (unrecognised content)',
    );
  });

  it('refuses a file over the size limit, saying so', async () => {
    const path = await file('large.txt', 'x'.repeat(2048));
    await expect(extractFile(path, { maxFileBytes: 1024 })).rejects.toThrow(
      'file too large: 2 KiB, over the 1 KiB limit of extraction',
    );
    expect(await extractFile(path, { maxFileBytes: 2048 })).toMatchObject({ fileType: 'txt' });
    expect(MAX_FILE_BYTES).toBe(100 * 1024 * 1024);
  });

  it('reports unreadable and unsupported files', async () => {
    await expect(extractFile(join(dir, 'missing.txt'))).rejects.toThrow(
      'cannot read file: no such file or directory',
    );
    await expect(extractFile(await file('x.exe', 'MZ'))).rejects.toThrow(
      /unsupported file type ".exe"/,
    );
    expect(kindOf('A.PDF')?.kind).toBe('pdf');
    expect(kindOf('noext')).toBeUndefined();
    expect(kindOf('cert.pfx')).toBeUndefined(); // a key is uploaded, never ingested
    expect(kindOf('notes.MARKDOWN')).toMatchObject({ kind: 'markdown', fileType: 'md' });
    expect(kindOf('site/intro.mdx')).toMatchObject({ kind: 'mdx', fileType: 'mdx' });
  });
});
