// Writes the per-source connector configuration and credential schemas of the OpenAPI document
// (openapi/components/schemas/*ConnectorConfig.yaml, *CredentialJson.yaml and the two maps by
// source) from a facts file read off deployed servers' public source: for each source value, the
// fields its admin interface asks for, the parameters its connector takes, whether it refuses
// unknown keys, and the credential keys. Run it again when deployed servers change:
//
//   node scripts/import-connector-fields.mjs path/to/connector-fields.json
//
// The output is then reviewed and committed like any hand-written part of the spec; `pnpm lint`
// and `pnpm generate` follow.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = join(root, 'openapi', 'components', 'schemas');
const factsPath = process.argv[2];
if (!factsPath) {
  console.error('usage: node scripts/import-connector-fields.mjs CONNECTOR_FIELDS_JSON');
  process.exit(2);
}
const facts = JSON.parse(readFileSync(factsPath, 'utf8'));
const sourceOrder = readDocumentSources();

/** The spec's DocumentSource values, in its order (the maps follow it). */
function readDocumentSources() {
  const text = readFileSync(join(schemasDir, 'DocumentSource.yaml'), 'utf8');
  const list = text.slice(text.indexOf('\nenum:') + 6, text.indexOf('\nexamples:'));
  return [...list.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]);
}

const pascal = (source) =>
  source
    .split('_')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');

const nullable = (backendType) => typeof backendType === 'string' && /\bNone\b/.test(backendType);

/** A value is "set" when present and not null, false, empty text or an empty list. */
const isSet = (name) => ({
  required: [name],
  properties: { [name]: { not: { enum: [null, false, '', []] } } },
});
const notSet = (name) => ({ not: isSet(name) });

