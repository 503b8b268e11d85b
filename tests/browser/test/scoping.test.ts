// The console's scoping (apps/web, built) in Chromium against the emulator playing a deployed
// server: the document-sets page (sets listed with their pairs and who may use each, a set created
// from pair ids, followed until its sync is done, an unknown group refused at its field) and the
// pair page's access (public; private with its groups and the credential's owner).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, consoleStage, screenshot } from './helpers.js';

const stage = consoleStage({
  profile: 'deployed',
  tasks: { syncMs: 400 },
});

/** A file connector and its pair with `access`, in `groups`, made through the API; the pair id. */
async function filePair(name: string, access = 'public', groups: number[] = []): Promise<number> {
  const connector = await api<{ id: number }>(stage.emulator, 'POST', '/manage/admin/connector', {
    name,
    source: 'file',
    input_type: 'load_state',
    access_type: access,
    connector_specific_config: { file_locations: [] },
  });
  const pair = await api<{ data: number }>(
    stage.emulator,
    'PUT',
    `/manage/connector/${connector.body.id}/credential/0`,
    { name, access_type: access, groups },
  );
  return pair.body.data;
}

async function connected() {
  const tab = await stage.browser.newPage();
  const { page } = tab;
  await page.goto(`${stage.site.origin}/?baseUrl=${encodeURIComponent(stage.emulator.baseUrl)}`);
  await page.fill('#api-key', stage.emulator.adminKey);
  await page.click('button[type=submit]:has-text("Connect")');
  await page.locator('#settings-status', { hasText: 'Connected to' }).waitFor();
  return tab;
}

const setRow = (page: Page, name: string) =>
  page.$$eval(`#sets-table tbody tr[data-set="${name}"] td`, (tds) =>
    tds.map((td) => td.textContent ?? ''),
  );

describe('the document-sets page', () => {
  it('creates a set from pair ids and follows it until its sync is done', async () => {
    const docs = await filePair('Docs');
    const wiki = await filePair('Wiki');
    const { page, errors } = await connected();
    await page.locator('#sets-status', { hasText: '0 document set(s), all synced.' }).waitFor();
    await page.fill('#set-name', 'Handbook');
    await page.fill('#set-pairs', `${docs}, ${wiki}`);
    await page.click('#set-create');
    await page
      .locator('#set-form-status', { hasText: /Document set \d+ “Handbook” created/ })
      .waitFor();
    await page.locator('#sets-status', { hasText: '1 document set(s), all synced.' }).waitFor({
      timeout: 15_000,
    });
    const [, name, pairs, who, state] = await setRow(page, 'Handbook');
    expect([name, pairs, who, state]).toEqual(['Handbook', 'Docs, Wiki', 'everyone', 'synced']);
    expect(stage.emulator.state.documentSets().map((s) => s.name)).toEqual(['Handbook']);
    await screenshot(page, 'document-sets');
    expect(errors).toEqual([]);
  });

  it('shares a set with a group by name, and refuses a group that does not exist at its field', async () => {
    const group = await api<{ id: number }>(stage.emulator, 'POST', '/manage/admin/user-group', {
      name: 'Support',
      user_ids: [],
      cc_pair_ids: [],
    });
    const tickets = await filePair('Tickets', 'private', [group.body.id]);
    const { page, errors } = await connected();
    await page.fill('#set-name', 'Support answers');
    await page.fill('#set-pairs', String(tickets));
    await page.uncheck('#set-public');
    await page.fill('#set-groups', 'Nobody');
    await page.click('#set-create');
    await page
      .locator('#set-form-status', { hasText: 'Groups: no group named “Nobody”' })
      .waitFor();
    expect(await page.getAttribute('#set-groups', 'aria-invalid')).toBe('true');
    await page.fill('#set-groups', 'Support');
    await page.click('#set-create');
    await page.locator('#set-form-status', { hasText: /“Support answers” created/ }).waitFor();
    await page.locator('#sets-table tbody tr[data-set="Support answers"]').waitFor();
    expect((await setRow(page, 'Support answers'))[3]).toBe('1 group(s), 0 user(s)');
    expect(errors).toEqual([]);
  });
});

describe("the pair page's access", () => {
  async function openPair(id: number) {
    const tab = await connected();
    await tab.page.fill('#pair-id', String(id));
    await tab.page.click('#pair-load');
    await tab.page.locator('#pair-detail dd[data-field="Who sees its documents"]').waitFor();
    return tab;
  }
  const field = (page: Page, name: string) =>
    page.textContent(`#pair-detail dd[data-field="${name}"]`);

  it('says who sees a public pair, and a private pair through its groups', async () => {
    const open = await openPair(await filePair('Open'));
    expect(await field(open.page, 'Access')).toBe('public');
    expect(await field(open.page, 'Who sees its documents')).toBe('everyone (public)');

    const team = await api<{ id: number }>(stage.emulator, 'POST', '/manage/admin/user-group', {
      name: 'Team',
      user_ids: [],
      cc_pair_ids: [],
    });
    const closed = await openPair(await filePair('Closed', 'private', [team.body.id]));
    expect(await field(closed.page, 'Access')).toBe('private');
    expect(await field(closed.page, 'Who sees its documents')).toBe('group “Team”');
    await screenshot(closed.page, 'pair-access');
    expect([...open.errors, ...closed.errors]).toEqual([]);
  });
});
