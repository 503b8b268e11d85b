/**
 * Optional extraction libraries: loaded once, on first use; a missing one fails the file that
 * needed it with one line naming the package to install, and every other kind keeps working.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDocx } from '@kis/test-support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExtractionError } from '../src/sources/extraction-error.js';
import { missingModule, optionalImport } from '../src/sources/optional-import.js';

/** The error Node gives for `import('name')` when the package is not installed. */
function notFound(name: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${name}' imported from /app/dist/extract.js`),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

describe('optionalImport', () => {
  it('imports once, on the first call, and shares the module', async () => {
    const importer = vi.fn(async () => ({ parse: () => 'ok' }));
    const load = optionalImport(['kis-test-lib@1.2.3'], importer);
    expect(importer).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([load('a.x'), load('b.x')]);
    expect(a).toBe(b);
    expect((await load('c.x')).parse()).toBe('ok');
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('names the package to install and the file that needed it, in one line', async () => {
    const load = optionalImport(['fflate@0.8.3'], () => Promise.reject(notFound('fflate')));
    const error = await load('slides.pptx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as Error).message).toBe(
      'cannot read slides.pptx: install the optional package "fflate" (npm i fflate@0.8.3)',
    );
    await expect(load('deck.pptx')).rejects.toThrow(
      'cannot read deck.pptx: install the optional package "fflate" (npm i fflate@0.8.3)',
    );
  });

  it('names every package a kind needs when one of them is missing', async () => {
    const load = optionalImport(['@scope/a@1.0.0', 'b@2.0.0', 'c@3.0.0'], () =>
      Promise.reject(notFound('@scope/a/lib/index.js')),
    );
    await expect(load('guide.mdx')).rejects.toThrow(
      'cannot read guide.mdx: install the optional packages "@scope/a", "b" and "c" (npm i @scope/a@1.0.0 b@2.0.0 c@3.0.0)',
    );
  });

  it('asks to reinstall a package that is there but does not load', async () => {
    const broken = optionalImport(['saxes@6.0.0'], () => Promise.reject(notFound('xmlchars')));
    await expect(broken('feed.xml')).rejects.toThrow(
      `cannot read feed.xml: the optional package "saxes" failed to load (Cannot find package 'xmlchars' imported from /app/dist/extract.js); reinstall (npm i saxes@6.0.0)`,
    );
  });

  it("recognises the loaders' not-found errors, and only those", async () => {
    expect(missingModule(notFound('jszip'))).toBe('jszip');
    const require = Object.assign(new Error("Cannot find module 'yaml'\nRequire stack:\n- /a.js"), {
      code: 'MODULE_NOT_FOUND',
    });
    expect(missingModule(require)).toBe('yaml');
    // wrapped by a bundler or a test runner
    expect(missingModule(new Error('load failed', { cause: notFound('postal-mime') }))).toBe(
      'postal-mime',
    );
    // what a real dynamic import of a missing package rejects with, here
    const name = 'kis-no-such-package-anywhere';
    const real = await import(/* @vite-ignore */ name).catch((e: unknown) => e);
    expect(missingModule(real)).toBe(name);
    expect(missingModule(new SyntaxError("Unexpected token 'x'"))).toBeUndefined();
    expect(missingModule('a string')).toBeUndefined();
  });
});

describe('the declared optional packages', () => {
  it('are pinned at the versions package.json installs', async () => {
    // every kind's module and each SQL driver declares its packages when loaded (fresh modules)
    vi.resetModules();
    await import('../src/sources/extract.js');
    await import('../src/sources/sql/source.js');
    const { OPTIONAL_PACKAGES } = await import('../src/sources/optional-import.js');
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(Object.fromEntries(OPTIONAL_PACKAGES)).toEqual(
      Object.fromEntries(
        [...OPTIONAL_PACKAGES.keys()].map((name) => [name, pkg.peerDependencies[name]]),
      ),
    );
    expect([...OPTIONAL_PACKAGES.keys()].sort()).toEqual([
      'csv-parse',
      'fflate',
      'file-type',
      'html-to-text',
      'mammoth',
      'mdast-util-from-markdown',
      'mdast-util-mdx',
      'micromark-extension-mdxjs',
      'mysql2',
      'pg',
      'pg-cursor',
      'postal-mime',
      'saxes',
      'unpdf',
      'yaml',
    ]);
  });
});

describe('a missing extraction library', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kis-optional-'));
  });
  afterAll(async () => {
    vi.doUnmock('mammoth');
    vi.resetModules();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails the files that need it alone; other kinds keep working', async () => {
    vi.resetModules();
    vi.doMock('mammoth', () => {
      throw notFound('mammoth');
    });
    const { extractFile } = await import('../src/sources/extract.js');
    const docx = join(dir, 'letter.docx');
    const txt = join(dir, 'notes.txt');
    await writeFile(docx, makeDocx(['Dear team,']));
    await writeFile(txt, 'Body');
    await expect(extractFile(docx)).rejects.toThrow(
      /^cannot read letter\.docx: install the optional package "mammoth" \(npm i mammoth@1\.13\.0\)$/,
    );
    expect(await extractFile(txt)).toMatchObject({ sections: [{ text: 'Body' }] });
  });
});

describe('a missing SQL driver', () => {
  afterAll(() => {
    vi.doUnmock('pg');
    vi.doUnmock('mysql2');
    vi.resetModules();
  });

  it('is one line naming the database (no password) and what to install', async () => {
    vi.resetModules();
    vi.doMock('pg', () => {
      throw notFound('pg');
    });
    vi.doMock('mysql2', () => {
      throw notFound('mysql2');
    });
    const { sqlSource } = await import('../src/sources/sql/source.js');
    const mapping = { table: 't', id: 'id', text: 'body' };
    await expect(
      sqlSource({ ...mapping, connection: 'postgres://kis:secret-pw@127.0.0.1:1/crm' }).check(),
    ).rejects.toThrow(
      /^cannot connect to postgres:\/\/kis@127\.0\.0\.1:1\/crm: install the optional packages "pg" and "pg-cursor" \(npm i pg@8\.23\.1 pg-cursor@2\.22\.0\)$/,
    );
    await expect(
      sqlSource({ ...mapping, connection: 'mysql://kis:secret-pw@127.0.0.1:1/crm' }).check(),
    ).rejects.toThrow(
      /^cannot connect to mysql:\/\/kis@127\.0\.0\.1:1\/crm: install the optional package "mysql2" \(npm i mysql2@3\.24\.5\)$/,
    );
  });
});
