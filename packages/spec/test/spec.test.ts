// Checks the bundled document against the seed (the service's guide), table by table,
// and validates the seed's example payloads (and broken variants) with the bundled schemas.
import { readFileSync } from 'node:fs';
import { DATE_TIME_PATTERN, isDateTime, toRfc3339 } from '@kis/rules';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: the test walks an arbitrary JSON document
type Json = Record<string, any>;

const spec: Json = JSON.parse(
  readFileSync(new URL('../dist/openapi.json', import.meta.url), 'utf8'),
);
const schemas: Json = spec.components.schemas;

// The seed's 55 values in deployed servers' order, then the five newer releases added
// (docs/deployed-servers.md, "Sources").
const DOCUMENT_SOURCES =
  'ingestion_api slack web google_drive gmail requesttracker github gitbook gitlab guru bookstack outline confluence jira slab productboard file coda notion zulip linear hubspot document360 gong google_sites zendesk loopio dropbox sharepoint teams salesforce discourse axero clickup mediawiki wikipedia asana s3 r2 google_cloud_storage oci_storage xenforo not_applicable discord freshdesk fireflies egnyte airtable highspot drupal_wiki imap bitbucket testrail mock_connector user_file craft_file canvas braintrust lumapps box'.split(
    ' ',
  );

function op(path: string, method: string): Json {
  const o = spec.paths[path]?.[method];
  if (!o) throw new Error(`missing operation ${method.toUpperCase()} ${path}`);
  return o;
}

function parameters(path: string, method: string): Json[] {
  return [...(spec.paths[path].parameters ?? []), ...(op(path, method).parameters ?? [])].map(
    deref,
  );
}

function deref(node: Json): Json {
  let n = node;
  while (n?.$ref) {
    const parts = String(n.$ref).replace(/^#\//, '').split('/');
    n = parts.reduce((acc: Json, p) => acc[p], spec);
  }
  return n;
}

function requestSchema(path: string, method: string, media = 'application/json'): Json {
  return deref(deref(op(path, method).requestBody).content[media].schema);
}

let ajv: Ajv2020;
function validate(schemaName: string, value: unknown) {
  const fn = ajv.getSchema(`spec#/components/schemas/${schemaName}`);
  if (!fn) throw new Error(`no schema ${schemaName}`);
  const ok = fn(value) as boolean;
  return { ok, errors: fn.errors ?? [] };
}

beforeAll(() => {
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // date-time as deployed servers read it (@kis/rules), as the client and emulator do
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addSchema(spec, 'spec');
});

describe('document', () => {
  it('is OpenAPI 3.1 with version label Development and a {base_url} server that includes /api', () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.info.version).toBe('Development');
    expect(spec.servers[0].url).toBe('{base_url}');
    expect(spec.servers[0].variables.base_url.default).toMatch(/\/api$/);
  });

  it('uses HTTP bearer security on every operation but the version route', () => {
    const scheme = Object.values(spec.components.securitySchemes as Json)[0] as Json;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, item] of Object.entries(spec.paths as Json)) {
      for (const [method, o] of Object.entries(item as Json)) {
        if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
        const security = (o as Json).security ?? spec.security;
        const expected = path === '/version' ? [] : [{ bearerAuth: [] }];
        expect(security, `${method} ${path}`).toEqual(expected);
      }
    }
  });

  it('has the seed five endpoints, the image upload and the deployed-server extensions', () => {
    const expected: Array<[string, string, string]> = [
      ['/manage/admin/connector', 'post', 'createConnector'],
      ['/manage/admin/credential', 'get', 'listCredentials'],
      ['/manage/admin/credential/private-key/{credential_id}', 'put', 'updateCredentialPrivateKey'],
      [
        '/manage/admin/connector/{connector_id}/credential/{credential_id}',
        'put',
        'associateCredentialWithConnector',
      ],
      ['/svc-api/ingestion', 'post', 'ingestDocument'],
      ['/user/file/upload', 'post', 'uploadUserFiles'],
      ['/svc-api/ingestion', 'get', 'listIngestedDocuments'],
      ['/svc-api/ingestion/{document_id}', 'delete', 'deleteIngestedDocument'],
      ['/svc-api/connector-docs/{cc_pair_id}', 'get', 'listConnectorDocuments'],
      ['/manage/credential', 'post', 'createCredential'],
    ];
    for (const [path, method, id] of expected) {
      const o = op(path, method);
      expect(o.operationId).toBe(id);
      expect(o.summary, id).toBeTruthy();
      expect(o.description, id).toBeTruthy();
      expect(o.responses['200'], id).toBeDefined();
    }
    for (const id of [
      'listIngestedDocuments',
      'deleteIngestedDocument',
      'listConnectorDocuments',
      'createCredential',
    ]) {
      const o = Object.values(spec.paths as Json)
        .flatMap((item) => Object.values(item as Json))
        .find((x) => (x as Json).operationId === id) as Json;
      expect(o.tags, id).toContain('Deployed-server extensions');
    }
  });
});

