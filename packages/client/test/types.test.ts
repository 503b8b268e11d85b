import type { Client } from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AssociationResult,
  type ConnectorConfigFor,
  type ConnectorCreateInput,
  type Credential,
  type CredentialCreateInput,
  type CredentialJsonFor,
  createKisClient,
  type DoctorCheck,
  type DoctorReport,
  type DocumentSource,
  type IngestionDocument,
  type IngestionDocumentInput,
  type IngestionRequestInput,
  type IngestResult,
  type IngestSummary,
  type KisClient,
  type KnownOrNewSource,
  type paths,
  type RequestOptions,
  type ServerVersion,
  type SetupConnectorResult,
  type SourceValue,
  UnprocessableEntityError,
  type ValidationIssue,
} from '../src/index.js';

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
        connector_specific_config: {
          base_url: 'https://example.com',
          web_connector_type: 'single',
        },
      });
      void kis.connectors.create({
        name: 'x',
        // @ts-expect-error a source is a string
        source: 7,
        input_type: 'poll',
        access_type: 'public',
        connector_specific_config: {},
      });
      // the config is typed by the source
      void kis.connectors.create({
        name: 'x',
        source: 'jira',
        input_type: 'poll',
        access_type: 'public',
        connector_specific_config: {
          jira_base_url: 'https://jira.example.com',
          // @ts-expect-error a misspelled key of a listed source
          projekt_key: 'KIS',
        },
      });
      void kis.connectors.create({
        name: 'x',
        source: 'jira',
        input_type: 'poll',
        access_type: 'public',
        // @ts-expect-error jira_base_url is required
        connector_specific_config: { project_key: 'KIS' },
      });
      void kis.connectors.create({
        name: 'x',
        source: 'jira',
        input_type: 'poll',
        access_type: 'public',
        connector_specific_config: {
          jira_base_url: 'https://jira.example.com',
          // @ts-expect-error a list of strings, not a string
          comment_email_blacklist: 'bot@example.com',
        },
      });
      void kis.setupConnector({
        connector: {
          name: 'x',
          source: 'web',
          input_type: 'load_state',
          access_type: 'public',
          // @ts-expect-error an option the source does not have
          connector_specific_config: { base_url: 'https://x.example', web_connector_type: 'crawl' },
        },
      });
      void kis.credentials.create({
        source: 'jira',
        admin_public: true,
        // @ts-expect-error the jira credential needs jira_api_token
        credential_json: { jira_user_email: 'bot@example.com' },
      });
      // a value a server newer than the spec added: sent as given
      void kis.connectors.create({
        name: 'x',
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
    expectTypeOf(kis.ingestDocument).parameter(0).toEqualTypeOf<IngestionDocumentInput>();
    expectTypeOf<IngestionDocument>().toMatchTypeOf<IngestionDocumentInput>();
    type Run = ReturnType<KisClient['ingestMany']>;
    const run = {} as Run;
    expectTypeOf(run).toMatchTypeOf<AsyncIterable<IngestResult>>();
    expectTypeOf(run.summary).resolves.toEqualTypeOf<IngestSummary>();
    expectTypeOf<IngestResult['status']>().toEqualTypeOf<
      'created' | 'updated' | 'skipped' | 'failed' | 'aborted' | 'valid'
    >();
  });

  it('KnownOrNewSource: every value the spec lists, and any other string', () => {
    expectTypeOf<DocumentSource>().toMatchTypeOf<KnownOrNewSource>();
    expectTypeOf<'jira'>().toMatchTypeOf<KnownOrNewSource>();
    expectTypeOf<'newthing'>().toMatchTypeOf<KnownOrNewSource>();
    expectTypeOf<KnownOrNewSource>().toMatchTypeOf<string>();
    expectTypeOf<number>().not.toMatchTypeOf<KnownOrNewSource>();
    // not collapsed into string: editors still offer the listed values
    expectTypeOf<KnownOrNewSource>().not.toEqualTypeOf<string>();
    expectTypeOf<ConnectorCreateInput['source']>().toEqualTypeOf<KnownOrNewSource>();
    expectTypeOf<CredentialCreateInput['source']>().toEqualTypeOf<KnownOrNewSource>();
    expectTypeOf<ConnectorConfigFor<'jira'>>()
      .toHaveProperty('jira_base_url')
      .toEqualTypeOf<string>();
    expectTypeOf<ConnectorConfigFor<'myspace'>>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<CredentialJsonFor<'jira'>>()
      .toHaveProperty('jira_api_token')
      .toEqualTypeOf<string>();
    expectTypeOf<IngestionDocumentInput['source']>().toEqualTypeOf<
      KnownOrNewSource | null | undefined
    >();
    expectTypeOf<IngestionRequestInput['document']>().toEqualTypeOf<IngestionDocumentInput>();
    const kis = { connectors: {}, credentials: {}, ingestion: {} } as unknown as KisClient;
    expectTypeOf(kis.connectors.create<'jira'>)
      .parameter(0)
      .toEqualTypeOf<ConnectorCreateInput<'jira'>>();
    expectTypeOf(kis.credentials.create<'jira'>)
      .parameter(0)
      .toEqualTypeOf<CredentialCreateInput<'jira'>>();
    expectTypeOf(kis.ingestion.ingest).parameter(0).toEqualTypeOf<IngestionRequestInput>();
    // answers keep the spec's SourceValue
    expectTypeOf<Credential['source']>().toEqualTypeOf<SourceValue>();
  });

  it('association, version and doctor answers are typed', () => {
    const kis = { connectors: {} } as unknown as KisClient;
    expectTypeOf(
      kis.connectors.associateCredential,
    ).returns.resolves.toEqualTypeOf<AssociationResult>();
    expectTypeOf<AssociationResult['ccPairId']>().toEqualTypeOf<number | null>();
    expectTypeOf(kis.version).returns.resolves.toEqualTypeOf<ServerVersion | null>();
    expectTypeOf(kis.doctor).returns.resolves.toEqualTypeOf<DoctorReport>();
    expectTypeOf<DoctorReport['checks']>().toEqualTypeOf<DoctorCheck[]>();
    expectTypeOf<DoctorCheck['fix']>().toEqualTypeOf<string | undefined>();
  });

  it('errors expose typed fields', () => {
    expectTypeOf<UnprocessableEntityError['detail']>().toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf<ValidationIssue['loc']>().toEqualTypeOf<Array<string | number>>();
    const e: unknown = null;
    if (UnprocessableEntityError.isInstance(e))
      expectTypeOf(e).toEqualTypeOf<UnprocessableEntityError>();
  });
});
