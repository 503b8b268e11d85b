// The emulator stores document ids by the rule book's `storedDocumentId` (`@kis/rules`), in
// both profiles; the expected ids below are Python's quote(s.replace(' ', '_'), safe='').
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { doc, start } from './helpers.js';

const PYTHON_CASES: [string, string][] = [
  ['Q4 report (2024).pdf', 'Q4_report_%282024%29.pdf'],
  ["it's *fine*!", 'it%27s_%2Afine%2A%21'],
  ['a/b?c=d&e#f', 'a%2Fb%3Fc%3Dd%26e%23f'],
  ['héllo wörld', 'h%C3%A9llo_w%C3%B6rld'],
  ['日本語 doc', '%E6%97%A5%E6%9C%AC%E8%AA%9E_doc'],
  ['~tilde_under-dash.dot', '~tilde_under-dash.dot'],
  ['emoji 😀', 'emoji_%F0%9F%98%80'],
  ['100%', '100%25'],
  ['tab\there', 'tab%09here'],
  ['already%20encoded', 'already%2520encoded'],
];

for (const profile of ['seed', 'deployed'] as const) {
  describe(`document ids (${profile})`, () => {
    let emulator: Emulator;
    let call: Awaited<ReturnType<typeof start>>['call'];
    beforeAll(async () => {
      ({ emulator, call } = await start({ profile }));
    });
    afterAll(async () => {
      await emulator.close();
    });

    it.each(PYTHON_CASES)('a given id %j is stored as %j', async (id, stored) => {
      const r = await call('POST', '/svc-api/ingestion', { json: { document: doc({ id }) } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ document_id: stored });
      expect(emulator.state.document(stored)).toBeDefined();
    });

    it('derives ingestion_api_ + the semantic identifier when the id is missing, null or empty', async () => {
      for (const id of [undefined, null, '']) {
        const r = await call('POST', '/svc-api/ingestion', {
          json: { document: doc({ id, semantic_identifier: 'Q4 report (2024).pdf' }) },
        });
        expect(r.body).toMatchObject({ document_id: 'ingestion_api_Q4_report_%282024%29.pdf' });
      }
    });

    it('answers 400 {"message"} for an id with a lone surrogate, and stores nothing', async () => {
      const before = emulator.state.indexing().total;
      const r = await call('POST', '/svc-api/ingestion', {
        raw: '{"document": {"id": "x\\ud800y", "semantic_identifier": "s", "sections": [], "metadata": {}}}',
        contentType: 'application/json',
      });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body as object)).toEqual(['message']);
      expect(emulator.state.indexing().total).toBe(before);
    });
  });
}
