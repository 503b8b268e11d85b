// Generates src/internal/generated/validators.ts: Ajv standalone validators compiled from the
// bundled spec (@kis/spec/openapi.json). Never edit the output by hand; run `pnpm generate`.
//
// `node scripts/generate-validators.mjs --check` regenerates in memory and exits 1 when the
// committed file differs (test/generated.test.ts runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { fullFormats, fastFormats } = require('ajv-formats/dist/formats');
const { DATE_TIME_PATTERN } = await import('@kis/spec/formats');

export const TARGET = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'internal',
  'generated',
  'validators.ts',
);

/** Component schemas that get a validator, and the exported function names. */
export const VALIDATORS = {
  validateIngestionRequest: 'IngestionRequest',
};

// Annotations only: they do not validate, and dropping them keeps enums' embedded schema small.
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'default']);
const SCHEMA_ID = 'kis-openapi';

/** Copy of a schema without annotations, with `#/components/schemas/X` refs turned into `#/$defs/X`. */
function prepare(node, inLiteral = false) {
  if (Array.isArray(node)) return node.map((n) => prepare(n, inLiteral));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (inLiteral) {
      out[key] = prepare(value, true);
      continue;
    }
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue; // x-kis-* extensions do not validate
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace(/^#\/components\/schemas\//, '#/$defs/');
    } else if (key === 'properties' || key === '$defs' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prepare(v)]));
    } else {
      out[key] = prepare(value, key === 'enum' || key === 'const');
    }
  }
  return out;
}

/**
 * ajv-formats' definitions, taken as regular expressions so that Ajv inlines them into the
 * standalone code (no runtime import of the whole formats module): the "full" definition when it
 * is a RegExp, else the "fast" one (for date-time/date/time: the RFC 3339 shape without the
 * calendar check), except date-time, which takes @kis/spec/formats' pattern: the shape deployed
 * servers accept. `binary` (OpenAPI file parts) accepts anything.
 */
function formatsFromAjvFormats() {
  const out = { binary: true };
  for (const name of Object.keys(fullFormats)) {
    const full = fullFormats[name];
    const fast = fastFormats[name];
    const pick = [full, full?.validate, fast, fast?.validate].find((f) => f instanceof RegExp);
    if (pick) out[name] = pick;
  }
  // date-time as deployed servers read it (ISO 8601, offset optional), not RFC 3339 only
  out['date-time'] = DATE_TIME_PATTERN;
  return out;
}

function bundlePath() {
  return require.resolve('@kis/spec/openapi.json');
}

/** Generate the module text from the bundle (pure: same bundle, same text). */
export function generate(bundle = JSON.parse(readFileSync(bundlePath(), 'utf8'))) {
  const schemas = bundle?.components?.schemas;
  if (!schemas) throw new Error('the bundled spec has no components.schemas');
  for (const name of Object.values(VALIDATORS)) {
    if (!schemas[name]) throw new Error(`the bundled spec has no components.schemas.${name}`);
  }
  const ajv = new Ajv2020({
    code: { esm: true, source: true, lines: false, optimize: true },
    allErrors: false,
    strict: true,
    allowUnionTypes: true,
    // the spec uses neither $dynamicRef nor unevaluated*: skip their bookkeeping (smaller, faster code)
    dynamicRef: false,
    unevaluated: false,
    messages: false,
    inlineRefs: false,
    formats: formatsFromAjvFormats(),
  });
  ajv.addSchema({
    $id: SCHEMA_ID,
    $defs: Object.fromEntries(Object.entries(schemas).map(([k, v]) => [k, prepare(v)])),
  });
  const refs = Object.fromEntries(
    Object.entries(VALIDATORS).map(([fn, name]) => [fn, `${SCHEMA_ID}#/$defs/${name}`]),
  );
  let code = standaloneCode(ajv, refs);
  // Ajv emits CommonJS require() for runtime helpers even in ESM mode: turn them into imports.
  const imports = [];
  const modules = new Map();
  code = code.replace(/require\("([^"]+)"\)/g, (_, mod) => {
    const spec = mod.endsWith('.js') ? mod : `${mod}.js`;
    if (!modules.has(spec)) {
      const local = `__ajvRuntime${modules.size}`;
      modules.set(spec, local);
      imports.push(`import ${local} from '${spec}';`);
    }
    return modules.get(spec);
  });
  code = code.replace(/^"use strict";/, '');
  const version = bundle?.info?.version ?? 'unknown';
  return [
    '// generated — do not edit.',
    '// Ajv standalone validators compiled from @kis/spec (openapi/openapi.yaml, bundled by redocly)',
    `// by packages/client/scripts/generate-validators.mjs (spec version label: ${version}).`,
    '// Change the spec and run `pnpm --filter @kis/client generate`.',
    '// @ts-nocheck',
    '/* biome-ignore-all lint: generated code */',
    ...imports,
    code,
    '',
  ].join('\n');
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const next = generate();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(TARGET, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== next) {
      console.error(
        `${TARGET} is stale: the spec changed without regenerating.\nRun \`pnpm --filter @kis/client generate\`.`,
      );
      process.exit(1);
    }
    console.log('validators are up to date with the bundled spec');
  } else {
    writeFileSync(TARGET, next);
    console.log(`wrote ${TARGET} (${next.length} bytes)`);
  }
}
