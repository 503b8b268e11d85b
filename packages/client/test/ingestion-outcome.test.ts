/**
 * `already_existed` read as the server's release means it (compat notes §5): true for a new
 * document from v0.20.0 until v3.3.0, false since; the release asked once per client. Against a
 * recording fetch that serves a release, and the emulator playing release 3.2.0.
 */
import { startEmulator } from '@kis/emulator';
import { describe, expect, it } from 'vitest';
import { createKisClient } from '../src/index.js';
import { API_KEY, client, textDocument as doc, json, mockFetch } from './helpers.js';

describe('already_existed, read as the release means it', () => {
  it.each([
    ['v3.2.0', true, 'created'],
    ['v3.2.0', false, 'updated'],
    ['v3.3.0', false, 'created'],
    ['v4.6.1', true, 'updated'],
  ] as const)(
    'on %s, already_existed %s is %s; the release is asked once',
    async (version, answer, outcome) => {
      const served = mockFetch(() => json({ document_id: 'a', already_existed: answer }), {
        version,
      });
      const kis = client(served.fetch);
      expect(await kis.ingestionOutcome({ already_existed: answer })).toBe(outcome);
      const run = await kis.ingestMany([doc('a'), doc('b')]).done();
      expect(run[outcome]).toBe(2);
      expect((await kis.ingestDocument(doc('c'))).alreadyExisted).toBe(outcome === 'updated');
      expect(served.versionAsked()).toBe(1);
    },
  );

  it('a server without /version is read as the newest releases answer', async () => {
    const served = mockFetch(() => json({ document_id: 'a', already_existed: false }));
    expect(
      (
        await client(served.fetch)
          .ingestMany([doc('a')])
          .done()
      ).created,
    ).toBe(1);
  });

  it('release 3.2.0 played by the emulator: a first push is created, a second updated', async () => {
    const emu = await startEmulator({
      port: 0,
      dbPath: ':memory:',
      adminKey: API_KEY,
      profile: 'deployed',
      serverVersion: '3.2.0',
    });
    try {
      const kis = createKisClient({ baseUrl: emu.baseUrl, apiKey: API_KEY, logLevel: 'off' });
      expect(await kis.ingestMany([doc('d', 'one')]).done()).toMatchObject({ created: 1 });
      expect(await kis.ingestMany([doc('d', 'two')]).done()).toMatchObject({ updated: 1 });
    } finally {
      await emu.close();
    }
  });
});
