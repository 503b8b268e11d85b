import { describe, expect, it } from 'vitest';
import { journalFor, pairJournalFile } from '../src/internal/pair-journal.js';

const baseUrl = 'http://127.0.0.1:8080/api';

describe('journalFor', () => {
  it("keeps the pair's journal by default, the same file for kis ingest and kis sync", () => {
    expect(pairJournalFile(baseUrl, 2)).toBe('.kis/sync/127.0.0.1_8080_api-pair-2.jsonl');
    expect(journalFor({ ccPair: 2, baseUrl })).toEqual({
      file: '.kis/sync/127.0.0.1_8080_api-pair-2.jsonl',
      isDefault: true,
    });
    expect(journalFor({ ccPair: 2, baseUrl: 'https://kis.example.com/api' })?.file).toBe(
      '.kis/sync/kis.example.com_api-pair-2.jsonl',
    );
  });

  it('takes --journal FILE over it, and keeps none with --no-journal, no pair or no server', () => {
    expect(journalFor({ journal: 'j.jsonl', ccPair: 2, baseUrl })).toEqual({
      file: 'j.jsonl',
      isDefault: false,
    });
    expect(journalFor({ journal: 'j.jsonl', baseUrl: undefined })?.file).toBe('j.jsonl');
    expect(journalFor({ journal: false, ccPair: 2, baseUrl })).toBeUndefined();
    expect(journalFor({ baseUrl })).toBeUndefined();
    expect(journalFor({ ccPair: 2, baseUrl: undefined })).toBeUndefined();
  });
});
