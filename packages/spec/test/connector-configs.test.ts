// The per-source schemas of connector_specific_config and credential_json, tried with payloads
// whose verdicts are written out from what deployed servers' admin interface and connectors take.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without types
import { render, TARGET } from '../scripts/connector-docs.mjs';

// biome-ignore lint/suspicious/noExplicitAny: the test walks an arbitrary JSON document
type Json = Record<string, any>;
const spec: Json = JSON.parse(
  readFileSync(new URL('../dist/openapi.json', import.meta.url), 'utf8'),
);
const schemas: Json = spec.components.schemas;
let ajv: Ajv2020;
beforeAll(() => {
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(spec, 'spec');
});

function configValid(source: string, config: unknown): boolean {
  const ref: string = schemas.ConnectorConfigBySource.properties[source].$ref;
  const fn = ajv.getSchema(`spec${ref}`);
  if (!fn) throw new Error(`no schema for ${source}`);
  return fn(config) as boolean;
}

describe('connector configuration by source', () => {
  it('has a schema for every source of the newest release (not requesttracker)', () => {
    const sources = schemas.DocumentSource.enum.filter((s: string) => s !== 'requesttracker');
    expect(Object.keys(schemas.ConnectorConfigBySource.properties)).toEqual(sources);
  });

  it("accepts the seed's issue-tracker example", () => {
    expect(
      configValid('jira', {
        jira_base_url: 'https://jira.example.com',
        project_key: 'KIS',
        comment_email_blacklist: ['bot@example.com'],
      }),
    ).toBe(true);
    expect(
      configValid('jira', {
        jira_base_url: 'https://jira.example.com',
        project_key: null,
        comment_email_blacklist: null,
      }),
    ).toBe(true);
  });

  it.each([
    [
      'a misspelled key of a closed source',
      'jira',
      { jira_base_url: 'https://j', projekt_key: 'K' },
    ],
    ['a missing required field', 'jira', { project_key: 'K' }],
    [
      'a string where a list belongs',
      'jira',
      { jira_base_url: 'https://j', comment_email_blacklist: 'a@b' },
    ],
    [
      'two exclusive choices at once',
      'jira',
      { jira_base_url: 'https://j', project_key: 'K', jql_query: 'x' },
    ],
    [
      'an option the select does not have',
      'web',
      { base_url: 'https://w', web_connector_type: 'crawl' },
    ],
    [
      'a repository with the "everything" choice of another field',
      'github',
      { repo_owner: 'o', repositories: 'r', include_prs: true, include_issues: true, bogus: 1 },
    ],
  ])('refuses %s', (_what, source, config) => {
    expect(configValid(source, config)).toBe(false);
  });

  it.each([
    ['web', { base_url: 'https://example.com', web_connector_type: 'recursive', anything: 'else' }],
    ['file', { file_locations: ['/tmp/a.txt'] }],
    ['ingestion_api', {}],
    ['wikipedia', { language_code: 'en', categories: [], pages: ['Python'], recurse_depth: 1 }],
  ])('accepts a valid %s config', (source, config) => {
    expect(configValid(source, config)).toBe(true);
  });

  it('names the credential keys the interface asks for', () => {
    const jira = schemas.JiraCredentialJson;
    expect(Object.keys(jira.properties)).toEqual(['jira_user_email', 'jira_api_token']);
    expect(jira.required).toEqual(['jira_api_token']);
    expect(schemas.CredentialJsonBySource.properties.file).toBeUndefined();
  });
});

describe('docs/connector-configs.md', () => {
  it('is generated from the current spec (run `pnpm generate` after changing it)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(render(spec));
  });
});
