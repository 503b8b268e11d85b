// Generates src/internal/generated/: Ajv standalone validators compiled from the bundled spec
// (@kis/spec/openapi.json) — validators.ts for request bodies (first error only, fast), and
// connector-configs.ts for connector configs and credentials by source (every error, with the
// keys and exclusive groups each source has, for did-you-mean hints). Never edit the output by
// hand; run `pnpm generate`.
//
// `node scripts/generate-validators.mjs --check` regenerates in memory and exits 1 when a
// committed file differs (test/generated.test.ts runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { fullFormats, fastFormats } = require('ajv-formats/dist/formats');
const { DATE_TIME_PATTERN } = await import('@kis/rules');

const GENERATED = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'internal',
  'generated',
);
export const TARGET = join(GENERATED, 'validators.ts');
export const CONFIGS_TARGET = join(GENERATED, 'connector-configs.ts');

/** Component schemas that get a validator, and the exported function names. */
export const VALIDATORS = {
  validateIngestionRequest: 'IngestionRequest',
};
/** The by-source maps checked with every error reported (connector-configs.ts). */
export const CONFIG_VALIDATORS = {
  validateConnectorConfigBySource: 'ConnectorConfigBySource',
  validateCredentialJsonBySource: 'CredentialJsonBySource',
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
 * calendar check), except date-time, which takes @kis/rules' pattern: the shape deployed
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

/** Ajv runtime helpers, inlined: `equal` for `enum`/`const` values that are lists or objects. */
const RUNTIME_HELPERS = {
  'ajv/dist/runtime/equal': [
    'function __jsonEqual(a, b) {',
    '  if (a === b) return true;',
    "  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;",
    '  if (Array.isArray(a) !== Array.isArray(b)) return false;',
    '  const ka = Object.keys(a);',
    '  if (ka.length !== Object.keys(b).length) return false;',
    '  return ka.every((k) => Object.hasOwn(b, k) && __jsonEqual(a[k], b[k]));',
    '}',
  ].join('\n'),
};

function readBundle() {
  return JSON.parse(readFileSync(bundlePath(), 'utf8'));
}

/** Standalone ESM code of `validators` (function name → component schema) over the bundle. */
function compile(bundle, validators, { allErrors }) {
  const schemas = bundle?.components?.schemas;
  if (!schemas) throw new Error('the bundled spec has no components.schemas');
  for (const name of Object.values(validators)) {
    if (!schemas[name]) throw new Error(`the bundled spec has no components.schemas.${name}`);
  }
  const ajv = new Ajv2020({
    code: { esm: true, source: true, lines: false, optimize: true },
    allErrors,
    strict: true,
    // exclusive groups (oneOf branches) require keys their parent schema defines
    strictRequired: false,
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
    Object.entries(validators).map(([fn, name]) => [fn, `${SCHEMA_ID}#/$defs/${name}`]),
  );
  let code = standaloneCode(ajv, refs);
  // Ajv emits require() for runtime helpers; the client must not depend on Ajv at run time, so
  // each helper the spec needs is inlined (an unknown one stops the generation).
  const imports = [];
  code = code.replace(/require\("([^"]+)"\)/g, (_, mod) => {
    const inline = RUNTIME_HELPERS[mod];
    if (!inline) throw new Error(`no inline version of Ajv's runtime helper ${mod}`);
    if (!imports.includes(inline)) imports.push(inline);
    return `{ default: ${inline.match(/function (\w+)/)[1]} }`;
  });
  // typed exports, so the published declarations name a validator's type, not Ajv's code
  code = code.replace(/export const (\w+) = (validate\d+);/g, 'export const $1: Validator = $2;');
  return { imports: [VALIDATOR_TYPE, ...imports], code: code.replace(/^"use strict";/, '') };
}

/** The type of an exported validator: Ajv's calling convention, its errors on `errors`. */
const VALIDATOR_TYPE = [
  'interface ValidatorError { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string }',
  'type Validator = ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };',
].join('\n');

function header(bundle, what) {
  const version = bundle?.info?.version ?? 'unknown';
  return [
    '// generated — do not edit.',
    `// ${what} compiled from @kis/spec (openapi/openapi.yaml, bundled by redocly)`,
    `// by packages/client/scripts/generate-validators.mjs (spec version label: ${version}).`,
    '// Change the spec and run `pnpm --filter @kis/client generate`.',
  ];
}

