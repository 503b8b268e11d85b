// The console's pair page (apps/web, built) in Chromium against the emulator playing a deployed
// server: a pair's status, its index attempts (followed while one runs) and unresolved errors,
// run, pause and resume, and a deletion that asks first.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, consoleStage, screenshot } from './helpers.js';

const stage = consoleStage({
  profile: 'deployed',
  tasks: { startDelayMs: 20, durationMs: 400, pruneMs: 50 },
});

/** A web connector and its pair, made through the API; the pair's id. */
async function webPair(name: string): Promise<number> {
  const connector = await api<{ id: number }>(stage.emulator, 'POST', '/manage/admin/connector', {
    name,
    source: 'web',
    input_type: 'load_state',
    access_type: 'public',
    connector_specific_config: { base_url: 'https://example.com', web_connector_type: 'single' },
  });
  const pair = await api<{ data: number }>(
    stage.emulator,
    'PUT',
    `/manage/connector/${connector.body.id}/credential/0`,
    { name, access_type: 'public' },
  );
  return pair.body.data;
}

async function openPair(ccPairId: number) {
  const tab = await stage.browser.newPage();
  const { page } = tab;
  await page.goto(`${stage.site.origin}/?baseUrl=${encodeURIComponent(stage.emulator.baseUrl)}`);
  await page.fill('#api-key', stage.emulator.adminKey);
  await page.click('button[type=submit]:has-text("Connect")');
  await page.locator('#settings-status', { hasText: 'Connected to' }).waitFor();
  await page.fill('#pair-id', String(ccPairId));
  await page.click('#pair-load');
  return tab;
}

/** The pair page's status line, once it says `text`. */
async function statusSays(page: Page, text: string | RegExp): Promise<string> {
  const status = page.locator('#pair-status', { hasText: text });
  await status.waitFor({ timeout: 30_000 });
  return (await status.textContent()) ?? '';
}

const field = (page: Page, name: string) =>
  page.textContent(`#pair-detail dd[data-field="${name}"]`);

async function attemptRows(page: Page): Promise<string[][]> {
  return page.$$eval('#pair-attempts tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  );
}

const pairOf = (id: number) => stage.emulator.state.pairs().find((p) => p.id === id);

describe('the pair page', () => {
  it('shows a pair and follows its first index attempt to the end', async () => {
    const id = await webPair('Site');
    const { page, errors } = await openPair(id);
    await statusSays(page, `Pair ${id} is ACTIVE; its newest index attempt ended success.`);
    expect(await field(page, 'Pair')).toBe(`${id} “Site”`);
    expect(await field(page, 'Connector')).toMatch(/^\d+ “Site” \(web\)$/);
    expect(await field(page, 'Status')).toBe('ACTIVE');
    expect(await field(page, 'In repeated error')).toBe('no');
    const rows = await attemptRows(page);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.[1]).toBe('success');
    expect(await page.isVisible('#pair-errors-none')).toBe(true);
    expect(await page.textContent('#pair-toggle')).toBe('Pause');
    await screenshot(page, 'pair-page');
    expect(errors).toEqual([]);
  });

  it('pauses (no run then), resumes, runs and shows the errors an attempt reported', async () => {
    const id = await webPair('Errors');
    const { page, errors } = await openPair(id);
    await statusSays(page, /newest index attempt ended success/);

    await page.click('#pair-toggle');
    await statusSays(page, `Pair ${id} paused: no index attempt runs until it is resumed.`);
    expect(pairOf(id)?.status).toBe('PAUSED');
    await page.locator('#pair-toggle', { hasText: 'Resume' }).waitFor();
    await page.click('#pair-run');
    expect(await statusSays(page, /^Not run/)).toBe(
      'Not run: the pair is PAUSED; resume it first.',
    );
    expect(stage.emulator.state.indexAttempts(id)).toHaveLength(1);

    await page.click('#pair-toggle');
    await statusSays(page, `Pair ${id} resumed.`);
    expect(pairOf(id)?.status).toBe('ACTIVE');

    // the next attempt completes with an error about a document
    stage.emulator.tasks.setAttemptOutcome('errors', id);
    await page.click('#pair-run');
    await statusSays(
      page,
      `Pair ${id} is ACTIVE; its newest index attempt ended completed_with_errors.`,
    );
    const rows = await attemptRows(page);
    expect(rows.map((r) => r[1])).toEqual(['completed_with_errors', 'success']);
    const errorRows = await page.$$eval('#pair-errors tbody tr', (trs) => trs.length);
    expect(errorRows).toBe(1);
    expect(await page.isVisible('#pair-errors-none')).toBe(false);
    await screenshot(page, 'pair-page-errors');
    expect(errors).toEqual([]);
  });

  it('asks before deleting; "Keep it" keeps the pair, "Delete" removes it', async () => {
    const id = await webPair('Doomed');
    const { page, errors } = await openPair(id);
    await statusSays(page, /newest index attempt ended success/);

    await page.click('#pair-delete');
    const dialog = page.locator('#pair-delete-dialog');
    await dialog.waitFor({ state: 'visible' });
    expect(await page.textContent('#pair-delete-text')).toBe(
      `Delete pair ${id} “Doomed” and remove its 0 document(s) from the index? Its connector goes too when no other pair uses it.`,
    );
    // the safe answer has the focus
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pair-delete-cancel');
    await screenshot(page, 'pair-page-delete-dialog', false);
    await page.click('#pair-delete-cancel');
    await dialog.waitFor({ state: 'hidden' });
    expect(pairOf(id)?.status).toBe('ACTIVE');

    await page.click('#pair-delete');
    await page.click('#pair-delete-confirm');
    await statusSays(page, `Pair ${id} was deleted, with its documents.`);
    expect(pairOf(id)).toBeUndefined();
    expect(await page.isVisible('#pair-view')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('says so for an unknown pair', async () => {
    const { page } = await openPair(999);
    expect(await statusSays(page, /^Pair 999/)).toBe(
      'Pair 999: no such pair, or not one this key may see.',
    );
  });
});
