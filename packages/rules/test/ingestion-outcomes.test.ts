// Table tests of ingestion de-duplication (docs/deployed-servers.md, "De-duplication"): what the
// content hash covers, the decision per call, and `already_existed` per release. Written out from
// compat notes §5.
import { describe, expect, it } from 'vitest';
import {
  alreadyExistedAnswer,
  contentHashInput,
  type IngestionDecision,
  ingestionDecision,
  pushUpdatedAt,
  REEMBED_RESETS,
  wasNewToIndex,
} from '../src/index.js';

const base = {
  title: 'Guide',
  sections: [{ text: 'step one' }, { text: 'step two', link: 'https://x/1' }],
  primary_owners: [{ email: 'a@x', display_name: 'A' }],
  secondary_owners: null,
};

describe('the content hash covers title, text, images and owners only', () => {
  it.each([
    [
      'another semantic identifier, metadata, source, times',
      {
        ...base,
        semantic_identifier: 'x',
        metadata: { a: '1' },
        source: 'web',
        doc_updated_at: '2020-01-01T00:00:00Z',
      },
      true,
    ],
    [
      'other section links',
      { ...base, sections: [{ text: 'step one', link: 'https://y' }, { text: 'step two' }] },
      true,
    ],
    [
      'a section split at the joining space',
      { ...base, sections: [{ text: 'step one step two' }] },
      true,
    ],
    [
      'owners in another order, fields in another order',
      { ...base, primary_owners: [{ display_name: 'A', email: 'a@x' }] },
      true,
    ],
    ['another title', { ...base, title: 'Guide 2' }, false],
    ['no title (not the semantic identifier)', { ...base, title: null }, false],
    ['other text', { ...base, sections: [{ text: 'step one' }, { text: 'step 2' }] }, false],
    ['an image section', { ...base, sections: [...base.sections, { image_file_id: 'f1' }] }, false],
    ['another owner', { ...base, secondary_owners: [{ email: 'b@x' }] }, false],
  ])('%s: same hash %s', (_, doc, same) => {
    expect(contentHashInput(doc) === contentHashInput(base)).toBe(same);
  });

  it('a null title hashes as an empty one; a tabular section adds nothing', () => {
    expect(contentHashInput({ title: null, sections: [] })).toBe(
      contentHashInput({ title: '', sections: [{ csv_file_id: 'c', link: 'l' }] }),
    );
    expect(contentHashInput({ sections: [{ image_file_id: 'f', text: 't' }] })).toBe(
      contentHashInput({ sections: [{ text: 't' }] }),
    );
  });
});

describe('the decision per call', () => {
  const stored = { updatedAt: '2026-01-10T00:00:00.000Z', contentHash: 'h1' };
  it.each<[string, string, string, IngestionDecision]>([
    ['a later time, same hash', '2026-01-11T00:00:00Z', 'h1', 'reembed'],
    ['a later time, other hash', '2026-01-11T00:00:00Z', 'h2', 'reembed'],
    ['the same time, same hash', '2026-01-10T00:00:00Z', 'h1', 'skip'],
    ['an earlier time, same hash', '2025-12-01T00:00:00Z', 'h1', 'skip'],
    ['the same time, other hash', '2026-01-10T00:00:00Z', 'h2', 'reembed'],
    ['an earlier time, other hash', '2025-12-01T00:00:00Z', 'h2', 'reembed'],
  ])('%s: %s', (_, updatedAt, contentHash, decision) => {
    expect(ingestionDecision(stored, { updatedAt, contentHash }, undefined)).toBe(decision);
    expect(ingestionDecision(stored, { updatedAt, contentHash }, 'v4.6.1')).toBe(decision);
  });

  it('an id not stored is indexed; before v4.0.0 every call re-embeds', () => {
    const sent = { updatedAt: '2026-01-10T00:00:00Z', contentHash: 'h1' };
    expect(ingestionDecision(undefined, sent, undefined)).toBe('index');
    expect(ingestionDecision(stored, sent, 'v3.3.0')).toBe('reembed');
    expect(ingestionDecision(stored, sent, 'v4.0.0')).toBe('skip');
  });

  it('a failed write left no hash: the next push re-embeds', () => {
    const failed = { updatedAt: '2026-01-10T00:00:00.000Z', contentHash: '' };
    expect(
      ingestionDecision(
        failed,
        { updatedAt: '2026-01-01T00:00:00Z', contentHash: 'h1' },
        undefined,
      ),
    ).toBe('reembed');
  });
});

describe('already_existed', () => {
  it.each<[string | undefined, boolean, boolean]>([
    [undefined, true, false],
    [undefined, false, true],
    ['v4.6.1', true, false],
    ['v3.3.0', true, false],
    ['v3.2.16', true, true],
    ['v3.2.16', false, false],
    ['v0.20.0', true, true],
    ['v0.19.0', true, false],
  ])('on %s, new to the index %s: %s', (version, wroteNew, answer) => {
    expect(alreadyExistedAnswer(wroteNew, version)).toBe(answer);
    expect(wasNewToIndex(answer, version)).toBe(wroteNew);
  });

  it('a push without doc_updated_at is compared as the time of the call: it re-embeds', () => {
    const call = new Date('2026-02-01T00:00:00.000Z');
    expect(pushUpdatedAt(undefined, call)).toBe('2026-02-01T00:00:00.000Z');
    expect(pushUpdatedAt(null, call)).toBe('2026-02-01T00:00:00.000Z');
    expect(pushUpdatedAt('2025-01-01T00:00:00.000Z', call)).toBe('2025-01-01T00:00:00.000Z');
    const stored = { updatedAt: '2026-01-01T00:00:00.000Z', contentHash: 'h' };
    const sent = { updatedAt: pushUpdatedAt(undefined, call), contentHash: 'h' };
    expect(ingestionDecision(stored, sent, undefined)).toBe('reembed');
  });

  it('a re-embed resets hidden and the boost', () => {
    expect(REEMBED_RESETS).toEqual({ hidden: false, boost: 0 });
  });
});
