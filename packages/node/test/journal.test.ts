/**
 * The file journal: what it records survives a re-open (last line of an id wins, escaped ids,
 * lines written by hand), a torn last line is cut off, a file that is not a journal is refused,
 * a journal of many lines is read in chunks into 24 bytes a document, and the `doc_updated_at` a
 * run stamped on a document without one is kept with its acknowledgement for the next run.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openJournal } from '../src/index.js';
import { eachLine } from '../src/journal/line-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'kis-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tmp = (name: string) => join(dir, name);
const at = '2026-01-01T00:00:00.000Z';

describe('FileJournal', () => {
  it('tolerates a torn last line and refuses a file that is not a journal', () => {
    const path = tmp('torn.jsonl');
    const j = openJournal(path);
    j.record({ id: 'a', hash: 'h1', status: 'created', ccPairId: null, at: 'now' });
    j.close();
    appendFileSync(path, '{"id":"b","hash":"h2","sta');
    const again = openJournal(path);
    expect(again.repaired).toBe(true);
    expect(again.has('a', 'h1')).toBe(true);
    expect(again.has('b', 'h2')).toBe(false);
    again.record({ id: 'c', hash: 'h3', status: 'updated', ccPairId: 1, at: 'now' });
    again.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.filter(Boolean).map((l) => JSON.parse(l).id ?? 'header')).toEqual([
      'header',
      'a',
      'c',
    ]);
    const data = tmp('data.jsonl');
    writeFileSync(data, '{"document":{}}\n');
    expect(() => openJournal(data)).toThrow(/is not a kis ingest journal/);
    const noNewline = tmp('no-newline.txt');
    writeFileSync(noNewline, 'some notes');
    expect(() => openJournal(noNewline)).toThrow(/is not a kis ingest journal/);
    expect(readFileSync(noNewline, 'utf8')).toBe('some notes'); // left as it was
    const damaged = tmp('damaged.jsonl');
    writeFileSync(damaged, '{"kis":"ingest-journal","v":1}\nnot json\n{"id":"x","hash":"y"}\n');
    expect(() => openJournal(damaged)).toThrow(/damaged.jsonl:2: not valid JSON/);
  });

  it('starts over when only the beginning of its header was written', () => {
    const path = tmp('torn-header.jsonl');
    writeFileSync(path, '{"kis":"ingest-jou');
    const j = openJournal(path);
    expect(j.repaired).toBe(true);
    j.record({ id: 'a', hash: 'h', status: 'created', ccPairId: null, at });
    j.close();
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('{"kis":"ingest-journal","v":1}');
  });

  it('reads back what it recorded, escaped ids included, the last line of an id winning', () => {
    const path = tmp('reread.jsonl');
    const j = openJournal(path);
    j.record({
      id: 'docs%2Fa.md',
      hash: 'h1',
      status: 'created',
      ccPairId: 2,
      at,
      fingerprint: 'f1',
    });
    j.record({
      id: 'say "hi"\\',
      hash: 'h2',
      status: 'created',
      ccPairId: null,
      at,
      fingerprint: 'f"2',
    });
    j.record({ id: 'docs%2Fa.md', hash: 'h3', status: 'updated', ccPairId: 2, at });
    j.record({ id: 'né', hash: 'h4', status: 'created', ccPairId: 7, at, fingerprint: 'f4' });
    j.recordUpload({ sha256: 's', fileId: 'file-1', name: 'a.png' });
    j.close();
    // lines written by hand, as another version might: keys in another order, extra keys
    appendFileSync(path, `{"hash":"h5","id":"x","status":"created","fp":"f5","extra":1}\n`);
    const again = openJournal(path);
    expect(again.size).toBe(4);
    expect([again.has('docs%2Fa.md', 'h3'), again.has('docs%2Fa.md', 'h1')]).toEqual([true, false]);
    expect(again.hasFingerprint('docs%2Fa.md', 'f1')).toBe(false); // the last line had none
    expect([again.has('say "hi"\\', 'h2'), again.hasFingerprint('say "hi"\\', 'f"2')]).toEqual([
      true,
      true,
    ]);
    expect([again.has('né', 'h4'), again.hasFingerprint('né', 'f4')]).toEqual([true, true]);
    expect([again.has('x', 'h5'), again.hasFingerprint('x', 'f5')]).toEqual([true, true]);
    expect([again.has('c', 'h'), again.hasFingerprint('c', 'f')]).toEqual([false, false]);
    expect(again.uploadOf('s')).toBe('file-1');
    again.close();
  });

  it('opens a journal of 200,000 documents in chunks, at a few dozen bytes a document', () => {
    const path = tmp('big.jsonl');
    const lines = ['{"kis":"ingest-journal","v":1}'];
    for (let i = 0; i < 200_000; i++) {
      lines.push(
        JSON.stringify({
          id: `folder%2Fsub%2Fdocument-${i}.md`,
          hash: `${i.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`,
          status: 'created',
          ccPairId: 3,
          at,
          fp: `${i}:1700000000000`,
        }),
      );
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const j = openJournal(path);
    expect(j.size).toBe(200_000);
    expect(j.has('folder%2Fsub%2Fdocument-123456.md', `0001e240${'ab'.repeat(28)}`)).toBe(true);
    expect(j.hasFingerprint('folder%2Fsub%2Fdocument-199999.md', '199999:1700000000000')).toBe(
      true,
    );
    expect(j.has('folder%2Fsub%2Fdocument-200000.md', `00030d40${'ab'.repeat(28)}`)).toBe(false);
    // 24 bytes a slot at up to 80 % load, not the ~200 bytes of each line's text
    expect(j.memoryBytes).toBeLessThan(200_000 * 45);
    j.close();
  });
});

describe('FileJournal stamps', () => {
  it('keeps the doc_updated_at sent with an acknowledgement, for the same content only', () => {
    const path = tmp('stamps.jsonl');
    const j = openJournal(path);
    j.record({ id: 'a', hash: 'h1', status: 'created', ccPairId: 1, at, updatedAt: at });
    j.record({ id: 'b', hash: 'h2', status: 'created', ccPairId: 1, at });
    j.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[1]).toBe(
      `{"id":"a","hash":"h1","status":"created","ccPairId":1,"at":"${at}","upd":"${at}"}`,
    );
    const again = openJournal(path);
    expect(again.stampOf('a', 'h1')).toEqual({ updatedAt: at, sameContent: true });
    expect(again.stampOf('a', 'h9')).toEqual({ updatedAt: at, sameContent: false });
    // sent with a time of its own, or never sent: nothing stamped
    expect([again.stampOf('b', 'h2'), again.stampOf('c', 'h3')]).toEqual([undefined, undefined]);
    // a line written by hand, keys in another order, is read the same
    again.close();
    appendFileSync(path, `{"upd":"2026-02-02T02:02:02.000Z","hash":"h4","id":"d","at":"${at}"}\n`);
    const third = openJournal(path);
    expect(third.stampOf('d', 'h4')).toEqual({
      updatedAt: '2026-02-02T02:02:02.000Z',
      sameContent: true,
    });
    third.close();
  });
});

describe('FileJournal memory', () => {
  it('keeps what this process records in the file, not in memory, until refresh()', () => {
    const path = tmp('session.jsonl');
    const first = openJournal(path);
    first.record({ id: 'old', hash: 'h0', status: 'created', ccPairId: 1, at });
    first.close();
    const j = openJournal(path);
    const bytes = j.memoryBytes;
    for (let i = 0; i < 50_000; i++) {
      j.record({
        id: `doc-${i}`,
        hash: `h${i}`,
        status: 'created',
        ccPairId: 1,
        at,
        fingerprint: `f${i}`,
      });
    }
    // a run of 50,000 documents needs what a run of one does
    expect(j.memoryBytes).toBe(bytes);
    expect([j.size, j.has('old', 'h0'), j.has('doc-7', 'h7')]).toEqual([1, true, false]);
    j.refresh();
    expect(j.size).toBe(50_001);
    expect([j.has('doc-7', 'h7'), j.hasFingerprint('doc-49999', 'f49999')]).toEqual([true, true]);
    // a line another process appended meanwhile is taken in too
    appendFileSync(
      path,
      `${JSON.stringify({ id: 'other', hash: 'hx', status: 'created', ccPairId: 1, at })}\n`,
    );
    j.refresh();
    expect(j.has('other', 'hx')).toBe(true);
    j.close();
    expect(openJournal(path).size).toBe(50_002);
  });
});

describe('eachLine', () => {
  it('hands out lines that straddle chunks and lines longer than a chunk whole', () => {
    const long = 'x'.repeat(3 << 20);
    const text = Buffer.from(`one\n${long}\nthré\npartial`, 'utf8');
    const seen: string[] = [];
    const result = eachLine(
      (buffer, position) => text.copy(buffer, 0, position, position + buffer.length),
      (line) => seen.push(line),
    );
    expect(seen.map((l) => (l.length > 10 ? l.length : l))).toEqual(['one', long.length, 'thré']);
    expect(result).toEqual({ complete: text.length - 'partial'.length, torn: true });
  });
});
