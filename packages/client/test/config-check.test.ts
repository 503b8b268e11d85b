import { describe, expect, it } from 'vitest';
import { ConfigValidationError, type KisClient } from '../src/index.js';
import { API_KEY, client, json, mockFetch } from './helpers.js';

// Expected values come from the spec's per-source schemas (docs/connector-configs.md), written
// out by hand here: the jira config takes jira_base_url (required), project_key or jql_query
// (one choice of "How Should We Index Your Jira?"), comment_email_blacklist (a list), etc.
const jiraUrl = 'https://jira.example.com';

function base(source: string, config: unknown) {
  return {
    name: 'c',
    source,
    input_type: 'poll' as const,
    access_type: 'public' as const,
    connector_specific_config: config as Record<string, unknown>,
  };
}

async function createError(kis: KisClient, source: string, config: unknown) {
  return kis.connectors.create(base(source, config)).then(
    () => undefined,
    (e: unknown) => e as ConfigValidationError,
  );
}

describe('connector configs are checked against the source before any request', () => {
  const cases: [string, string, unknown, { path: string; message: RegExp }[]][] = [
    [
      'a misspelled key, with the close key',
      'jira',
      { jira_base_url: jiraUrl, projekt_key: 'KIS' },
      [
        {
          path: 'connector_specific_config.projekt_key',
          message: /^is not a jira key \(did you mean project_key\?\)$/,
        },
      ],
    ],
    [
      'a missing required field',
      'jira',
      { project_key: 'KIS' },
      [{ path: 'connector_specific_config.jira_base_url', message: /^is required$/ }],
    ],
    [
      'a string where a list belongs',
      'jira',
      { jira_base_url: jiraUrl, comment_email_blacklist: 'a@example.com' },
      [
        {
          path: 'connector_specific_config.comment_email_blacklist',
          message: /^expected a list or null, got "a@example.com"$/,
        },
      ],
    ],
    [
      'two choices of an exclusive group',
      'jira',
      { jira_base_url: jiraUrl, project_key: 'KIS', jql_query: 'project = KIS' },
      [
        {
          path: 'connector_specific_config',
          message:
            /^"How Should We Index Your Jira\?" takes exactly one choice: Everything \(no field\) \| Project \(project_key\) \| JQL Query \(jql_query\); got project_key, jql_query$/,
        },
      ],
    ],
    [
      'a value outside the options, and every wrong field at once',
      'web',
      { base_url: 7, web_connector_type: 'crawl' },
      [
        { path: 'connector_specific_config.base_url', message: /^expected string, got number 7$/ },
        {
          path: 'connector_specific_config.web_connector_type',
          message: /^expected one of recursive, single, sitemap, got "crawl"$/,
        },
      ],
    ],
    [
      'not an object',
      'jira',
      ['x'],
      [{ path: 'connector_specific_config', message: /^expected an object, got a list$/ }],
    ],
  ];
  for (const [what, source, config, expected] of cases) {
    it(`${what}: ConfigValidationError naming each field, nothing sent`, async () => {
      const { fetch, calls } = mockFetch(() => json({ id: 1 }));
      const err = await createError(client(fetch), source, config);
      expect(ConfigValidationError.isInstance(err)).toBe(true);
      expect(err?.source).toBe(source);
      expect(err?.issues).toHaveLength(expected.length);
      expected.forEach((e, i) => {
        expect(err?.issues[i]?.path).toBe(e.path);
        expect(err?.issues[i]?.message).toMatch(e.message);
      });
      expect(err?.message).toContain(expected[0]?.path);
      expect(calls).toHaveLength(0);
    });
  }

  it('the did-you-mean is data too', async () => {
    const { fetch } = mockFetch(() => json({ id: 1 }));
    const err = await createError(client(fetch), 'jira', { jira_base_url: jiraUrl, batchsize: 4 });
    expect(err?.issues[0]?.suggestions).toEqual(['batch_size']);
  });

  it('valid configs, a source with no fields and a source the spec does not know are sent', async () => {
    const { fetch, calls } = mockFetch(() => json({ id: 1 }));
    const kis = client(fetch);
    await kis.connectors.create(base('jira', { jira_base_url: jiraUrl, project_key: 'KIS' }));
    await kis.connectors.create(base('ingestion_api', {}));
    await kis.connectors.create(base('myspace', { anything: ['goes'] }));
    expect(calls.map((c) => (c.body as { source: string }).source)).toEqual([
      'jira',
      'ingestion_api',
      'myspace',
    ]);
  });

  it('the seed issue-tracker example is valid', async () => {
    const { fetch, calls } = mockFetch(() => json({ id: 1 }));
    await client(fetch).connectors.create(
      base('jira', {
        jira_base_url: 'https://yourcompany.atlassian.net',
        project_key: 'KIS',
        comment_email_blacklist: [],
      }),
    );
    expect(calls).toHaveLength(1);
  });

  it('setupConnector fails before listing credentials', async () => {
    const { fetch, calls } = mockFetch(() => json([]));
    const err = await client(fetch)
      .setupConnector({ connector: base('jira', { projekt_key: 'KIS' }) })
      .catch((e: unknown) => e);
    expect(ConfigValidationError.isInstance(err)).toBe(true);
    expect(calls).toHaveLength(0);
  });
});

describe('credential_json is checked without showing its values', () => {
  it('a missing key and a wrong type are named; the secret is not echoed', async () => {
    const { fetch, calls } = mockFetch(() => json({ id: 1 }));
    const secret = 'tok-SECRET-42';
    const err = await client(fetch)
      .credentials.create({
        source: 'github',
        admin_public: true,
        credential_json: { github_access_token: [secret] } as never,
      })
      .then(
        () => undefined,
        (e: unknown) => e as ConfigValidationError,
      );
    if (err === undefined) throw new Error('expected a ConfigValidationError');
    expect(ConfigValidationError.isInstance(err)).toBe(true);
    expect(err.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'credential_json.github_access_token: expected string',
    ]);
    expect(JSON.stringify(err)).not.toContain(secret);
    expect(String(err.message)).not.toContain(secret);
    expect(String(err.message)).not.toContain(API_KEY);
    expect(calls).toHaveLength(0);
  });

  it('a credential with the required keys is sent', async () => {
    const { fetch, calls } = mockFetch(() => json({ id: 3 }));
    await client(fetch).credentials.create({
      source: 'jira',
      admin_public: true,
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 't' },
    });
    expect(calls).toHaveLength(1);
  });
});
