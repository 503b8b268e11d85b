// A pair's listing read one document at a time (`kis.ingestion.connectorDocuments`): the same
// documents as the whole listing, strings holding commas, brackets, quotes and non-ASCII text
// included, its count, and the typed errors of a refused call.
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/index.js';
import { BASE, client, json, mockFetch } from './helpers.js';

const DOCS = [
  { document_id: 'a', semantic_id: 'Plain', link: null },
  { document_id: 'b%2C', semantic_id: 'Commas, [brackets] and {braces}', link: 'https://x/?a=1,2' },
  { document_id: 'c', semantic_id: 'A "quoted" \\ backslash', link: '' },
  {
    document_id: 'd',
    semantic_id: 'Ünïcödé ✓ 日本',
    link: null,
    extra: { nested: [1, { a: ']' }] },
  },
];

describe('connectorDocuments', () => {
  it('lists what the whole listing lists, one document at a time, with its count', async () => {
    const { fetch, calls } = mockFetch(
      () =>
        new Response(` \n[ ${DOCS.map((d) => JSON.stringify(d, null, 1)).join(' ,\n')} ] `, {
          headers: { 'content-type': 'application/json' },
        }),
    );
    const listing = await client(fetch).ingestion.connectorDocuments(7);
    expect(listing.count).toBe(4);
    expect([...listing]).toEqual(DOCS);
    expect([...listing]).toEqual(DOCS); // read again from the same bytes
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${BASE}/svc-api/connector-docs/7`],
    ]);
  });

  it('an empty pair lists nothing', async () => {
    const { fetch } = mockFetch(() => json([]));
    const listing = await client(fetch).ingestion.connectorDocuments(2);
    expect(listing.count).toBe(0);
    expect([...listing]).toEqual([]);
  });

  it('a refused call is the typed error; a bad pair id a TypeError before any request', async () => {
    const { fetch, calls } = mockFetch(() => json({ detail: 'Not found' }, 404));
    const kis = client(fetch, { maxRetries: 0 });
    await expect(kis.ingestion.connectorDocuments(9)).rejects.toBeInstanceOf(NotFoundError);
    await expect(kis.ingestion.connectorDocuments(1.5)).rejects.toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(1);
  });

  it('an answer that is not an array is refused', async () => {
    const { fetch } = mockFetch(() => json({ documents: [] }));
    await expect(client(fetch).ingestion.connectorDocuments(2)).rejects.toThrow(/JSON array/);
  });
});
