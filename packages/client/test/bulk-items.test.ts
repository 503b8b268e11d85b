// Items built by the run (`load`): extraction and image uploads inside the run's limit, uploads
// once per content and remembered in the journal; and runs that stop on a refused key.
import { describe, expect, it } from 'vitest';
import type { IngestItem } from '../src/index.js';
import { client, json, memoryJournal, mockFetch } from './helpers.js';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, n]);

/** A server that stores uploads and documents; answers uploads on the deployed path. */
function server(uploadDelayMs = 0) {
  let uploads = 0;
  const stored = new Map<string, unknown>();
  const { fetch, calls } = mockFetch(async (call) => {
    if (call.url.endsWith('/file/upload')) {
      uploads++;
      if (uploadDelayMs > 0) await new Promise((r) => setTimeout(r, uploadDelayMs));
      const part = (call.rawBody as FormData).get('files') as File;
      return json({
        user_files: [{ id: `u${uploads}`, name: part.name, file_id: `file-${uploads}` }],
        rejected_files: [],
      });
    }
    const body = call.body as { document: { id: string } };
    const existed = stored.has(body.document.id);
    stored.set(body.document.id, body);
    return json({ document_id: body.document.id, already_existed: existed });
  });
  return { fetch, calls, stored, uploadCount: () => uploads };
}

const items = (): IngestItem[] =>
  [1, 2, 1, 3].map((n, i) => ({
    ref: `img-${i}.png`,
    load: async (tools) => ({
      id: `img-${i}`,
      semantic_identifier: `Image ${i}`,
      sections: [
        { image_file_id: await tools.imageFileId({ data: png(n), fileName: `img-${i}.png` }) },
      ],
      metadata: {},
    }),
  }));

describe('items built by the run', () => {
  it('uploads each image content once and remembers it in the journal for a resumed run', async () => {
    const { journal } = memoryJournal();
    const s1 = server();
    const first = await client(s1.fetch).ingestMany(items(), { journal }).done();
    expect(first.created).toBe(4);
    expect(s1.uploadCount()).toBe(3); // images 1, 2, 3: the second 1 reuses the first upload

    // a re-run with the same journal: nothing uploaded again, every document skipped
    const s2 = server();
    const second = await client(s2.fetch).ingestMany(items(), { journal }).done();
    expect(second.skipped).toBe(4);
    expect(s2.uploadCount()).toBe(0);
    expect(s2.calls).toHaveLength(0);
  });

  it('skips an item whose id and fingerprint the journal recorded for its pair, without loading it', async () => {
    const { journal, acked } = memoryJournal();
    let loads = 0;
    const stamped = (fingerprint: string): IngestItem[] =>
      [1, 2].map((n) => ({
        id: `doc/${n}`,
        fingerprint: `${fingerprint}${n}`,
        load: () => {
          loads++;
          return {
            id: `doc/${n}`,
            semantic_identifier: `Doc ${n}`,
            sections: [{ text: 'x' }],
            metadata: {},
          };
        },
      }));
    const s1 = server();
    expect(
      (await client(s1.fetch).ingestMany(stamped('v1-'), { journal, ccPairId: 3 }).done()).created,
    ).toBe(2);
    expect(acked.get('doc%2F1')?.fingerprint).toBe('v1-1@3');
    expect(loads).toBe(2);

    // the same stamps: skipped unread
    const s2 = server();
    const again = await client(s2.fetch)
      .ingestMany(stamped('v1-'), { journal, ccPairId: 3 })
      .done();
    expect(again.skipped).toBe(2);
    expect(loads).toBe(2);
    expect(s2.calls).toHaveLength(0);

    // new stamps, same content: read and hashed, still skipped
    const s3 = server();
    const touched = await client(s3.fetch)
      .ingestMany(stamped('v2-'), { journal, ccPairId: 3 })
      .done();
    expect(touched.skipped).toBe(2);
    expect(loads).toBe(4);
    expect(s3.calls).toHaveLength(0);

    // another pair: read and sent
    const s4 = server();
    const other = await client(s4.fetch)
      .ingestMany(stamped('v1-'), { journal, ccPairId: 4 })
      .done();
    expect(other.created).toBe(2);
    expect(loads).toBe(6);
  });

  it('uploads 40 images at once without a listener each on the run signal (no Node warning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const s = server(30);
      const many: IngestItem[] = Array.from({ length: 40 }, (_, i) => ({
        ref: `many-${i}.png`,
        load: async (tools) => ({
          id: `many-${i}`,
          semantic_identifier: `Image ${i}`,
          sections: [
            {
              image_file_id: await tools.imageFileId({ data: png(100 + i), fileName: `m${i}.png` }),
            },
          ],
          metadata: {},
        }),
      }));
      const summary = await client(s.fetch).ingestMany(many, { concurrency: 40 }).done();
      expect(summary.created).toBe(40);
      expect(s.uploadCount()).toBe(40);
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a load that throws fails that document alone; a dry run uploads nothing', async () => {
    const s = server();
    const input: IngestItem[] = [
      ...items(),
      {
        ref: 'broken.pdf',
        load: () => {
          throw new Error('broken.pdf: not a PDF');
        },
      },
    ];
    const results = [];
    for await (const r of client(s.fetch).ingestMany(input, { dryRun: true })) results.push(r);
    expect(results.filter((r) => r.status === 'valid')).toHaveLength(4);
    const failed = results.find((r) => r.status === 'failed');
    expect(failed?.ref).toBe('broken.pdf');
    expect(failed?.error?.message).toBe('broken.pdf: not a PDF');
    expect(s.calls).toHaveLength(0);
  });
});

describe('runs that cannot go on', () => {
  it.each([
    [401, { detail: 'bad key' }],
    [403, { detail: 'Access denied. User is not authenticated.' }],
    [404, { detail: 'Not Found' }],
  ])('stop at the first %i %j instead of failing every document', async (status, body) => {
    const { fetch, calls } = mockFetch(() => json(body, status));
    const docs = Array.from({ length: 500 }, (_, i) => ({
      id: `d${i}`,
      semantic_identifier: `D${i}`,
      sections: [{ text: 'x' }],
      metadata: {},
    }));
    const s = await client(fetch).ingestMany(docs, { concurrency: 4 }).done();
    expect(s.stopped?.reason).toBe('refused');
    expect(calls.length).toBeLessThanOrEqual(8);
    expect(s.total).toBeLessThan(500);
  });
});