describe('schemas match the seed tables', () => {
  it('DocumentSource has the 55 values of the seed, in deployed order, then the 5 newer ones', () => {
    expect(schemas.DocumentSource.enum).toEqual(DOCUMENT_SOURCES);
    expect(DOCUMENT_SOURCES).toHaveLength(60);
  });

  it('CredentialBase: credential_json, admin_public, source required; curator_public defaults to false', () => {
    const s = schemas.CredentialBase;
    expect([...s.required].sort()).toEqual(['admin_public', 'credential_json', 'source']);
    expect(s.properties.curator_public.default).toBe(false);
    expect(Object.keys(s.properties).sort()).toEqual(
      ['admin_public', 'credential_json', 'curator_public', 'groups', 'name', 'source'].sort(),
    );
  });

  it('connector create carries every field of the seed table', () => {
    const s = requestSchema('/manage/admin/connector', 'post');
    for (const f of [
      'name',
      'source',
      'input_type',
      'access_type',
      'connector_specific_config',
      'refresh_freq',
      'prune_freq',
    ]) {
      expect(s.properties, f).toHaveProperty(f);
    }
  });

  it('ingestion request and document carry every field of the seed tables', () => {
    const req = requestSchema('/svc-api/ingestion', 'post');
    expect(req.properties).toHaveProperty('document');
    expect(req.properties).toHaveProperty('cc_pair_id');
    const doc = schemas.IngestionDocument;
    for (const f of [
      'id',
      'semantic_identifier',
      'title',
      'sections',
      'source',
      'metadata',
      'doc_updated_at',
      'chunk_count',
      'primary_owners',
      'secondary_owners',
      'from_ingestion_api',
    ]) {
      expect(doc.properties, f).toHaveProperty(f);
    }
    expect(doc.properties.doc_updated_at.format).toBe('date-time');
    const owner = schemas.BasicExpertInfo;
    for (const f of ['display_name', 'first_name', 'middle_initial', 'last_name', 'email']) {
      expect(owner.properties, f).toHaveProperty(f);
    }
  });

  it('ValidationError requires loc, msg and type; HTTPValidationError has a detail list', () => {
    expect([...schemas.ValidationError.required].sort()).toEqual(['loc', 'msg', 'type']);
    expect(schemas.HTTPValidationError.properties.detail.type).toBe('array');
  });

  it('private-key upload is multipart with five required parts, 200 CredentialBase and 422 in both shapes', () => {
    const path = '/manage/admin/credential/private-key/{credential_id}';
    const s = requestSchema(path, 'put', 'multipart/form-data');
    expect([...s.required].sort()).toEqual(
      ['credential_json', 'field_key', 'name', 'type_definition_key', 'uploaded_file'].sort(),
    );
    expect(s.properties.uploaded_file.format).toBe('binary');
    const o = op(path, 'put');
    const param = parameters(path, 'put').find((p: Json) => p.name === 'credential_id');
    expect(param).toMatchObject({ in: 'path', required: true, schema: { type: 'integer' } });
    const ok = deref(o.responses['200']).content['application/json'].schema;
    expect(ok.$ref).toBe('#/components/schemas/CredentialBase');
    const bad = deref(o.responses['422']).content['application/json'].schema;
    expect(bad.anyOf.map((b: Json) => b.$ref)).toEqual([
      '#/components/schemas/HTTPValidationError',
      '#/components/schemas/StatusCodeError',
    ]);
  });

  it('association takes integer path ids and an optional body', () => {
    const path = '/manage/admin/connector/{connector_id}/credential/{credential_id}';
    const o = op(path, 'put');
    const names = parameters(path, 'put').map((p: Json) => [
      p.name,
      p.in,
      p.required,
      p.schema.type,
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['connector_id', 'path', true, 'integer'],
        ['credential_id', 'path', true, 'integer'],
      ]),
    );
    expect(deref(o.requestBody).required ?? false).toBe(false);
  });
});

