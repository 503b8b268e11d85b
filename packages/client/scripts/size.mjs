// Size budget of the browser-safe core (`@kis/client`, dist/index.js), min+gzip.
//
// size-limit 14 needs Node ≥ 22 (it imports `glob` from node:fs/promises, missing on Node 20), so
// this script measures the same way with esbuild (bundle + minify, platform=browser, ESM, code
// splitting as an app bundler does) and zlib gzip level 9.
//
// "Eager" = the entry chunk plus every chunk it imports statically: what `import … from
// '@kis/client'` loads. Chunks reached only by dynamic import (the connector-config validators)
// load on first use and are reported separately.
// Exit 1 when the eager size is over the budget or when the bundle pulls in a Node built-in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// 40.5 kB (SI, as size-limit counts): the whole typed client (openapi-fetch, the transport, typed
// errors and their parsing, the request validators compiled from the spec, connector set-up, the
// calls that operate pairs after their creation and the bulk engine the web console uses) loads
// with `import '@kis/client'`, as one chunk: it was split into lazy parts while a command line's
// start-up was timed, which no longer shapes the design (ARCHITECTURE.md). It weighs 40.02 kB:
// recognising why a server refuses (editions, plans, releases, syncs, scopes: the servers' texts
// from the rule book) added 2.4 kB, the bulk engine as named parts 0.7 kB, the request gate queue
// workers ask before each request 0.1 kB, and the guards against losing pushed documents (what a
// prune would remove, prune_freq kept through updates, already_existed read by release,
// doc_updated_at stamps, a pair to push into) 1.55 kB: rule-book code reached from the entry lands
// in the eager chunk wherever it is called from, so a lazy chunk saves nothing. `verifyPair` is a
// chunk of its own (7 kB); its entry and names add 0.4 kB; the rule book's set and group update
// bodies and pair names 0.25 kB. Four chunks stay apart, loaded on first
// use: the per-source connector-config validators (26 kB, read when a connector or credential is
// created or checked), `kis.doctor()` (4.8 kB, with the key-model and prune checks), the search,
// document-set and user-group calls (2.7 kB, which apps that only ingest never make), and
// `verifyPair`.
export const BUDGET_BYTES = 40_500;

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function measure(entry = join(pkg, 'dist', 'index.js')) {
  const outdir = mkdtempSync(join(tmpdir(), 'kis-size-'));
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      splitting: true,
      outdir,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: pkg,
    });
    const outputs = result.metafile.outputs;
    const nodeInputs = Object.keys(result.metafile.inputs).filter((i) =>
      /^node:|^(fs|path|os|crypto|http|https|zlib|stream|url|util)$/.test(i),
    );
    const sizes = {};
    for (const file of Object.keys(outputs)) {
      if (!file.endsWith('.js')) continue;
      sizes[file] = {
        min: outputs[file].bytes,
        gzip: gzipSync(readFileSync(join(pkg, file)), { level: 9 }).length,
      };
    }
    const entryFile = Object.keys(outputs).find((f) => outputs[f].entryPoint);
    const eager = new Set();
    const visit = (f) => {
      if (eager.has(f)) return;
      eager.add(f);
      for (const imp of outputs[f].imports)
        if (imp.kind === 'import-statement' && outputs[imp.path]) visit(imp.path);
    };
    visit(entryFile);
    const sum = (files, key) => files.reduce((n, f) => n + sizes[f][key], 0);
    const eagerFiles = [...eager];
    const lazyFiles = Object.keys(sizes).filter((f) => !eager.has(f));
    return {
      budget: BUDGET_BYTES,
      eager: {
        min: sum(eagerFiles, 'min'),
        gzip: sum(eagerFiles, 'gzip'),
        files: eagerFiles.map((f) => basename(f)),
      },
      lazy: lazyFiles.map((f) => ({ file: basename(f), ...sizes[f] })),
      total: { min: sum(Object.keys(sizes), 'min'), gzip: sum(Object.keys(sizes), 'gzip') },
      nodeBuiltins: nodeInputs,
      externalImports: Object.values(outputs).flatMap((o) =>
        o.imports.filter((i) => i.external).map((i) => i.path),
      ),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const r = await measure();
  const kb = (n) => `${(n / 1000).toFixed(2)} kB`;
  console.log(`@kis/client core (browser, esbuild min + gzip -9):`);
  console.log(
    `  eager (import '@kis/client'): ${kb(r.eager.gzip)} gzip, ${kb(r.eager.min)} min  [budget ${kb(r.budget)}]`,
  );
  for (const l of r.lazy)
    console.log(`  lazy chunk ${l.file}: ${kb(l.gzip)} gzip, ${kb(l.min)} min`);
  console.log(`  everything: ${kb(r.total.gzip)} gzip, ${kb(r.total.min)} min`);
  let ok = true;
  if (r.nodeBuiltins.length || r.externalImports.length) {
    console.error(
      `  the core pulls in Node built-ins or externals: ${[...r.nodeBuiltins, ...r.externalImports].join(', ')}`,
    );
    ok = false;
  }
  if (r.eager.gzip > r.budget) {
    console.error(`  over budget by ${r.eager.gzip - r.budget} bytes`);
    ok = false;
  }
  process.exit(ok ? 0 : 1);
}
