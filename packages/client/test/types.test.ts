import type { Client } from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import type { IngestJournal } from '../src/index.js';
import {
  createKisClient,
  type IngestionDocument,
  type IngestResult,
  type IngestSummary,
  type KisClient,
  type paths,
  type RequestOptions,
  type SetupConnectorResult,
  UnprocessableEntityError,
  type ValidationIssue,
} from '../src/index.js';
import type { FileJournal } from '../src/node/index.js';

describe('typed surface', () => {
  it('createKisClient returns a KisClient with a typed raw api', () => {
    expectTypeOf(createKisClient).parameter(0).toHaveProperty('baseUrl').toEqualTypeOf<string>();
    expectTypeOf(createKisClient).returns.toEqualTypeOf<KisClient>();
    expectTypeOf<KisClient['api']>().toEqualTypeOf<Client<paths>>();
  });

  it('resource methods take typed bodies and resolve typed answers', () => {
    const kis = {
      connectors: {},
      credentials: {},
      ingestion: {},
      files: {},
    } as unknown as KisClient;
    expectTypeOf(kis.connectors.create).parameter(0).toHaveProperty('access_type');
    expectTypeOf(kis.connectors.create)
      .returns.resolves.toHaveProperty('id')
      .toEqualTypeOf<number>();
    expectTypeOf(kis.credentials.list).returns.resolves.items.toHaveProperty('source');
    expectTypeOf(kis.ingestion.ingest)
      .returns.resolves.toHaveProperty('already_existed')
      .toEqualTypeOf<boolean>();
    expectTypeOf(kis.ingestion.delete).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(kis.ingestion.listConnectorDocuments)
      .returns.resolves.items.toHaveProperty('document_id')
      .toEqualTypeOf<string>();
    expectTypeOf(kis.files.uploadImage)
      .returns.resolves.toHaveProperty('fileId')
      .toEqualTypeOf<string>();
    expectTypeOf(kis.credentials.list).parameter(0).toEqualTypeOf<RequestOptions | undefined>();
    const typeOnly = () => {
      void kis.connectors.create({
        name: 'x',
        source: 'web',
        input_type: 'poll',
        // @ts-expect-error access_type is an enum
        access_type: 'everyone',
        connector_specific_config: {},
      });
      void kis.connectors.create({
        name: 'x',
        // @ts-expect-error unknown source
        source: 'myspace',
        input_type: 'poll',
        access_type: 'public',
        connector_specific_config: {},
      });
    };
    void typeOnly;
  });

  it('raw api paths and params are checked', () => {
    const kis = { api: { GET: () => undefined } } as unknown as KisClient;
    expectTypeOf(kis.api.GET).toBeFunction();
    const typed = async () => {
      const r = await kis.api.GET('/svc-api/connector-docs/{cc_pair_id}', {
        params: { path: { cc_pair_id: 1 } },
      });
      if (r.data) expectTypeOf(r.data).items.toHaveProperty('semantic_id').toEqualTypeOf<string>();
      await kis.api.GET('/svc-api/connector-docs/{cc_pair_id}', {
        // @ts-expect-error path parameter must be a number
        params: { path: { cc_pair_id: 'one' } },
      });
      // @ts-expect-error unknown path
      await kis.api.GET('/nope');
    };
    void typed;
  });

  it('workflows are typed', () => {
    const kis = {} as KisClient;
    expectTypeOf(kis.setupConnector).returns.resolves.toEqualTypeOf<SetupConnectorResult>();
    expectTypeOf<SetupConnectorResult['ccPairId']>().toEqualTypeOf<number | null>();
    expectTypeOf(kis.ingestDocument).parameter(0).toEqualTypeOf<IngestionDocument>();
    type Run = ReturnType<KisClient['ingestMany']>;
    const run = {} as Run;
    expectTypeOf(run).toMatchTypeOf<AsyncIterable<IngestResult>>();
    expectTypeOf(run.summary).resolves.toEqualTypeOf<IngestSummary>();
    expectTypeOf<IngestResult['status']>().toEqualTypeOf<
      'created' | 'updated' | 'skipped' | 'failed' | 'aborted' | 'valid'
    >();
    expectTypeOf<FileJournal>().toMatchTypeOf<IngestJournal>();
  });

  it('errors expose typed fields', () => {
    expectTypeOf<UnprocessableEntityError['detail']>().toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf<ValidationIssue['loc']>().toEqualTypeOf<Array<string | number>>();
    const e: unknown = null;
    if (UnprocessableEntityError.isInstance(e))
      expectTypeOf(e).toEqualTypeOf<UnprocessableEntityError>();
  });
});
