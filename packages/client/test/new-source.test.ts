/**
 * Source values the spec does not list (a release newer than the spec added them): accepted in
 * answers, and sent as given, with a debug line, rather than refused by the client's validation.
 */
import { describe, expect, it } from 'vitest';
import { checkIngestionRequest, DocumentValidationError } from '../src/index.js';
import { client, doc, json, memoryLogger, mockFetch } from './helpers.js';

const NOTE = 'source "newthing" is not a value this client knows; sending it as given';

describe('a source value the spec does not list', () => {
  it('ingestDocument sends it as given and says so at debug level', async () => {
    const { fetch, calls } = mockFetch(() =>
      json({ document_id: 'doc-1', already_existed: false }),
    );
    const log = memoryLogger();
    const kis = client(fetch, { logLevel: 'debug', logger: log.logger });
    await kis.ingestDocument({ ...doc(1), source: 'newthing' }, { ccPairId: 2 });
    expect(calls[0]?.body).toMatchObject({ document: { source: 'newthing' }, cc_pair_id: 2 });
    expect(log.lines.filter((l) => l.level === 'debug').map((l) => l.message)).toContain(
      `[kis] ${NOTE}`,
    );
  });

  it('bulk ingestion sends it too', async () => {
    const { fetch, calls } = mockFetch((c) =>
      json({
        document_id: (c.body as { document: { id: string } }).document.id,
        already_existed: false,
      }),
    );
    const log = memoryLogger();
    const kis = client(fetch, { logLevel: 'debug', logger: log.logger });
    const summary = await kis
      .ingestMany([{ ...doc(1), source: 'newthing' }], { ccPairId: 2 })
      .done();
    expect(summary.created).toBe(1);
    expect(calls[0]?.body).toMatchObject({ document: { source: 'newthing' } });
    expect(log.text()).toContain(NOTE);
  });

  it('the other problems of the document are still reported; a source that is no string is one', async () => {
    expect(await checkIngestionRequest({ document: { ...doc(1), source: 'newthing' } })).toEqual(
      [],
    );
    const issues = await checkIngestionRequest({
      document: { ...doc(1), source: 'newthing', sections: [{ text: 5 }] },
    });
    expect(issues.map((i) => i.path)).toEqual(['document.sections[0].text']);
    const { fetch, calls } = mockFetch(() => json({}));
    const err = await client(fetch)
      .ingestDocument({ ...doc(1), source: 5 } as never)
      .catch((e: unknown) => e);
    expect(DocumentValidationError.isInstance(err)).toBe(true);
    expect((err as DocumentValidationError).field).toBe('document.source');
    expect(calls).toHaveLength(0);
  });

  it('connector and credential creation send it as given', async () => {
    const { fetch, calls } = mockFetch(() => json({ id: 5, credential: null }));
    const kis = client(fetch);
    await kis.connectors.create({
      name: 'New',
      source: 'newthing',
      input_type: 'poll',
      access_type: 'public',
      connector_specific_config: {},
    });
    await kis.credentials.create({ source: 'newthing', credential_json: {}, admin_public: true });
    expect(calls.map((c) => (c.body as { source: string }).source)).toEqual([
      'newthing',
      'newthing',
    ]);
  });
});
