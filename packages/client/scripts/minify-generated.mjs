// Minifies the validators generated from the spec in dist/ after tsc: generated code that nobody
// reads there, 640 kB as tsc prints it and 310 kB minified, in a package whose installed size is
// budgeted (README, "Install size"). The rest of dist/ stays as tsc writes it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const generated = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'dist',
  'internal',
  'generated',
);
for (const name of ['validators.js', 'connector-configs.js']) {
  const file = join(generated, name);
  const { code } = transformSync(readFileSync(file, 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'es2022',
    legalComments: 'none',
  });
  writeFileSync(
    file,
    `// generated from the spec (packages/client/scripts/generate-validators.mjs), minified\n${code}`,
  );
}
