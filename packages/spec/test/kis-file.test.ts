// The published JSON Schema of `kis.yaml` (dist/kis-file.schema.json): what an editor checks.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const schema = JSON.parse(
  readFileSync(new URL('../dist/kis-file.schema.json', import.meta.url), 'utf8'),
);
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

const example = {
  credentials: [
    {
      name: 'Jira bot',
      source: 'jira',
      credential_json: {
        jira_user_email: 'bot@example.com', // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
        jira_api_token: '${JIRA_TOKEN}',
      },
    },
  ],
  connectors: [
    {
      name: 'Jira KIS',
      source: 'jira',
      input_type: 'poll',
      access_type: 'public',
      refresh_freq: 3600,
      config: { jira_base_url: 'https://jira.example.com', project_key: 'KIS' },
      credential: 'Jira bot',
    },
    {
      name: 'Docs site',
      source: 'web',
      config: { base_url: 'https://docs.example.com', web_connector_type: 'recursive' },
      access_type: 'private',
      groups: ['Support', 4],
    },
  ],
  user_groups: [{ name: 'Support', users: ['agent@example.com'] }],
  document_sets: [
    {
      name: 'Support answers',
      description: 'What support searches',
      pairs: ['Docs site', 7],
      public: false,
      groups: ['Support'],
    },
  ],
};

function errorsOf(file: unknown): string[] {
  return validate(file)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${e.message}`);
}

describe('kis-file.schema.json', () => {
  it("accepts the issue's example file", () => {
    expect(errorsOf(example)).toEqual([]);
  });

  it('refuses an unknown key of an entry', () => {
    const file = { connectors: [{ ...example.connectors[0], conifg: {} }] };
    expect(errorsOf(file)).toContainEqual(
      expect.stringMatching(/^\/connectors\/0 additionalProperties/),
    );
  });

  it("checks a connector's config by its source", () => {
    const connector = {
      ...example.connectors[0],
      config: { jira_base_url: 'x', projekt_key: 'K' },
    };
    expect(errorsOf({ connectors: [connector] })).toContainEqual(
      expect.stringMatching(/^\/connectors\/0\/config additionalProperties/),
    );
  });

  it('lets a credential leave its secrets out (the server keeps them)', () => {
    const credential = { name: 'Jira bot', source: 'jira', credential_json: {} };
    expect(errorsOf({ credentials: [credential] })).toEqual([]);
  });

  it('takes a source newer than the spec', () => {
    expect(errorsOf({ connectors: [{ name: 'x', source: 'brand_new_source' }] })).toEqual([]);
  });

  it('offers the input and access types of the spec', () => {
    expect(errorsOf({ connectors: [{ name: 'x', source: 'web', input_type: 'pol' }] })).not.toEqual(
      [],
    );
    expect(schema.$defs.InputType.enum).toContain('poll');
    expect(schema.$defs.AccessType.enum).toContain('private');
  });

  it('refuses a document set without pairs, and a group or pair named by anything else', () => {
    const set = { name: 'S', pairs: [] };
    expect(errorsOf({ document_sets: [set] })).toContainEqual(
      expect.stringMatching(/^\/document_sets\/0\/pairs minItems/),
    );
    expect(errorsOf({ document_sets: [{ name: 'S', pairs: [true] }] })).not.toEqual([]);
    expect(errorsOf({ user_groups: [{ name: 'G', members: [] }] })).toContainEqual(
      expect.stringMatching(/^\/user_groups\/0 additionalProperties/),
    );
  });

  it("declares a pair's documents: an SQL query by an environment reference, or a git repository", () => {
    const sql = {
      name: 'CRM tickets',
      source: 'ingestion_api',
      documents: {
        sql: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
          connection: '${CRM_DATABASE_URL}',
          query: 'SELECT * FROM tickets',
          id: 'id',
          title: 'subject',
          text: ['body', 'notes'],
          metadata: ['status'],
          updated_at: 'updated_at',
          link: 'https://crm.example.com/ticket/{id}',
          id_prefix: 'crm/',
        },
      },
    };
    const git = {
      name: 'Handbook',
      source: 'file',
      documents: { git: { repository: 'https://git.example.com/acme/handbook.git', ref: 'main' } },
    };
    expect(errorsOf({ connectors: [sql, git] })).toEqual([]);
    const literal = { ...sql.documents.sql, connection: 'postgres://kis:pw@db/crm' };
    expect(errorsOf({ connectors: [{ ...sql, documents: { sql: literal } }] })).toContainEqual(
      expect.stringMatching(/^\/connectors\/0\/documents\/sql\/connection pattern/),
    );
    const both = { ...sql, documents: { ...sql.documents, ...git.documents } };
    expect(errorsOf({ connectors: [both] })).toContainEqual(
      expect.stringMatching(/^\/connectors\/0\/documents maxProperties/),
    );
  });
});