/** Generate validators.ts from the bundle (pure: same bundle, same text). */
export function generate(bundle = readBundle()) {
  const { imports, code } = compile(bundle, VALIDATORS, { allErrors: false });
  return [
    ...header(bundle, 'Ajv standalone validators'),
    '// @ts-nocheck',
    '/* biome-ignore-all lint: generated code */',
    ...imports,
    code,
    '',
  ].join('\n');
}

/**
 * Per source: the config keys the spec lists (for did-you-mean hints) and the exclusive groups,
 * by their index in the schema's `allOf` (where Ajv's schemaPath points), with each choice's
 * label and fields; and the credential keys.
 */
function sourceTable(bundle) {
  const schemas = bundle.components.schemas;
  const resolve = (node) => schemas[node.$ref.split('/').pop()];
  const configs = {};
  for (const [source, ref] of Object.entries(schemas.ConnectorConfigBySource.properties)) {
    const schema = resolve(ref);
    const groups = {};
    (schema.allOf ?? []).forEach((g, i) => {
      if (!g.oneOf) return;
      groups[i] = {
        label: g.title,
        options: g.oneOf.map((o) => ({ label: o.title, fields: o['x-kis-fields'] ?? [] })),
      };
    });
    configs[source] = {
      schema: ref.$ref.split('/').pop(),
      keys: Object.keys(schema.properties ?? {}),
      ...(schema['x-kis-input-type'] ? { inputType: schema['x-kis-input-type'] } : {}),
      ...(Object.keys(groups).length > 0 ? { groups } : {}),
    };
  }
  const credentials = {};
  for (const [source, ref] of Object.entries(schemas.CredentialJsonBySource.properties)) {
    credentials[source] = Object.keys(resolve(ref).properties ?? {});
  }
  return { configs, credentials };
}

/** The spec's enumerations of the values a `kis.yaml` entry takes (AccessType as clients send it). */
function enums(bundle) {
  const schemas = bundle.components.schemas;
  const lower = [...new Set(schemas.AccessType.enum.map((v) => v.toLowerCase()))];
  return {
    DocumentSource: schemas.DocumentSource.enum,
    InputType: schemas.InputType.enum,
    AccessType: lower,
  };
}

/** Generate connector-configs.ts from the bundle (pure). */
export function generateConfigs(bundle = readBundle()) {
  const { imports, code } = compile(bundle, CONFIG_VALIDATORS, { allErrors: true });
  const { configs, credentials } = sourceTable(bundle);
  return [
    ...header(bundle, 'Ajv standalone validators (every error) and key tables by source'),
    '// @ts-nocheck',
    '/* biome-ignore-all lint: generated code */',
    ...imports,
    '/** Per source: schema name, config keys, default input type, exclusive groups by `allOf` index. */',
    `export const CONFIG_TABLE: Record<string, { schema: string; keys: readonly string[]; inputType?: string; groups?: Record<string, { label: string; options: { label: string; fields: readonly string[] }[] }> }> = ${JSON.stringify(configs)};`,
    '/** Per source: the credential_json keys the spec lists. */',
    `export const CREDENTIAL_KEYS: Record<string, readonly string[]> = ${JSON.stringify(credentials)};`,
    '/** The enumerations a desired state (`kis.plan`) is checked against. */',
    `export const ENUMS: { DocumentSource: readonly string[]; InputType: readonly string[]; AccessType: readonly string[] } = ${JSON.stringify(enums(bundle))};`,
    code,
    '',
  ].join('\n');
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const bundle = readBundle();
  const outputs = [
    [TARGET, generate(bundle)],
    [CONFIGS_TARGET, generateConfigs(bundle)],
  ];
  let stale = false;
  for (const [target, next] of outputs) {
    if (process.argv.includes('--check')) {
      let current = '';
      try {
        current = readFileSync(target, 'utf8');
      } catch {
        // missing counts as stale
      }
      if (current !== next) {
        console.error(`${target} is stale: the spec changed without regenerating.`);
        stale = true;
      }
    } else {
      writeFileSync(target, next);
      console.log(`wrote ${target} (${next.length} bytes)`);
    }
  }
  if (stale) {
    console.error('Run `pnpm --filter @kis/client generate`.');
    process.exit(1);
  }
  if (process.argv.includes('--check'))
    console.log('validators are up to date with the bundled spec');
}
