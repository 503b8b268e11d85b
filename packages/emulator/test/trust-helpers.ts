// Helpers of the trust tests (search, access, de-duplication, sets, groups, pruning, model
// switch): pushes with a fixed time, pairs whose credential a given key created (so that key owns
// their documents), keys in groups, and the document checks as a given key sees them.
import { expect } from 'vitest';
import type { Started } from './lifecycle-helpers.js';

export type Json = Record<string, unknown>;
type Call = Started['call'];

/** The time pushes carry unless told otherwise: equal times let the hash gate skip. */
export const AT = '2026-02-01T10:00:00Z';

/** Pushes a document into a pair (the admin key unless `key`); its answer. */
export async function push(
  call: Call,
  pair: number,
  id: string,
  fields: Json = {},
  key?: string,
): Promise<{ document_id: string; already_existed: boolean }> {
  const r = await call<{ document_id: string; already_existed: boolean }>(
    'POST',
    '/svc-api/ingestion',
    {
      key,
      json: {
        document: {
          id,
          semantic_identifier: id,
          sections: [{ text: `words of ${id}`, link: `https://docs.example.com/${id}` }],
          source: 'file',
          metadata: {},
          doc_updated_at: AT,
          ...fields,
        },
        cc_pair_id: pair,
      },
    },
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/**
 * A `jira` pair whose credential `key` created (the admin key by default), so its documents name
 * that key's account as a reader; `access_type` and `groups` as given at association.
 */
export async function ownedPair(
  call: Call,
  options: { key?: string; access_type?: string; groups?: number[]; name?: string } = {},
): Promise<{ pair: number; connector: number; credential: number }> {
  const { key, access_type = 'private', groups = [], name = `Tracker ${Math.random()}` } = options;
  const credential = await call<{ id: number }>('POST', '/manage/credential', {
    key,
    json: {
      source: 'jira',
      admin_public: true,
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'token' },
    },
  });
  expect(credential.status).toBe(200);
  const connector = await call<{ id: number }>('POST', '/manage/admin/connector', {
    key,
    json: {
      name,
      source: 'jira',
      input_type: 'poll',
      access_type,
      connector_specific_config: {
        jira_base_url: 'https://example.atlassian.net',
        project_key: 'K',
      },
    },
  });
  expect(connector.status).toBe(200);
  const associated = await call<{ data: number }>(
    'PUT',
    `/manage/connector/${connector.body.id}/credential/${credential.body.id}`,
    { key, json: { name, access_type, groups } },
  );
  expect(associated.status, JSON.stringify(associated.body)).toBe(200);
  return {
    pair: associated.body.data,
    connector: connector.body.id,
    credential: credential.body.id,
  };
}

/** A key made through the API (main line: in `group_ids`; release 4.6.1: of `role`), and its account. */
export async function newKey(call: Call, body: Json): Promise<{ key: string; userId: string }> {
  const r = await call<{ api_key: string; user_id: string }>('POST', '/admin/api-key', {
    json: body,
  });
  expect(r.status).toBe(200);
  return { key: r.body.api_key, userId: r.body.user_id };
}

/** The status of the size-info check of `id` as `key` sees it. */
export async function sizeStatus(call: Call, id: string, key?: string): Promise<number> {
  return (
    await call('GET', `/document/document-size-info?document_id=${encodeURIComponent(id)}`, { key })
  ).status;
}

/** The ids admin search finds for `query` with `filters`, as `key` sees them. */
export async function found(
  call: Call,
  query: string,
  filters: Json = {},
  key?: string,
): Promise<string[]> {
  const r = await call<{ documents: { document_id: string }[] }>('POST', '/admin/search', {
    key,
    json: { query, filters },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.documents.map((d) => d.document_id);
}
