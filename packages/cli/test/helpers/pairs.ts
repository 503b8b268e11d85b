/**
 * What the end-to-end tests of the commands that operate pairs share: pairs made through the
 * emulator's API (set-up the commands under test do not do), polling its background work, and
 * one-line error checks.
 */
import type { Emulator } from '@kis/emulator';
import { expect } from 'vitest';
import { ADMIN_KEY, type KisResult } from './cli.js';

/** Polls `probe` until it holds (the emulator's background work runs on its own timer). */
export async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A call to the emulator's API as the admin key (set-up the commands under test do not do). */
export async function api(
  on: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const r = await fetch(`${on.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** A connector of `source` (no credential needed) and its pair; the pair's id. */
export async function newPair(
  on: Emulator,
  name: string,
  source: 'web' | 'file' = 'web',
): Promise<number> {
  const config =
    source === 'web'
      ? { base_url: 'https://example.com', web_connector_type: 'single' }
      : { file_locations: [] };
  const connector = (await api(on, 'POST', '/manage/admin/connector', {
    name,
    source,
    input_type: 'load_state',
    access_type: 'public',
    connector_specific_config: config,
  })) as { id: number };
  const pair = (await api(on, 'PUT', `/manage/connector/${connector.id}/credential/0`, {
    name,
    access_type: 'public',
  })) as { data: number };
  return pair.data;
}

export const pairOf = (on: Emulator, id: number) => on.state.pairs().find((p) => p.id === id);
export const newestAttempt = (on: Emulator, id: number) => on.state.indexAttempts(id)[0];

/** Exit code `code` and one line on stderr matching `pattern`. */
export function expectOneError(r: KisResult, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** `s` as a regular expression matching it literally. */
export const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
