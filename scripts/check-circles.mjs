// Fails when any package or app imports itself in a circle (ARCHITECTURE.md, "What may import
// what"), with dpdm: type-only imports count too, since a circle of types is still a knot to read.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const dpdm = join(root, 'node_modules', '.bin', 'dpdm');
const places = ['packages', 'apps', 'tests'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => join(group, name))
    .filter((dir) => existsSync(join(root, dir, 'src'))),
);
let circles = 0;
for (const dir of places) {
  const result = spawnSync(
    dpdm,
    ['--no-warning', '--no-tree', '--exit-code', 'circular:1', `${dir}/src/**/*.{ts,tsx}`],
    { cwd: root, encoding: 'utf8' },
  );
  if (result.status === 0) continue;
  circles++;
  const found = result.stdout.slice(result.stdout.indexOf('Circular Dependencies'));
  console.error(`${dir}: import circle\n${found.trim()}`);
}
console.log(
  `import circles: ${circles === 0 ? 'none' : `${circles} place(s) with circles`} in ${places.length} packages and apps`,
);
process.exit(circles === 0 ? 0 : 1);
