// Bundles the `kis` binary (dist/bin.js, compiled by tsc, and what it imports) into dist/bundle/
// with esbuild: a command then loads a few files instead of about a hundred modules, which took
// 30-40 ms of every command's start (README.md, "Start-up"). The workspace's code and what every
// command runs on (commander, the client's HTTP stack) are bundled; the packages a command loads
// on demand stay outside and are resolved at run time from this package's `dependencies`.
// dist/index.js (the `run` export for programs) stays tsc's output. Not minified, without source
// maps: stack traces keep the functions' names, and each module is marked with its source path.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const cli = readJson(join(root, 'package.json'));
const client = readJson(
  createRequire(join(root, 'package.json')).resolve('@kis/client/package.json'),
);

/**
 * This package's dependencies bundled into the binary (with the client's own dependencies, which
 * are not this package's); every other one is loaded from node_modules.
 */
const BUNDLED = new Set(['@kis/client', '@kis/spec', 'commander']);
const external = Object.keys(cli.dependencies).filter((name) => !BUNDLED.has(name));

const fail = (message) => {
  console.error(`bundle: ${message}`);
  process.exit(1);
};

// The client's code runs from the bundle, so the packages it loads on demand (file extraction,
// globs, JSONC) resolve from here: they must be the versions the client pins and was tested with.
for (const name of external) {
  const pinned = client.dependencies?.[name];
  if (pinned !== undefined && pinned !== cli.dependencies[name]) {
    fail(
      `${name} is ${cli.dependencies[name]} here but ${pinned} in @kis/client; pin the same version`,
    );
  }
}

/**
 * undici's HTTP/2 client loads `node:http2` (and with it `node:tls`), ~5 ms, in every command that
 * sends a request, though only a dispatcher made with `allowH2` uses it and kis makes none. Here
 * that import fails, and undici takes the fallback it has for runtimes without `node:http2`. Only
 * undici's client-h2 module is affected (a test checks that a request loads neither module).
 */
let http2LeftOut = false;
const withoutHttp2 = {
  name: 'without-http2',
  setup(b) {
    b.onResolve({ filter: /^node:http2$/ }, ({ importer }) => {
      if (!/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(importer)) return undefined;
      http2LeftOut = true;
      return { path: 'node:http2', namespace: 'without-http2' };
    });
    b.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
      contents: "throw new Error('node:http2 is left out of the kis binary');",
      loader: 'js',
    }));
  },
};

// chunk names carry a content hash: last build's chunks would stay behind and be published
rmSync(join(root, 'dist/bundle'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['dist/bin.js'],
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: external.flatMap((name) => [name, `${name}/*`]),
  // bundled CommonJS (commander, undici) calls `require` for Node's modules
  banner: {
    js: "import { createRequire as __kisCreateRequire } from 'node:module'; const require = __kisCreateRequire(import.meta.url);",
  },
  plugins: [withoutHttp2],
  metafile: true,
  logLevel: 'warning',
});

if (!http2LeftOut) fail("undici's client-h2.js no longer imports node:http2; review withoutHttp2");

// Every import left outside must be a Node built-in or a dependency declared here. `node:`
// names count even when this Node lacks them (undici's SQLite cache names `node:sqlite`).
const isNodeModule = (path) => path.startsWith('node:') || isBuiltin(path);
const packageOf = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  for (const { path, external: outside } of output.imports) {
    if (outside && !isNodeModule(path) && !external.includes(packageOf(path))) {
      fail(`${file} imports ${path}, which is not a dependency of @kis/cli`);
    }
  }
}
