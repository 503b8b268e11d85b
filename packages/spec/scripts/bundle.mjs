// Bundles the multi-file document under /openapi into one JSON and one YAML file in dist/, then
// renders the bundled JSON into a single-file HTML API reference (dist/reference.html) with
// `redocly build-docs --inlineBundle`: Redoc's scripts are embedded, so the page works offline.
// Redoc's "API docs by Redocly" badge still points its logo at Redocly's CDN (no option turns it
// off); a Content-Security-Policy in the page keeps every fetch on the page's own origin, so the
// browser never asks the CDN (the badge hides its logo when the image fails).
// Everything downstream (types, validators, the emulator, Prism) reads these files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
const redocly = join(pkg, 'node_modules', '.bin', 'redocly');
const dist = join(pkg, 'dist');
mkdirSync(dist, { recursive: true });

function run(args, what) {
  const result = spawnSync(redocly, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.status !== 0) {
    console.error(`redocly failed to build ${what}`);
    process.exit(result.status ?? 1);
  }
}

for (const ext of ['json', 'yaml']) {
  run(
    [
      'bundle',
      join(root, 'openapi', 'openapi.yaml'),
      '--config',
      join(root, 'redocly.yaml'),
      '--ext',
      ext,
      '--output',
      join(dist, `openapi.${ext}`),
    ],
    `dist/openapi.${ext}`,
  );
}

// The HTML reference, from the bundle just written. --inlineBundle embeds Redoc instead of
// loading it from Redocly's CDN at view time.
run(
  [
    'build-docs',
    join(dist, 'openapi.json'),
    '--config',
    join(root, 'redocly.yaml'),
    '--inlineBundle',
    '--title',
    'Knowledge Indexing Service API reference',
    '--output',
    join(dist, 'reference.html'),
  ],
  'dist/reference.html',
);

// Offline guarantees: no external script or stylesheet, and a CSP that allows nothing remote.
const referencePath = join(dist, 'reference.html');
const html = readFileSync(referencePath, 'utf8');
const external = /<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i.exec(html);
if (external !== null) {
  console.error(`dist/reference.html loads a remote resource: ${external[0]}`);
  process.exit(1);
}
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
].join('; ');
if (!/<head>/i.test(html)) {
  console.error('dist/reference.html has no <head> to put the Content-Security-Policy in');
  process.exit(1);
}
// An inline icon (img-src allows data:), so the browser asks the emulator for no /favicon.ico.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231d4ed8'/%3E%3Cpath d='M5 3v10M11 4 6 8.5 11 12' stroke='white' stroke-width='2' fill='none'/%3E%3C/svg%3E";
writeFileSync(
  referencePath,
  html.replace(
    /<head>/i,
    `<head>\n  <meta http-equiv="Content-Security-Policy" content="${CSP}" />\n  <link rel="icon" href="${ICON}" />`,
  ),
);
