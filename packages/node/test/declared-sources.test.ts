/**
 * `documents` of a connector in `kis.yaml`: an SQL query or a git repository a sync sends into the
 * pair, checked with the rest of the file (no password written out, one of sql or git, the keys of
 * each), and opened as a source with its environment references resolved only then.
 */
import { describe, expect, it } from 'vitest';
import { desiredStateIssues } from '../src/declarative/validate.js';
import { type DesiredConnector, documentSource } from '../src/index.js';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
const REFERENCE = '${CRM_DATABASE_URL}';

const crm: DesiredConnector = {
  name: 'CRM tickets',
  source: 'ingestion_api',
  documents: {
    sql: {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the file's reference syntax
      connection: '${CRM_DATABASE_URL}',
      table: 'tickets',
      id: 'id',
      text: ['body', 'notes'],
      updated_at: 'updated_at',
      id_prefix: 'crm/',
    },
  },
};

const messages = async (connector: unknown) =>
  (await desiredStateIssues({ connectors: [connector] })).map((i) => `${i.path}: ${i.message}`);

describe('documents in kis.yaml', () => {
  it('takes an SQL source by reference and a git source', async () => {
    const handbook = {
      name: 'Handbook',
      source: 'file',
      config: { file_locations: [] },
      documents: { git: { repository: 'repos/handbook', ref: 'main' } },
    };
    expect(await messages(crm)).toEqual([]);
    expect(await messages(handbook)).toEqual([]);
  });

  it('refuses a password written out, both kinds, a missing mapping and unknown keys', async () => {
    const sql = crm.documents?.sql as object;
    expect(
      await messages({
        ...crm,
        documents: { sql: { ...sql, connection: 'postgres://kis:secret@db/crm' } },
      }),
    ).toEqual([
      `documents.sql.connection: holds a password: write a reference to an environment variable instead, e.g. ${REFERENCE}`,
    ]);
    expect(await messages({ ...crm, documents: { sql, git: { repository: 'x' } } })).toEqual([
      'documents: must hold one of sql or git',
    ]);
    expect(
      await messages({
        ...crm,
        documents: { sql: { connection: REFERENCE, table: 't', query: 'q', txt: 'b' } },
      }),
    ).toEqual([
      'documents.sql.txt: is not a key of documents.sql (did you mean text?); keys: connection, query, table, id, title, text, heading, metadata, updated_at, link, id_prefix',
      'documents.sql.id: is required: the column of the document ids',
      'documents.sql.text: is required: a column, or a list of columns',
      'documents.sql.query: give a query or a table (one of them)',
    ]);
  });

  it('opens the source, resolving the reference then and showing no password', async () => {
    const opened = documentSource(crm, {
      env: { CRM_DATABASE_URL: 'postgres://kis:secret@db.example.com:5432/crm' },
    });
    if (opened?.kind !== 'sql') throw new Error('expected an SQL source');
    expect(opened.source.connection).toBe('postgres://kis@db.example.com:5432/crm');
    expect(opened.source.owns('crm%2F1')).toBe(true);
    expect(() => documentSource(crm, { env: {} })).toThrow(
      'connector "CRM tickets" documents.sql.connection: environment variable CRM_DATABASE_URL is not set',
    );
    const git = documentSource(
      { name: 'Handbook', source: 'file', documents: { git: { repository: 'repos/handbook' } } },
      { baseDir: '/srv/config' },
    );
    expect(git).toMatchObject({
      kind: 'git',
      source: { repository: '/srv/config/repos/handbook', idPrefix: 'handbook/' },
    });
    expect(documentSource({ name: 'Jira', source: 'jira' })).toBeUndefined();
  });
});
