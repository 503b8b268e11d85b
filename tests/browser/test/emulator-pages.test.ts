// The emulator's own pages in Chromium: the admin page (a connector shows only once a credential
// is associated) and the API reference at /docs (every operation rendered, nothing fetched from
// outside the emulator).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Browser, launchBrowser, screenshot } from './helpers.js';

interface Operation {
  operationId: string;
  summary: string;
  method: string;
  path: string;
}

const spec = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@kis/spec/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, { operationId?: string; summary?: string }>> };

const operations: Operation[] = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => typeof op?.operationId === 'string')
    .map(([method, op]) => ({
      operationId: op.operationId!,
      summary: op.summary ?? '',
      method,
      path,
    })),
);

let emulator: Emulator;
let browser: Browser;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

describe('emulator admin page', () => {
  it('shows a connector only after a credential is associated with it', async () => {
    const { page, errors } = await browser.newPage();
    const name = 'Admin page connector';
    const created = await api<{ id: number }>(emulator, 'POST', '/manage/admin/connector', {
      name,
      source: 'web',
      input_type: 'load_state',
      access_type: 'public',
      connector_specific_config: {},
      refresh_freq: null,
      prune_freq: null,
    });
    expect(created.status).toBe(200);

    await page.goto(`${emulator.url}/`);
    await page.locator('h1').first().waitFor();
    expect(await page.locator('body').textContent()).not.toContain(name);
    expect(emulator.state.connectors().map((c) => c.name)).not.toContain(name);

    const associated = await api<{ success: boolean; data: number }>(
      emulator,
      'PUT',
      `/manage/admin/connector/${created.body.id}/credential/0`,
    );
    expect(associated.body.success).toBe(true);

    await page.reload();
    await page.getByText(name).first().waitFor();
    expect(await page.locator('body').textContent()).toContain(`pair ${associated.body.data}`);
    expect(emulator.state.connectors().map((c) => c.name)).toContain(name);
    await screenshot(page, 'emulator-admin');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('API reference (/docs)', () => {
  it('renders every operation of the spec, offline', async () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [
        'associateCredential',
        'associateCredentialWithConnector',
        'createConnector',
        'createCredential',
        'deleteIngestedDocument',
        'dissociateCredential',
        'getVersion',
        'ingestDocument',
        'listConnectorDocuments',
        'listCredentials',
        'listIngestedDocuments',
        'updateCredentialPrivateKey',
        'uploadProjectFiles',
        'uploadUserFiles',
        'listConnectors',
        'getConnector',
        'updateConnector',
        'deleteConnector',
        'listConnectorStatus',
        'getCcPair',
        'renameCcPair',
        'setCcPairStatus',
        'createDeletionAttempt',
        'getCredential',
        'updateCredential',
        'replaceCredentialJson',
        'deleteCredential',
        // operating pairs, checking documents, keys (compat-lifecycle.md)
        'listIndexAttempts',
        'listIndexingErrors',
        'pruneCcPair',
        'getCcPairLastPruned',
        'runConnectorOnce',
        'listIndexingStatus',
        'getDocumentSizeInfo',
        'getChunkInfo',
        'getMe',
        'getMyPermissions',
        'createApiKey',
        // verifying, scoping and search settings (compat-trust.md)
        'adminSearch',
        'getSecondarySearchSettings',
        'getAllSearchSettings',
        'getReindexProgress',
        'listReindexErrors',
        'setDocumentHidden',
        'listBoostedDocuments',
        'setDocumentBoost',
        'createDocumentSet',
        'updateDocumentSet',
        'deleteDocumentSet',
        'listDocumentSets',
        'listUserGroups',
        'createUserGroup',
        'renameUserGroup',
        'updateUserGroup',
        'deleteUserGroup',
        'addUserGroupUsers',
        'updateUserGroupDocumentSets',
        'setUserGroupManager',
        'setUserGroupCurator',
      ].sort(),
    );
    const { page, errors, consoleLines } = await browser.newPage();
    // Anything not served by the emulator is recorded and refused: the page must not need it.
    const outside: string[] = [];
    await page.route(
      (url) => url.origin !== emulator.url && !['data:', 'blob:', 'about:'].includes(url.protocol),
      async (route) => {
        outside.push(route.request().url());
        await route.abort('blockedbyclient');
      },
    );
    const response = await page.goto(`${emulator.url}/docs`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Knowledge Indexing Service API reference');

    // Redoc's menu lists each tag's operations (links `#/<tag>/<operationid>` named by the
    // summary) once the tag is opened; every operation must be there.
    const tags = await page.$$eval('a[href^="/"]', (as) =>
      as.map((a) => a.getAttribute('href')!).filter((h) => h !== '/' && !h.startsWith('/section/')),
    );
    expect(tags.length).toBeGreaterThan(0);
    const menu = new Map<string, string[]>(); // route -> texts of the links to it
    for (const tag of tags) {
      await page.click(`a[href="${tag}"]`);
      await page.locator(`a[href^="#${tag}/"]`).first().waitFor();
      const links = await page.$$eval('a[href^="#/"]', (as) =>
        as.map((a) => [a.getAttribute('href')!, a.textContent ?? ''] as const),
      );
      for (const [href, text] of links) menu.set(href, [...(menu.get(href) ?? []), text]);
    }
    const routeOf = (op: Operation): string | undefined =>
      [...menu].find(
        ([href, texts]) =>
          href.endsWith(`/${op.operationId.toLowerCase()}`) &&
          texts.some((t) => t.includes(op.summary)),
      )?.[0];
    for (const op of operations) {
      expect(routeOf(op), `${op.operationId}: "${op.summary}" in the menu`).toBeDefined();
    }
    // Opening each one from the menu renders its summary as a heading, with its path.
    const open = async (op: Operation): Promise<void> => {
      const route = routeOf(op)!; // '#/<tag>/<operationid>'
      // the link's own click: while Redoc re-renders its menu (a loaded machine), a pointer
      // click at the link's place lands on the menu item moving over it
      await page
        .locator(`a[href="${route.slice(1, route.lastIndexOf('/'))}"]`)
        .dispatchEvent('click');
      await page
        .locator(`a[href="${route}"]`, { hasText: op.summary })
        .first()
        .dispatchEvent('click');
      const section = page.locator(`[id="${route.slice(2)}"]`);
      const heading = section.locator('h1, h2', { hasText: op.summary }).first();
      await heading.waitFor();
      expect((await heading.textContent())?.trim(), op.operationId).toBe(op.summary);
      expect(await section.textContent(), op.operationId).toContain(op.path);
    };
    for (const op of operations) await open(op);
    await open(operations.find((o) => o.operationId === 'ingestDocument')!);
    await screenshot(page, 'emulator-docs', false);
    expect(outside).toEqual([]);
    // The page's Content-Security-Policy refuses only the badge logo Redoc points at its CDN.
    const refused = consoleLines.filter((l) => /Content Security Policy/i.test(l));
    for (const line of refused) expect(line).toMatch(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini/);
    expect(errors).toEqual([]);
    await page.close();
    // Opening 27 operations one by one takes 20-30 s here, and twice that while CI builds
    // native modules beside it.
  }, 180_000);
});
