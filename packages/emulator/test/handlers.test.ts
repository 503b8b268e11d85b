// Every operation of the bundled spec has a handler, and a spec operation without one stops the
// emulator at start-up with an error naming it (never a route skipped silently).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedOn } from '@kis/rules';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { spec } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'kis-emulator-spec-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Operation = { id: string; method: string; path: string; profiles?: string[] };

function operations(doc: typeof spec): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, raw]) => {
      const op = raw as { operationId?: unknown; 'x-kis-profiles'?: string[] };
      if (typeof op.operationId !== 'string') return [];
      return [{ id: op.operationId, method, path, profiles: op['x-kis-profiles'] }];
    }),
  );
}

describe('handlers', () => {
  it.each(['seed', 'deployed'] as const)(
    'every operation of the bundled spec is served by a handler (%s)',
    async (profile) => {
      const emulator = await startEmulator({ profile });
      try {
        for (const op of operations(spec)) {
          if (op.profiles !== undefined && !op.profiles.includes(profile)) continue;
          // a route the kind of server lacks answers FastAPI's 404 (the rule book's servedOn)
          if (!servedOn(emulator.kind, op.id)) continue;
          const r = await fetch(`${emulator.baseUrl}${op.path.replace(/\{[^}]+\}/g, '1')}`, {
            method: op.method.toUpperCase(),
            headers: { authorization: `Bearer ${emulator.adminKey}` },
          });
          const body = await r.text();
          expect(body, `${op.id}: ${r.status} ${body}`).not.toMatch(/Not Found|Method Not Allowed/);
          expect(r.status, op.id).not.toBe(500);
        }
      } finally {
        await emulator.close();
      }
    },
  );

  it('a spec operation without a handler stops the start with an error naming it', async () => {
    const file = createRequire(import.meta.url).resolve('@kis/spec/openapi.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as typeof spec;
    doc.paths['/manage/admin/frobnicate'] = {
      post: {
        operationId: 'frobnicateConnectors',
        'x-kis-role': { seed: 'admin', deployed: 'curator' },
        responses: { '200': { description: 'done' } },
      },
    };
    const specPath = join(dir, 'extra-operation.json');
    writeFileSync(specPath, JSON.stringify(doc));
    await expect(startEmulator({ specPath })).rejects.toThrow(
      /no handler for the spec operation\(s\) frobnicateConnectors/,
    );
  });

  it('an operation without x-kis-role stops the start with an error naming it', async () => {
    const file = createRequire(import.meta.url).resolve('@kis/spec/openapi.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as typeof spec;
    const op = doc.paths['/svc-api/ingestion']?.post as Record<string, unknown>;
    delete op['x-kis-role'];
    const specPath = join(dir, 'no-role.json');
    writeFileSync(specPath, JSON.stringify(doc));
    await expect(startEmulator({ specPath, profile: 'deployed' })).rejects.toThrow(
      /ingestDocument .*x-kis-role\.deployed/,
    );
  });
});
