/**
 * The release as users meet it: every public package at one version (the changesets' `fixed`
 * group), each installed copy in the consumer project showing that version and a CHANGELOG.md
 * whose first entry is that version, and `pnpm publish -r --dry-run` (the root's
 * `release:dry-run`) listing each package at it, against a registry address that answers
 * nothing, so no test publishes or reaches the internet.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { describeResult, run } from '../src/run.js';
import '../src/setup-context.js';
import { type PackageJson, readJson } from '../src/workspace.js';

const { consumer, tarballs, workspaceRoot } = inject('packaging');
const names = tarballs.map((t) => t.name);
const version = tarballs[0]?.version;

/** The versions a CHANGELOG.md has entries for, newest first (its `## x.y.z` headings). */
function entries(changelog: string): string[] {
  return [...changelog.matchAll(/^## (\d+\.\d+\.\d+\S*)$/gm)].map((m) => m[1] as string);
}

describe('the release', () => {
  it('gives every public package one version', async () => {
    expect(version).toBeDefined();
    expect(tarballs.filter((t) => t.version !== version).map((t) => t.name)).toEqual([]);
    // the changesets' config keeps them together: a release bumps all of them to one version
    const config = await readJson<{ fixed: string[][] }>(
      join(workspaceRoot, '.changeset', 'config.json'),
    );
    expect(config.fixed.flat().sort()).toEqual([...names].sort());
  });

  it.each(names)('%s, installed, shows the version and its changelog entry first', async (name) => {
    const installed = join(consumer.project, 'node_modules', name);
    const manifest = await readJson<PackageJson>(join(installed, 'package.json'));
    expect(manifest.version).toBe(version);
    const changelog = await readFile(join(installed, 'CHANGELOG.md'), 'utf8');
    expect(changelog.startsWith(`# ${name}\n`)).toBe(true);
    expect(entries(changelog)[0]).toBe(version);
    // an entry says what changed, not only which dependencies moved
    const latest = changelog.split(/^## /m)[1] ?? '';
    expect(latest).toMatch(/^### (Minor|Major|Patch) Changes$/m);
    expect(latest.split('\n').filter((l) => l.startsWith('- ')).length).toBeGreaterThan(0);
  });

  it('pnpm publish -r --dry-run lists every public package at the version, offline', async () => {
    const result = await run(
      'pnpm',
      ['publish', '-r', '--dry-run', '--no-git-checks', '--registry', 'http://127.0.0.1:9/'],
      {
        cwd: workspaceRoot,
        env: { ...process.env, npm_config_fetch_retries: '0' },
        timeoutMs: 240_000,
      },
    );
    expect(result.code, describeResult(result)).toBe(0);
    const listed = [...result.stdout.matchAll(/^\+ (@kis\/[a-z-]+)@(\S+)$/gm)].map(
      (m) => `${m[1]}@${m[2]}`,
    );
    expect(listed.sort()).toEqual(names.map((n) => `${n}@${version}`).sort());
  });
});
