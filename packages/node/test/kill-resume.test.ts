import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash, type IngestSummary, normalizeDocumentId } from '@kis/client';
import { startLoopback } from '@kis/test-support';
import { describe, expect, it, onTestFinished } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/ingest-child.mjs', import.meta.url));
const KEY = 'kill-test-key-SECRET-91';

function runChild(env: Record<string, string>) {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => out, errors: () => err };
}

async function until(cond: () => boolean, what: string, timeoutMs = 20_000) {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The journal's acknowledgements: content hash and the doc_updated_at stamped on the send. */
function journalIds(path: string): Map<string, { hash: string; updatedAt?: string }> {
  const map = new Map<string, { hash: string; updatedAt?: string }>();
  const lines = readFileSync(path, 'utf8').split('\n').slice(1);
  for (const line of lines) {
    if (!line) continue;
    const e = JSON.parse(line);
    map.set(e.id, { hash: e.hash, updatedAt: e.upd });
  }
  return map;
}

/** A stored body without the stamp kis added: the content the journal's hash covers. */
function unstamped(body: { document: Record<string, unknown> }) {
  const { doc_updated_at: _stamp, ...document } = body.document;
  return { ...body, document };
}

describe('resume after SIGKILL', () => {
  it('a run killed twice mid-way completes on the next run: nothing lost, journal consistent', async () => {
    const server = await startLoopback({ delayMs: 2, seed: 7 }, KEY);
    const dir = mkdtempSync(join(tmpdir(), 'kis-kill-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const N = 1200;
    const env = {
      KIS_BASE_URL: server.url,
      KIS_API_KEY: KEY,
      KIS_JOURNAL: join(dir, 'journal.jsonl'),
      KIS_N: String(N),
    };
    try {
      for (const fraction of [0.25, 0.55]) {
        const c = runChild(env);
        await until(() => server.docs.size >= N * fraction, `${fraction * 100}% stored`);
        c.child.kill('SIGKILL');
        const { signal } = await c.exited;
        expect(signal).toBe('SIGKILL');
        // requests of the dead process that the server is still handling land before we look
        await until(() => server.inFlight === 0, 'the server to finish in-flight requests');
        expect(c.output()).not.toContain('SUMMARY');
        // journal consistent: everything it acknowledges is on the server with that content
        const acked = journalIds(env.KIS_JOURNAL);
        expect(acked.size).toBeGreaterThan(0);
        for (const [id, entry] of acked) {
          const stored = server.docs.get(id);
          expect(stored, id).toBeDefined();
          const body = stored?.body as { document: Record<string, unknown> };
          expect(body.document.doc_updated_at, id).toBe(entry.updatedAt);
          expect(await contentHash(unstamped(body))).toBe(entry.hash);
        }
      }
      const ackedBefore = journalIds(env.KIS_JOURNAL).size;
      const storedBefore = server.docs.size;
      expect(storedBefore).toBeLessThan(N);

      const last = runChild(env);
      const { code } = await last.exited;
      expect(last.errors()).toBe('');
      expect(code).toBe(0);
      const line = last
        .output()
        .split('\n')
        .find((l) => l.startsWith('SUMMARY '));
      const summary = JSON.parse(String(line).slice('SUMMARY '.length)) as IngestSummary;

      const expected = new Set(
        Array.from({ length: N }, (_, i) => normalizeDocumentId(`gen/${i}.md`)),
      );
      expect(new Set(server.docs.keys())).toEqual(expected);
      expect(summary.failed).toBe(0);
      expect(summary.total).toBe(N);
      expect(summary.skipped).toBe(ackedBefore);
      // stored but not yet journaled when killed → re-sent as an upsert
      expect(summary.updated).toBe(storedBefore - ackedBefore);
      expect(summary.created).toBe(N - storedBefore);
      const finalJournal = journalIds(env.KIS_JOURNAL);
      expect(new Set(finalJournal.keys())).toEqual(expected);
      expect(readFileSync(env.KIS_JOURNAL, 'utf8')).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
