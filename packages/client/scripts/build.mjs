// Builds dist/ as a few files: an installed file takes whole 4 KiB blocks, and the client's
// install is budgeted (at most 4 MB on disk, tests/packaging/README.md); as tsc wrote it, 126
// small files took 940 KiB on disk for 590 kB of code and declarations.
//
// - JavaScript: esbuild bundles the two entry points (index.ts, browser-safe; index.node.ts,
//   under Node) with code splitting: the chunks they share, and the connector-config validators,
//   `kis.doctor()` and the search and scoping calls in chunks of their own, loaded on first use
//   (scripts/size.mjs). Every dependency and Node
//   built-in stays an import. Not minified, so a stack trace reads as the source does, except the
//   validators generated from the spec, which nobody reads. No `keepNames`: nothing reads a
//   function's `name` (errors name themselves by their static `kind`), and its wrappers would
//   add 2 kB (gzip) to every browser app bundling the client (scripts/size.mjs).
// - Declarations: tsc emits them, rollup-plugin-dts bundles what the public entry reaches into
//   dist/index.d.ts (both entry points export the same API).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rollup } from 'rollup';
// rollup-plugin-dts: the widely used declaration bundler that keeps up with TypeScript releases
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(pkg, 'dist');
const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
/** A dependency's or a Node built-in's import: left as it is in both bundles. */
const isExternal = (id) =>
  id.startsWith('node:') || dependencies.some((d) => id === d || id.startsWith(`${d}/`));
/** The validators generated from the spec (src/internal/generated/), siblings in dist/. */
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

/** tsc's declarations into a temporary folder, failing on any type error as `tsc` does. */
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

async function bundleDeclarations(typesDir) {
  const bundle = await rollup({
    input: join(typesDir, 'index.d.ts'),
    external: isExternal,
    plugins: [dts()],
    onwarn(warning) {
      throw new Error(`rollup-plugin-dts: ${warning.message}`);
    },
  });
  await bundle.write({ file: join(dist, 'index.d.ts'), format: 'es' });
  await bundle.close();
}

rmSync(dist, { recursive: true, force: true });
const typesDir = mkdtempSync(join(tmpdir(), 'kis-client-types-'));
try {
  emitDeclarations(typesDir);
  await bundleDeclarations(typesDir);
} finally {
  rmSync(typesDir, { recursive: true, force: true });
}
await Promise.all([buildEntries(), buildGenerated()]);
