// The built package (scripts/build.mjs): both entry points export the same names, and the one
// declaration file the `exports` map names for both declares each of them and compiles alone.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

describe('dist/', () => {
  it('exports the same names from the browser-safe and the Node entry points', async () => {
    const browser = Object.keys(await import('../dist/index.js')).sort();
    // no declarations of its own: the `exports` map names dist/index.d.ts for both entries
    const node = Object.keys(await import(pathToFileURL(join(dist, 'index.node.js')).href)).sort();
    expect(node).toEqual(browser);
    expect(browser).toContain('createKisClient');
  });

  it('declares every run-time export in dist/index.d.ts, which compiles without skipLibCheck', async () => {
    const file = join(dist, 'index.d.ts');
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const values = checker
      .getExportsOfModule(module)
      .filter(
        (s) =>
          (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags &
          ts.SymbolFlags.Value,
      )
      .map((s) => s.name)
      .sort();
    expect(values).toEqual(Object.keys(await import('../dist/index.js')).sort());
  });

  it('is a few files: entries, the chunks they share, the generated validators, declarations', () => {
    const files = readdirSync(dist).sort();
    expect(files.filter((f) => !/^shared-\w+\.js$/.test(f))).toEqual([
      'connector-configs.js',
      'index.d.ts',
      'index.js',
      'index.node.js',
      'validators.js',
    ]);
    // what both entries share; `kis.doctor()`, the search, document-set and user-group calls, and
    // the verification engine (each loaded on first use); and the code they share with the entries
    expect(files.filter((f) => /^shared-\w+\.js$/.test(f))).toHaveLength(7);
  });
});