function withNull(schema, allowNull) {
  if (!allowNull) return schema;
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** The JSON Schema of one interface field, by its kind. */
function fieldType(field) {
  const allowNull = nullable(field.backend_type);
  switch (field.kind) {
    case 'string':
      return withNull({ type: 'string' }, allowNull);
    case 'string[]':
      return withNull({ type: 'array', items: { type: 'string' } }, allowNull);
    case 'boolean':
      return withNull({ type: 'boolean' }, allowNull);
    case 'integer':
      return withNull({ type: 'integer' }, allowNull);
    case 'enum':
      return {
        type: allowNull ? ['string', 'null'] : 'string',
        enum: [...field.options, ...(allowNull ? [null] : [])],
      };
    case 'enum[]':
      return withNull({ type: 'array', items: { type: 'string', enum: field.options } }, allowNull);
    case 'file':
      // the interface uploads the files first and submits where they are stored
      return field.submitted_as ? { type: 'string' } : { type: 'array', items: { type: 'string' } };
    case 'object':
      return field.is_list
        ? withNull(
            {
              type: 'array',
              items: {
                type: 'object',
                required: field.item_keys,
                properties: Object.fromEntries(field.item_keys.map((k) => [k, { type: 'string' }])),
              },
            },
            allowNull,
          )
        : withNull({ type: 'object' }, allowNull);
    default:
      throw new Error(`unknown field kind ${field.kind}`);
  }
}

/** The JSON Schema of a connector parameter the interface does not show, by its Python type. */
function paramType(param) {
  const t = param.type ?? '';
  const allowNull = nullable(t);
  const base = t.replace(/\s*\|\s*None\b/, '').trim();
  let schema;
  if (/^list\[/.test(base)) schema = { type: 'array', items: itemType(base.slice(5, -1)) };
  else if (/^dict\b/.test(base)) schema = { type: 'object' };
  else schema = itemType(base);
  return withNull(schema, allowNull);
}

function itemType(t) {
  if (t === 'str' || t === 'Path | str') return { type: 'string' };
  if (t === 'int') return { type: 'integer' };
  if (t === 'float') return { type: 'number' };
  if (t === 'bool') return { type: 'boolean' };
  return {};
}

function describeDefault(value) {
  return JSON.stringify(value);
}

function fieldSchema(field, groupOf) {
  const schema = { ...fieldType(field), title: field.label };
  const parts = [];
  const inGroup = groupOf.get(field.name);
  if (field.required) parts.push('Required by the admin interface.');
  else if (inGroup) {
    parts.push(
      `Belongs to the "${inGroup.option.label}" choice of "${inGroup.group.label}"; give it only with that choice.`,
    );
  } else parts.push('Optional.');
  if (field.hidden) parts.push('The admin interface fills it in without showing it.');
  if (field.advanced) parts.push('An advanced setting of the admin interface.');
  let dflt;
  if ('default' in field) dflt = field.default;
  else if (field.prefilled && field.initial_value !== undefined && field.initial_value !== null)
    dflt = field.initial_value;
  if (dflt !== undefined) {
    schema.default = dflt;
    parts.push(`The admin interface starts from ${describeDefault(dflt)}.`);
  }
  if (field.backend_required && !field.required) {
    parts.push('The server needs it to build the connector, though its form may omit it.');
  }
  if (field.submitted_as) {
    parts.push('The admin interface uploads a file and submits where it is stored under this key.');
  }
  schema.description = parts.join(' ');
  schema['x-kis-kind'] = field.kind;
  if (field.advanced) schema['x-kis-advanced'] = true;
  if (field.hidden) schema['x-kis-hidden'] = true;
  return schema;
}

/**
 * One `oneOf` per exclusive choice of the interface (its tabs). A choice holds when one of its own
 * fields is set and none of the other choices' fields is; the default choice also holds when
 * nothing of the group is set, unless another choice is the one that means "none of these"
 * (a choice with no field of its own), in which case that one does.
 */
function groupSchemas(groups, fieldNames) {
  const out = [];
  for (const group of groups ?? []) {
    const own = group.options.map((o) => o.fields.filter((f) => fieldNames.has(f)));
    const all = [...new Set(own.flat())];
    const emptyChoice = group.options.findIndex((_, i) => own[i].length === 0);
    const byNothing =
      emptyChoice >= 0
        ? emptyChoice
        : group.options.findIndex((o) => o.value === group.default_option);
    if (own.filter((f) => f.length === 0).length > 1) continue; // two choices no field tells apart
    const branches = group.options.map((option, i) => {
      const others = all.filter((f) => !own[i].includes(f));
      const conditions = others.map(notSet);
      if (i !== byNothing) {
        conditions.push(own[i].length === 1 ? isSet(own[i][0]) : { anyOf: own[i].map(isSet) });
      }
      const branch = { title: option.label, 'x-kis-option': option.value, 'x-kis-fields': own[i] };
      if (conditions.length > 0) branch.allOf = conditions;
      return branch;
    });
    out.push({
      title: group.label,
      description: `Exactly one choice of "${group.label}" (tabs in the admin interface); with none of its fields given, "${group.options[byNothing]?.label}".`,
      'x-kis-group': group.name,
      'x-kis-default-option': group.default_option,
      oneOf: branches,
    });
  }
  return out;
}

function configSchema(source, info) {
  const name = `${pascal(source)}ConnectorConfig`;
  const properties = {};
  const required = [];
  const groupOf = new Map();
  for (const group of info.groups ?? []) {
    for (const option of group.options) {
      for (const f of option.fields) groupOf.set(f, { group, option });
    }
  }
  for (const field of info.config_fields) {
    const key = field.submitted_as ?? field.name;
    if (field.backend_accepts === false && !field.submitted_as) continue;
    properties[key] = fieldSchema(field, groupOf);
    if (field.required) required.push(key);
  }
  const notInInterface = new Set(info.backend_params_not_in_interface ?? []);
  for (const param of info.backend_params ?? []) {
    if (!notInInterface.has(param.name) || param.name in properties) continue;
    const schema = { ...paramType(param), title: param.name };
    schema.description =
      'Taken by the connector but not asked for by the admin interface' +
      (param.default !== undefined
        ? `; the server uses ${describeDefault(param.default)} when it is not given.`
        : '.');
    if (param.default !== undefined && param.default !== null) schema.default = param.default;
    schema['x-kis-advanced'] = true;
    schema['x-kis-not-in-interface'] = true;
    properties[param.name] = schema;
  }
  const serverRequired = (info.backend_params ?? [])
    .filter((p) => p.required && p.name in properties)
    .map((p) => p.name);
  const refusesUnknown = info.accepts_unknown_keys === false;
  const schema = {
    type: 'object',
    title: name,
    description: describeConfig(source, info, refusesUnknown, Object.keys(properties).length),
  };
  if (Object.keys(properties).length > 0) schema.properties = properties;
  if (required.length > 0) schema.required = required;
  if (refusesUnknown) schema.additionalProperties = false;
  const groups = groupSchemas(info.groups, new Set(Object.keys(properties)));
  if (groups.length > 0) schema.allOf = groups;
  if (serverRequired.length > 0) schema['x-kis-server-required'] = serverRequired;
  // how the admin interface creates the source's connectors: the default `input_type`
  if (info.input_type) schema['x-kis-input-type'] = info.input_type;
  return { name, schema };
}

function describeConfig(source, info, refusesUnknown, count) {
  const parts = [`\`connector_specific_config\` of a \`${source}\` connector.`];
  if (count === 0) parts.push('The source takes no configuration: send an empty object.');
  else
    parts.push(
      'The fields are the ones the deployed admin interface asks for, plus the parameters the connector takes without asking.',
    );
  if (refusesUnknown)
    parts.push(
      'Deployed servers build the connector from these keys at association and refuse a key it does not take (400).',
    );
  else parts.push('Other keys are passed on to the connector.');
  if (info.admin_interface === false) parts.push('The admin interface does not offer this source.');
  return parts.join(' ');
}

function credentialSchema(source, info) {
  const fields = info.credential_fields ?? [];
  const alternatives = info.credential_alternative_key_sets;
  if (fields.length === 0 && !alternatives) return undefined;
  const name = `${pascal(source)}CredentialJson`;
  const properties = {};
  const keys = new Set(fields.map((f) => f.name));
  for (const set of alternatives ?? []) for (const k of set) keys.add(k);
  for (const key of keys) {
    const field = fields.find((f) => f.name === key);
    properties[key] = {
      type: field?.kind === 'boolean' ? 'boolean' : 'string',
      title: key,
      description: field?.required ? 'Required.' : 'Optional.',
    };
  }
  const schema = {
    type: 'object',
    title: name,
    description: `\`credential_json\` of a \`${source}\` credential: the keys the deployed admin interface asks for. Servers store the object as given.`,
    properties,
  };
  const required = fields.filter((f) => f.required).map((f) => f.name);
  if (alternatives) {
    schema.description += ' Either set of keys below is accepted.';
    schema.oneOf = alternatives.map((set) => ({ required: set }));
  } else if (required.length > 0) schema.required = required;
  return { name, schema };
}

function write(name, schema) {
  writeFileSync(join(schemasDir, `${name}.yaml`), stringify(schema, { lineWidth: 100 }));
}

const configMap = { type: 'object', title: 'ConnectorConfigBySource', properties: {} };
const credentialMap = { type: 'object', title: 'CredentialJsonBySource', properties: {} };
for (const source of sourceOrder) {
  const info = facts.sources[source];
  if (!info) continue; // a value the facts do not cover (an older release's): no schema
  const config = configSchema(source, info);
  write(config.name, config.schema);
  configMap.properties[source] = { $ref: `./${config.name}.yaml` };
  const credential = credentialSchema(source, info);
  if (credential) {
    write(credential.name, credential.schema);
    credentialMap.properties[source] = { $ref: `./${credential.name}.yaml` };
  }
}
configMap.description =
  'The `connector_specific_config` schema of each source, by source value. Servers accept any object when a connector is created and check it against the source at association (`docs/connector-configs.md`); clients check it against this map before anything is sent.';
credentialMap.description =
  'The `credential_json` keys the deployed admin interface asks for, by source value (`docs/connector-configs.md`). Clients check credentials against this map before anything is sent; servers store them as given.';
write('ConnectorConfigBySource', configMap);
write('CredentialJsonBySource', credentialMap);
console.log(
  `wrote ${Object.keys(configMap.properties).length} connector configs and ${Object.keys(credentialMap.properties).length} credential schemas`,
);
