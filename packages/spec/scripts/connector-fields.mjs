// The connector configuration and credential keys of every source, read once from the bundled
// spec's ConnectorConfigBySource and CredentialJsonBySource schemas into a compact table
// (dist/connector-fields.json, exported as @kis/spec/connector-fields.json): what the CLI's
// `connector fields` and `--set`, the web console's form and docs/connector-configs.md show.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');

function kindOf(schema) {
  if (schema['x-kis-kind']) return schema['x-kis-kind'];
  const types = [schema.type ?? []].flat().filter((t) => t !== 'null');
  const type = types[0];
  if (type === 'array') return `${schema.items?.type ?? 'string'}[]`;
  return type ?? 'string';
}

function field(name, schema, required, serverRequired) {
  const types = [schema.type ?? []].flat();
  const options = (schema.enum ?? schema.items?.enum)?.filter((v) => v !== null);
  const out = { name, kind: kindOf(schema), label: schema.title ?? name };
  if (required) out.required = true;
  if (serverRequired && !required) out.serverRequired = true;
  if (schema.default !== undefined) out.default = schema.default;
  if (options) out.options = options;
  if (types.includes('array')) out.list = true;
  if (types.includes('null') || schema.enum?.includes(null)) out.nullable = true;
  if (schema['x-kis-advanced']) out.advanced = true;
  if (schema['x-kis-hidden']) out.hidden = true;
  if (schema['x-kis-not-in-interface']) out.notInInterface = true;
  if (schema.items?.type === 'object') out.itemKeys = Object.keys(schema.items.properties ?? {});
  return out;
}

/** The table, from a bundled document. */
export function connectorFields(spec) {
  const schemas = spec.components.schemas;
  const resolve = (node) => schemas[node.$ref.split('/').pop()];
  const sources = {};
  for (const [source, ref] of Object.entries(schemas.ConnectorConfigBySource.properties)) {
    const schema = resolve(ref);
    const required = new Set(schema.required ?? []);
    const serverRequired = new Set(schema['x-kis-server-required'] ?? []);
    const entry = {
      closed: schema.additionalProperties === false,
      ...(schema['x-kis-input-type'] ? { inputType: schema['x-kis-input-type'] } : {}),
      fields: Object.entries(schema.properties ?? {}).map(([name, s]) =>
        field(name, s, required.has(name), serverRequired.has(name)),
      ),
      groups: (schema.allOf ?? [])
        .filter((g) => g.oneOf)
        .map((g) => ({
          name: g['x-kis-group'],
          label: g.title,
          default: g['x-kis-default-option'],
          options: g.oneOf.map((o) => ({
            value: o['x-kis-option'],
            label: o.title,
            fields: o['x-kis-fields'] ?? [],
          })),
        })),
    };
    const credentialRef = schemas.CredentialJsonBySource.properties[source];
    if (credentialRef) {
      const c = resolve(credentialRef);
      entry.credential = {
        keys: Object.keys(c.properties ?? {}).map((name) => ({
          name,
          ...((c.required ?? []).includes(name) ? { required: true } : {}),
        })),
        ...(c.oneOf ? { alternatives: c.oneOf.map((o) => o.required) } : {}),
      };
    }
    sources[source] = entry;
  }
  return { sources };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const spec = JSON.parse(readFileSync(join(pkg, 'dist', 'openapi.json'), 'utf8'));
  const out = join(pkg, 'dist', 'connector-fields.json');
  writeFileSync(out, `${JSON.stringify(connectorFields(spec), null, 1)}\n`);
  console.log(`wrote ${out}`);
}
