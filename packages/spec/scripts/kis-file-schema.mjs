// Builds dist/kis-file.schema.json (@kis/spec/kis-file.schema.json), the JSON Schema of the
// `kis.yaml` file of `kis apply` and `kis export`, from openapi/kis-file.schema.yaml and the
// bundled spec: `$defs` that point into components/ are filled from the bundle, and each source's
// connector config (ConnectorConfigBySource) and credential keys (CredentialJsonBySource) are
// added under `if source is S`, so editors check `config` and `credential_json` by source.
// Credential schemas lose `required` and their alternatives: a file may leave secrets out (the
// server keeps them).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');

const ANNOTATION_ONLY = new Set(['examples', 'example']);

/** A component schema for JSON Schema use: no `x-` extensions or examples, refs into `$defs`. */
function clean(node) {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || ANNOTATION_ONLY.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace(/^#\/components\/schemas\//, '#/$defs/');
    } else if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
    } else {
      out[key] = clean(value);
    }
  }
  return out;
}

/** The schema, from the source file and a bundled document (pure). */
export function kisFileSchema(bundle, source = readSource()) {
  const components = bundle.components.schemas;
  const schema = structuredClone(source);
  const defs = schema.$defs;
  for (const [name, def] of Object.entries(defs)) {
    const file =
      typeof def.$ref === 'string' && def.$ref.match(/components\/schemas\/(\w+)\.yaml$/);
    if (file) defs[name] = clean(components[file[1]]);
    else walkRefs(def, defs, components);
  }
  const byName = (ref) => ref.$ref.split('/').pop();
  const configs = Object.entries(components.ConnectorConfigBySource.properties);
  const credentials = Object.entries(components.CredentialJsonBySource.properties);
  defs.Connector.allOf = configs.map(([src, ref]) => {
    defs[byName(ref)] = clean(components[byName(ref)]);
    return when(src, 'config', byName(ref));
  });
  defs.Credential.allOf = credentials.map(([src, ref]) => {
    const { required: _r, oneOf: _o, ...keys } = clean(components[byName(ref)]);
    defs[byName(ref)] = keys;
    return when(src, 'credential_json', byName(ref));
  });
  return schema;
}

/** Inline refs to component files found inside hand-written `$defs` (e.g. DocumentSource). */
function walkRefs(node, defs, components) {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    const file =
      key === '$ref' &&
      typeof value === 'string' &&
      value.match(/components\/schemas\/(\w+)\.yaml$/);
    if (file) {
      defs[file[1]] ??= clean(components[file[1]]);
      node.$ref = `#/$defs/${file[1]}`;
    } else walkRefs(value, defs, components);
  }
}

function when(source, property, def) {
  return {
    if: { properties: { source: { const: source } }, required: ['source'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
    then: { properties: { [property]: { $ref: `#/$defs/${def}` } } },
  };
}

function readSource() {
  return parse(readFileSync(join(root, 'openapi', 'kis-file.schema.yaml'), 'utf8'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bundle = JSON.parse(readFileSync(join(pkg, 'dist', 'openapi.json'), 'utf8'));
  const out = join(pkg, 'dist', 'kis-file.schema.json');
  writeFileSync(out, `${JSON.stringify(kisFileSchema(bundle), null, 1)}\n`);
  console.log(`wrote ${out}`);
}
