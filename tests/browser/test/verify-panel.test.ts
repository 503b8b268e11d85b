// The pair page's verification (apps/web, built) in Chromium against the emulator playing a
// deployed server: the console runs @kis/client's verifyPair for the pair shown and reports what
// was done to it (a document deleted, one hidden, one's chunks dropped), keeps that last report
// for the pair (never the key) and shows it when the pair is opened again.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, consoleStage, screenshot } from './helpers.js';

const stage = consoleStage({ profile: 'deployed' });

/** A file connector's public pair with `n` documents pushed and indexed; the pair's id. */
async function pairWithDocuments(name: string, n: number): Promise<number> {
  const connector = await api<{ id: number }>(stage.emulator, 'POST', '/manage/admin/connector', {
    name,
    source: 'file',
    input_type: 'load_state',
    access_type: 'public',
    connector_specific_config: { file_locations: [] },
  });
  const pair = await api<{ data: number }>(
    stage.emulator,
    'PUT',
    `/manage/connector/${connector.body.id}/credential/0`,
    { name, access_type: 'public' },
  );
  for (let i = 0; i < n; i++) {
    const sent = await api(stage.emulator, 'POST', '/svc-api/ingestion', {
      document: {
        id: `${name}-page-${i}`,
        semantic_identifier: `Handbook page ${i}`,
        sections: [
          { text: `Page ${i} of the handbook: the h${i}x procedure for the night shift.` },
        ],
        metadata: {},
      },
      cc_pair_id: pair.body.data,
    });
    expect(sent.status).toBe(200);
  }
  await stage.emulator.indexer.idle();
  return pair.body.data;
}

async function openPair(page: Page, ccPairId: number): Promise<void> {
  await page.goto(`${stage.site.origin}/?baseUrl=${encodeURIComponent(stage.emulator.baseUrl)}`);
  await page.fill('#api-key', stage.emulator.adminKey);
  await page.click('button[type=submit]:has-text("Connect")');
  await page.locator('#settings-status', { hasText: 'Connected to' }).waitFor();
  await page.fill('#pair-id', String(ccPairId));
  await page.click('#pair-load');
  await page.locator('#pair-view').waitFor({ state: 'visible' });
}

async function checkRow(page: Page, check: string): Promise<string[]> {
  return page.$$eval(`#verify-checks tr[data-check="${check}"] > *`, (cells) =>
    cells.map((c) => c.textContent ?? ''),
  );
}

describe('the pair page’s verification', () => {
  it('finds what was done to the pair, and shows the last report when the pair is opened again', async () => {
    const id = await pairWithDocuments('Handbook', 8);
    await api(
      stage.emulator,
      'DELETE',
      `/svc-api/ingestion/${encodeURIComponent('Handbook-page-1')}`,
    );
    await api(stage.emulator, 'POST', '/manage/admin/doc-hidden', {
      document_id: 'Handbook-page-2',
      hidden: true,
    });
    stage.emulator.sabotage.dropChunks('Handbook-page-3');

    const { page, errors } = await stage.browser.newPage();
    await openPair(page, id);
    await page.locator('#verify-status', { hasText: 'has not been verified' }).waitFor();
    await page.click('#verify-run');
    const status = page.locator('#verify-status', { hasText: 'failed a check' });
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toBe(`2 document(s) of pair ${id} failed a check (of 7).`);
    expect(await checkRow(page, 'present')).toEqual(['present', '7', '0', '0']);
    expect(await checkRow(page, 'indexed')).toEqual(['indexed', '6', '1', '0']);
    expect(await checkRow(page, 'findable')).toEqual(['findable', '5', '1', '1']);
    expect(await checkRow(page, 'visible')).toEqual(['visible to this key', '6', '0', '1']);
    const failures = await page.$$eval('#verify-failures dd', (dds) =>
      dds.map((dd) => `${dd.getAttribute('data-reason')}: ${dd.textContent}`),
    );
    expect(failures).toEqual(['unindexed: Handbook-page-3', 'hidden: Handbook-page-2']);
    await screenshot(page, 'pair-page-verify');

    // the report is kept for the pair: the key is not in it, nor anywhere in storage
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).toContain('Handbook-page-3');
    expect(stored).not.toContain(stage.emulator.adminKey);

    const again = await stage.browser.newPage();
    await openPair(again.page, id);
    const kept = again.page.locator('#verify-status', { hasText: `The last report of pair ${id}` });
    await kept.waitFor();
    expect(await checkRow(again.page, 'indexed')).toEqual(['indexed', '6', '1', '0']);
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
  });

  it('checks a sample, and passes a pair whose documents are all fine', async () => {
    const id = await pairWithDocuments('Runbook', 6);
    const { page, errors } = await stage.browser.newPage();
    await openPair(page, id);
    await page.fill('#verify-sample', '3');
    await page.click('#verify-run');
    await page
      .locator('#verify-status', { hasText: `All 3 document(s) of pair ${id} passed.` })
      .waitFor();
    expect(await page.textContent('#verify-when')).toMatch(
      /: 3 document\(s\) \(a sample of 6\) in \d+ ms\.$/,
    );
    await page.fill('#verify-sample', '0');
    await page.click('#verify-run');
    await page.locator('#verify-status', { hasText: 'Sample: expected a whole number' }).waitFor();
    expect(await page.getAttribute('#verify-sample', 'aria-invalid')).toBe('true');
    expect(errors).toEqual([]);
  });
});
