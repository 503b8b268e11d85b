// Builds dist/ with few JavaScript files: an installed file takes whole 4 KiB blocks, and the
// client's install is budgeted (at most 4 MB on disk, tests/packaging/README.md); as tsc wrote
// it, 63 small JavaScript files took 632 KiB on disk for 490 kB.
//
// - JavaScript: esbuild bundles the two entry points (index.ts, browser-safe; index.node.ts,
//   under Node) with code splitting: one chunk they share, and the connector-config validators
//   in a chunk of their own, loaded on first use (scripts/size.mjs). Every dependency and Node
//   built-in stays an import. Not minified, so a stack trace reads as the source does, except the
//   validators generated from the spec, which nobody reads. No `keepNames`: nothing reads a
//   function's `name` (errors name themselves by their static `kind`), and its wrappers would
//   add 2 kB (gzip) to every browser app bundling the client (scripts/size.mjs).
// - Declarations: tsc emits them.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(pkg, 'dist');
/** The validators generated from the spec (src/internal/generated/), imported as siblings in dist/. */
const GENERATED = ['validators', 'connector-configs'];
const generatedImport = new RegExp(`^\\./generated/(${GENERATED.join('|')})\\.js$`);

/** The code we write, bundled; the generated validators stay imports of dist/<name>.js. */
async function buildEntries() {
  await build({
    absWorkingDir: pkg,
    entryPoints: ['src/index.ts', 'src/index.node.ts'],
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    legalComments: 'none',
    chunkNames: 'shared-[hash]',
    logLevel: 'warning',
    plugins: [
      {
        name: 'generated-as-siblings',
        setup(b) {
          b.onResolve({ filter: generatedImport }, (args) => ({
            path: `./${generatedImport.exec(args.path)[1]}.js`,
            external: true,
          }));
        },
      },
    ],
  });
}

/** Ajv standalone code generated from the spec, which nobody reads: minified. */
async function buildGenerated() {
  await build({
    absWorkingDir: pkg,
    entryPoints: GENERATED.map((name) => `src/internal/generated/${name}.ts`),
    outdir: dist,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    packages: 'external',
    minify: true,
    legalComments: 'none',
    banner: {
      js: '// generated from the spec (packages/client/scripts/generate-validators.mjs), minified',
    },
    logLevel: 'warning',
  });
}

/** tsc's declarations, failing on any type error as `tsc` does. */
function emitDeclarations(outDir) {
  const configPath = join(pkg, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, pkg);
  const program = ts.createProgram(parsed.fileNames, {
    ...parsed.options,
    outDir,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) {
    const host = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => pkg,
      getNewLine: () => '\n',
    };
    throw new Error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  }
}

rmSync(dist, { recursive: true, force: true });
emitDeclarations(dist);
await Promise.all([buildEntries(), buildGenerated()]);
