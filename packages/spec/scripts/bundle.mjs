// Bundles the multi-file document under /openapi into one JSON and one YAML file in dist/.
// Everything downstream (types, validators, the emulator, Prism) reads these files.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
const redocly = join(pkg, 'node_modules', '.bin', 'redocly');
mkdirSync(join(pkg, 'dist'), { recursive: true });

for (const ext of ['json', 'yaml']) {
  const result = spawnSync(
    redocly,
    [
      'bundle',
      join(root, 'openapi', 'openapi.yaml'),
      '--config',
      join(root, 'redocly.yaml'),
      '--ext',
      ext,
      '--output',
      join(pkg, 'dist', `openapi.${ext}`),
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (result.status !== 0) {
    console.error(`redocly bundle failed for openapi.${ext}`);
    process.exit(result.status ?? 1);
  }
}
