import { closeValues } from '@kis/client';
import { describe, expect, it } from 'vitest';
import {
  accessTypes,
  checkEnum,
  checkSource,
  documentSources,
  inputTypes,
} from '../src/internal/enums.js';
import { UsageError } from '../src/internal/errors.js';

describe('enumerations from the spec', () => {
  it('reads the 60 DocumentSource values from @kis/spec', () => {
    const values = documentSources();
    expect(values).toHaveLength(60);
    expect(values).toContain('jira');
    expect(values).toContain('ingestion_api');
    expect(inputTypes()).toContain('poll');
    expect(accessTypes()).toEqual(['public', 'private', 'sync']);
  });

  it('accepts values case-insensitively, returning the canonical spelling', () => {
    expect(checkSource('--source', 'JIRA')).toBe('jira');
    expect(checkEnum('--access-type', 'PUBLIC', accessTypes(), { what: 'access type' })).toBe(
      'public',
    );
  });

  it('rejects unknown values listing the close ones', () => {
    expect(() => checkSource('--source', 'jirra')).toThrow(UsageError);
    expect(() => checkSource('--source', 'jirra')).toThrow(
      '--source: unknown source "jirra"; did you mean jira? (`kis sources` lists all values)',
    );
    expect(closeValues('confluense', documentSources())).toEqual(['confluence']);
    expect(closeValues('google', documentSources())).toEqual(
      expect.arrayContaining(['google_drive', 'google_sites', 'google_cloud_storage']),
    );
    expect(() => checkEnum('--input-type', 'pol', inputTypes(), { what: 'input type' })).toThrow(
      '--input-type: unknown input type "pol"; did you mean poll? (expected one of: load_state, poll, event, slim_retrieval)',
    );
    expect(() => checkSource('--source', 'zzzzzzzzzz')).toThrow(
      '--source: unknown source "zzzzzzzzzz" (`kis sources` lists all values)',
    );
  });
});