describe('payloads', () => {
  function examples(path: string, method: string, media = 'application/json'): Json {
    return deref(op(path, method).requestBody).content[media].examples;
  }

  it('the seed examples validate against their schemas', () => {
    const ingestion = examples('/svc-api/ingestion', 'post');
    expect(Object.keys(ingestion).length).toBeGreaterThanOrEqual(2);
    for (const [name, ex] of Object.entries(ingestion)) {
      const r = validate('IngestionRequest', deref(ex as Json).value);
      expect(r.errors, name).toEqual([]);
    }
    const noId = Object.values(ingestion)
      .map((e) => deref(e as Json).value)
      .find((v) => v.document.id === undefined);
    expect(noId, 'a file-upload example without document.id').toBeDefined();
    const connector = examples('/manage/admin/connector', 'post');
    const jira = Object.values(connector)
      .map((e) => deref(e as Json).value)
      .find((v) => v.source === 'jira');
    expect(jira).toMatchObject({
      source: 'jira',
      input_type: 'poll',
      access_type: 'PUBLIC',
      refresh_freq: 3600,
      prune_freq: 86400,
    });
    expect(Object.keys(jira.connector_specific_config).sort()).toEqual([
      'comment_email_blacklist',
      'jira_base_url',
      'project_key',
    ]);
    const connectorSchema = op('/manage/admin/connector', 'post')
      .requestBody.content['application/json'].schema.$ref.split('/')
      .pop();
    expect(validate(connectorSchema, jira).errors).toEqual([]);
  });

  const minimal = {
    document: {
      id: 'doc-1',
      semantic_identifier: 'Doc 1',
      sections: [{ text: 'hello', link: 'https://example.com/doc-1' }],
      source: 'web',
      metadata: { tag: 'a', tags: ['b', 'c'] },
    },
    cc_pair_id: 2,
  };

  it('accepts text and image sections, and a section with both', () => {
    const doc = structuredClone(minimal);
    (doc.document.sections as Json[]).push(
      { image_file_id: 'f-1' },
      { text: 't', image_file_id: 'f-2' },
    );
    expect(validate('IngestionRequest', doc).errors).toEqual([]);
  });

  it('rejects a document without semantic_identifier', () => {
    const doc: Json = structuredClone(minimal);
    delete doc.document.semantic_identifier;
    expect(validate('IngestionRequest', doc).ok).toBe(false);
  });

  it('rejects an unknown source', () => {
    const doc: Json = structuredClone(minimal);
    doc.document.source = 'jirra';
    expect(validate('IngestionRequest', doc).ok).toBe(false);
  });

  it('rejects a number as a metadata value', () => {
    const doc: Json = structuredClone(minimal);
    doc.document.metadata.count = 3;
    expect(validate('IngestionRequest', doc).ok).toBe(false);
  });

  it('accepts doc_updated_at as deployed servers do: any ISO 8601 date-time, offset optional', () => {
    for (const value of [
      '2026-11-22T17:25:02Z',
      '2026-11-22T17:25:02.123456', // Python's datetime.utcnow().isoformat()
      '2026-11-22T17:25:02+01:00',
      '2026-11-22 17:25',
      '2026-11-22',
      null,
    ]) {
      const doc: Json = structuredClone(minimal);
      doc.document.doc_updated_at = value;
      expect(validate('IngestionRequest', doc).errors, String(value)).toEqual([]);
    }
    for (const value of [
      '2026-02-30T00:00:00Z',
      '2026-11-22T24:00:00',
      'yesterday',
      '22/11/2026',
    ]) {
      const doc: Json = structuredClone(minimal);
      doc.document.doc_updated_at = value;
      expect(validate('IngestionRequest', doc).ok, value).toBe(false);
    }
  });

  it('accepts a null document id (deployed servers then derive one)', () => {
    const doc: Json = structuredClone(minimal);
    doc.document.id = null;
    expect(validate('IngestionRequest', doc).errors).toEqual([]);
  });

  it('rejects a section with neither text nor image_file_id', () => {
    const doc: Json = structuredClone(minimal);
    doc.document.sections = [{ link: 'https://example.com' }];
    expect(validate('IngestionRequest', doc).ok).toBe(false);
  });

  it('accepts access_type in the seed spelling and the deployed lower case, not others', () => {
    expect(schemas.AccessType.enum).toEqual(
      expect.arrayContaining(['PUBLIC', 'public', 'private', 'sync']),
    );
    expect(validate('AccessType', 'Public').ok).toBe(false);
  });
});

describe('@kis/rules', () => {
  it('reads a date-time without an offset as UTC and writes RFC 3339', () => {
    expect(toRfc3339('2026-11-22T17:25:02.123456')).toBe('2026-11-22T17:25:02.123456Z');
    expect(toRfc3339('2026-11-22')).toBe('2026-11-22T00:00:00Z');
    expect(toRfc3339('2026-11-22 17:25')).toBe('2026-11-22T17:25:00Z');
    expect(toRfc3339('2026-11-22t17:25:02z')).toBe('2026-11-22T17:25:02Z');
    expect(toRfc3339('2026-11-22T17:25:02+0130')).toBe('2026-11-22T17:25:02+01:30');
    expect(toRfc3339('2026-11-22T17:25:02-05')).toBe('2026-11-22T17:25:02-05:00');
  });

  it('checks the calendar; the pattern checks the shape only', () => {
    expect(isDateTime('2024-02-29T00:00:00Z')).toBe(true);
    expect(isDateTime('2023-02-29T00:00:00Z')).toBe(false);
    expect(isDateTime('2026-13-01')).toBe(false);
    expect(isDateTime('2026-11-22T17:60:00Z')).toBe(false);
    expect(DATE_TIME_PATTERN.test('2023-02-29T00:00:00Z')).toBe(true);
    expect(DATE_TIME_PATTERN.test('2026-11-22T17:25:02.1234567890Z')).toBe(false);
  });
});
