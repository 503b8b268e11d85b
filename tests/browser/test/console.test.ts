// The ingestion console (apps/web, built) in Chromium against the emulator, which answers CORS for
// the console's origin: connect, list credentials, set up a connector, ingest files chosen with the
// file input and dropped on the drop zone, and cancel a slow run.
import { type Emulator, startEmulator } from '@kis/emulator';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  type Browser,
  consoleDist,
  launchBrowser,
  type StaticServer,
  screenshot,
  serveStatic,
} from './helpers.js';

let site: StaticServer;
let browser: Browser;
const emulators: Emulator[] = [];

beforeAll(async () => {
  site = await serveStatic(consoleDist());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function emulator(
  options: { latencyMs?: number; profile?: 'seed' | 'deployed' } = {},
): Promise<Emulator> {
  const e = await startEmulator({ port: 0, corsOrigin: site.origin, ...options });
  emulators.push(e);
  return e;
}

/** Opens the console for an emulator and connects with its admin key. */
async function openConsole(e: Emulator) {
  const tab = await browser.newPage();
  const { page } = tab;
  await page.goto(`${site.origin}/?baseUrl=${encodeURIComponent(e.baseUrl)}`);
  expect(await page.inputValue('#base-url')).toBe(e.baseUrl);
  await page.fill('#api-key', e.adminKey);
  await page.click('button[type=submit]:has-text("Connect")');
  await page.locator('#settings-status', { hasText: 'Connected to' }).waitFor();
  return tab;
}

/** The results list as `{ ref: [status, detail] }`. */
async function results(page: Page): Promise<Record<string, [string, string]>> {
  const rows = await page.$$eval('#results li', (lis) =>
    lis.map((li) => [
      li.querySelector('.ref')?.textContent ?? '',
      li.querySelector('.badge')?.textContent ?? '',
      li.querySelector('.detail')?.textContent ?? '',
    ]),
  );
  return Object.fromEntries(rows.map(([ref, status, detail]) => [ref, [status, detail]]));
}

async function waitForRunEnd(page: Page, head: 'Done' | 'Cancelled'): Promise<string> {
  const status = page.locator('#ingest-status', { hasText: new RegExp(`^${head}:`) });
  await status.waitFor({ timeout: 30_000 });
  return (await status.textContent()) ?? '';
}

function file(name: string, mimeType: string, text: string) {
  return { name, mimeType, buffer: Buffer.from(text, 'utf8') };
}

describe('ingestion console', () => {
  it('connects, lists credentials, and sets up a connector showing its ids', async () => {
    const e = await emulator();
    const { page, errors, consoleLines } = await openConsole(e);

    // Credential 0 (the emulator's default) is listed.
    const rows = await page.$$eval('#credentials-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows).toContainEqual(['0', expect.any(String), 'not_applicable', expect.any(String)]);
    expect(await page.textContent('#credentials-status')).toBe('1 credential.');

    // What the page offers comes from the rule book (@kis/rules): the sources credential 0
    // serves, and the file types a browser reads.
    const suggested = await page.$$eval('#source-suggestions option', (os) =>
      os.map((o) => (o as HTMLOptionElement).value),
    );
    expect(suggested).toEqual(
      expect.arrayContaining(['file', 'web', 'ingestion_api', 'not_applicable', 'google_sites']),
    );
    expect(await page.getAttribute('#file-input', 'accept')).toBe(
      '.txt,.text,.md,.markdown,.html,.htm,.json,.conf,.log,.sql,.yml,.yaml,text/plain,text/markdown,text/html,application/json,application/sql,application/yaml',
    );
    expect(await page.textContent('#accepted-types')).toBe(
      'Text (.txt, .text, .conf, .log, .sql, .yml, .yaml), Markdown (.md, .markdown), HTML (.html, .htm) and JSON (.json).',
    );

    // Validation names the field and sends nothing.
    await page.click('#create-connector');
    expect(await page.textContent('#connector-status')).toBe('Name: required');
    expect(await page.getAttribute('#connector-name', 'aria-invalid')).toBe('true');
    expect(e.state.connectors({ all: true })).toHaveLength(1);

    await page.fill('#connector-name', 'Console files');
    await page.fill('#connector-source', 'file');
    await page.selectOption('#connector-access-type', 'private');
    await page.click('#create-connector');
    await page.locator('#connector-status', { hasText: 'created and associated' }).waitFor();

    const connector = e.state.connectors().find((c) => c.name === 'Console files');
    expect(connector).toBeDefined();
    const pair = e.state.pairs().find((p) => p.connector_id === connector!.id);
    expect(pair).toBeDefined();
    expect(await page.textContent('#result-connector-id')).toBe(String(connector!.id));
    expect(await page.textContent('#result-credential-id')).toBe('0');
    expect(await page.textContent('#result-pair-id')).toBe(String(pair!.id));
    expect(await page.inputValue('#cc-pair')).toBe(String(pair!.id));
    expect(connector!.access_type).toBe('private');

    // A source no credential serves is refused before anything is created (setupConnector).
    await page.fill('#connector-name', 'Wrong source');
    await page.fill('#connector-source', 'no_such_source');
    await page.click('#create-connector');
    await page.locator('#connector-status[data-kind=error]').waitFor();
    expect(await page.textContent('#connector-status')).toMatch(/source/);
    expect(e.state.connectors({ all: true }).map((c) => c.name)).not.toContain('Wrong source');

    // The key is never written to the page, local storage or the console.
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    expect(stored).not.toContain(e.adminKey);
    expect(await page.content()).not.toContain(e.adminKey);
    expect(consoleLines.join('\n')).not.toContain(e.adminKey);
    expect(errors).toEqual([]);
    await page.fill('#connector-source', 'file');
    await screenshot(page, 'console-connector');
    await page.close();
  });

  it('renders the issue-tracker form from the spec, shows errors at the field, keeps a JSON view', async () => {
    const e = await emulator({ profile: 'deployed' });
    const credential = await api<{ id: number }>(e, 'POST', '/manage/credential', {
      source: 'jira',
      admin_public: true,
      name: 'jira bot',
      credential_json: { jira_user_email: 'bot@example.com', jira_api_token: 'tok' },
    });
    expect(credential.status).toBe(200);
    const { page, errors } = await openConsole(e);
    await page.fill('#connector-name', 'Jira KIS');
    await page.fill('#connector-source', 'jira');
    const baseUrl = page.locator('#cfg-jira-jira_base_url');
    await baseUrl.waitFor();
    // inputs by kind, required marks, defaults, the exclusive choice as radios (default first)
    expect(await page.textContent('label[for=cfg-jira-jira_base_url]')).toBe(
      'Jira Base URL (jira_base_url) *',
    );
    expect(await page.getAttribute('#cfg-jira-scoped_token', 'type')).toBe('checkbox');
    expect(await page.isChecked('#cfg-jira-scoped_token')).toBe(false);
    expect(await page.textContent('fieldset[data-group=indexing_scope] legend')).toBe(
      'How Should We Index Your Jira?',
    );
    expect(await page.isChecked('#cfg-jira-indexing_scope-everything')).toBe(true);
    expect(await page.isVisible('#cfg-jira-project_key')).toBe(false);

    // the client's check names the field; the error shows at it and nothing is created
    await page.click('#create-connector');
    await page.locator('#connector-status[data-kind=error]').waitFor();
    expect(await page.getAttribute('#cfg-jira-jira_base_url', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#cfg-jira-jira_base_url-error')).toBe('is required');
    expect(e.state.connectors().map((c) => c.name)).not.toContain('Jira KIS');

    await baseUrl.fill('https://jira.example.com');
    expect(await page.textContent('#cfg-jira-jira_base_url-error')).toBe('');
    await page.check('#cfg-jira-indexing_scope-project');
    await page.fill('#cfg-jira-project_key', 'KIS');
    await screenshot(page, 'console-issue-tracker-form');
    await page.click('#create-connector');
    await page.locator('#connector-status', { hasText: 'created and associated' }).waitFor();
    const connector = e.state.connectors().find((c) => c.name === 'Jira KIS');
    expect(connector?.connector_specific_config).toEqual({
      jira_base_url: 'https://jira.example.com',
      scoped_token: false,
      project_key: 'KIS',
      comment_email_blacklist: [],
    });
    expect(await page.textContent('#result-credential-id')).toBe(String(credential.body.id));

    // the JSON view shows what the form holds
    await page.click('#connector-config-json summary');
    await expect
      .poll(async () => JSON.parse(await page.inputValue('#connector-config')))
      .toEqual(connector?.connector_specific_config);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('ingests chosen and dropped files, with per-file results and the server state to match', async () => {
    const e = await emulator();
    const { page, errors } = await openConsole(e);

    const pair = await (async () => {
      await page.fill('#connector-name', 'Dropped files');
      await page.click('#create-connector');
      await page.locator('#connector-status', { hasText: 'created and associated' }).waitFor();
      return Number(await page.inputValue('#cc-pair'));
    })();
    expect(pair).toBeGreaterThan(1);

    await page.setInputFiles('#file-input', [
      file('notes.txt', 'text/plain', 'Plain notes.\nSecond line.'),
      file('guide.md', 'text/markdown', 'Intro\n\n# The guide\n\nSome *markdown*.'),
      file(
        'page.html',
        'text/html',
        '<!doctype html><html><head><title>Hello page</title><style>p{}</style></head>' +
          '<body><h1>Heading</h1><p>Para one</p><script>steal()</script><p>Para two</p></body></html>',
      ),
      file(
        'prepared.json',
        'application/json',
        JSON.stringify({
          document: {
            id: 'prepared-1',
            semantic_identifier: 'Prepared document',
            sections: [{ text: 'Made elsewhere', link: 'https://example.com/p1' }],
            metadata: { team: 'docs' },
          },
        }),
      ),
      file(
        'wrong-pair.json',
        'application/json',
        JSON.stringify({
          document: { semantic_identifier: 'Lost', sections: [{ text: 'x' }], metadata: {} },
          cc_pair_id: 9999,
        }),
      ),
      file('broken.json', 'application/json', '{"document": '),
      file('picture.png', 'image/png', 'not really a picture'),
    ]);
    const summary = await waitForRunEnd(page, 'Done');
    expect(summary).toMatch(/^Done: 4 created, 0 updated, 3 failed in /);

    const r = await results(page);
    expect(r['notes.txt']).toEqual(['created', 'document ingestion_api_notes.txt']);
    expect(r['guide.md']).toEqual(['created', 'document ingestion_api_guide.md']);
    expect(r['page.html']).toEqual(['created', 'document ingestion_api_page.html']);
    expect(r['prepared.json']).toEqual(['created', 'document prepared-1']);
    expect(r['wrong-pair.json']?.[0]).toBe('failed');
    expect(r['wrong-pair.json']?.[1]).toMatch(/9999/); // the server's 404 reason
    expect(r['broken.json']?.[0]).toBe('failed');
    expect(r['broken.json']?.[1]).toMatch(/^not valid JSON/);
    expect(r['picture.png']).toEqual([
      'failed',
      'unsupported file type: expected .txt, .text, .md, .markdown, .html, .htm, .json, .conf, .log, .sql, .yml or .yaml',
    ]);
    expect(
      await page.$eval('#progress', (p) => [
        (p as HTMLProgressElement).value,
        (p as HTMLProgressElement).max,
      ]),
    ).toEqual([7, 7]);

    // What the server stored.
    const docs = e.state.documents();
    expect(docs.map((d) => d.id).sort()).toEqual(
      [
        'ingestion_api_guide.md',
        'ingestion_api_notes.txt',
        'ingestion_api_page.html',
        'prepared-1',
      ].sort(),
    );
    const html = e.state.document('ingestion_api_page.html')!;
    expect(html.title).toBe('Hello page');
    expect(html.semantic_identifier).toBe('page.html');
    expect(html.sections[0]).toMatchObject({ text: 'Heading\nPara one\nPara two' });
    expect(html.metadata).toEqual({ file_name: 'page.html', content_type: 'text/html' });
    expect(e.state.document('ingestion_api_guide.md')!.title).toBe('The guide');
    expect(e.state.document('ingestion_api_notes.txt')!.sections[0]).toMatchObject({
      text: 'Plain notes.\nSecond line.',
    });
    const pairDocs = await fetch(`${e.baseUrl}/svc-api/connector-docs/${pair}`, {
      headers: { authorization: `Bearer ${e.adminKey}` },
    }).then((res) => res.json() as Promise<{ document_id: string }[]>);
    // The run's pair applies to every file (prepared.json names none).
    expect(pairDocs.map((d) => d.document_id).sort()).toEqual(
      [
        'ingestion_api_guide.md',
        'ingestion_api_notes.txt',
        'ingestion_api_page.html',
        'prepared-1',
      ].sort(),
    );
    await screenshot(page, 'console-ingested');

    // Drop on the drop zone: a changed notes.txt (an update) and a new Markdown file.
    const dataTransfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['Plain notes, revised.'], 'notes.txt', { type: 'text/plain' }));
      dt.items.add(new File(['# Dropped\n\nBody'], 'dropped.md', { type: 'text/markdown' }));
      return dt;
    });
    await page.dispatchEvent('#drop-zone', 'dragover', { dataTransfer });
    expect(await page.getAttribute('#drop-zone', 'class')).toContain('over');
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer });
    expect(await waitForRunEnd(page, 'Done')).toMatch(/^Done: 1 created, 1 updated, 0 failed/);
    const dropped = await results(page);
    expect(dropped).toEqual({
      'notes.txt': ['updated', 'document ingestion_api_notes.txt'],
      'dropped.md': ['created', 'document ingestion_api_dropped.md'],
    });
    expect(await page.getAttribute('#drop-zone', 'class')).not.toContain('over');
    expect(e.state.document('ingestion_api_notes.txt')!.sections[0]).toMatchObject({
      text: 'Plain notes, revised.',
    });
    expect(e.state.document('ingestion_api_dropped.md')!.title).toBe('Dropped');
    expect(e.state.documents()).toHaveLength(5);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('cancels a slow run: no new document is sent and the rest are reported cancelled', async () => {
    const e = await emulator({ latencyMs: 250 });
    const { page, errors } = await openConsole(e);
    // Enough that, at six connections and 250 ms each, the run outlasts a slow click on Cancel.
    const total = 150;
    await page.setInputFiles(
      '#file-input',
      Array.from({ length: total }, (_, i) => file(`doc-${i}.txt`, 'text/plain', `Document ${i}`)),
    );
    await page.locator('#results li.created').first().waitFor();
    expect(await page.isEnabled('#cancel')).toBe(true);
    await page.click('#cancel');
    const summary = await waitForRunEnd(page, 'Cancelled');
    expect(await page.isDisabled('#cancel')).toBe(true);

    const r = Object.values(await results(page));
    const count = (status: string) => r.filter(([s]) => s === status).length;
    const created = count('created');
    const aborted = count('aborted'); // in flight when cancelled
    const notSent = count('not sent'); // never started
    expect(created).toBeGreaterThanOrEqual(1);
    expect(notSent).toBeGreaterThan(0);
    expect(created + aborted + notSent).toBe(total);
    expect(count('failed')).toBe(0);
    expect(summary).toMatch(
      new RegExp(
        `^Cancelled: ${created} created, 0 updated, 0 failed, ` +
          (aborted > 0 ? `${aborted} cancelled, ` : '') +
          `${notSent} not sent in `,
      ),
    );
    // Every created document is stored; the documents never sent are not.
    const stored = new Set(e.state.documents({ limit: -1 }).map((d) => d.id));
    expect(stored.size).toBeGreaterThanOrEqual(created);
    expect(stored.size).toBeLessThanOrEqual(created + aborted);
    const notSentRefs = Object.entries(await results(page))
      .filter(([, [s]]) => s === 'not sent')
      .map(([ref]) => `ingestion_api_${ref}`);
    expect(notSentRefs.filter((id) => stored.has(id))).toEqual([]);
    // One more (slow) request from here: when it is answered, the requests the browser had in flight
    // have been answered too, so closing the emulator does not cut them off.
    const sentinel = await fetch(`${e.baseUrl}/svc-api/ingestion`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        document: { semantic_identifier: 'sentinel', sections: [{ text: 's' }], metadata: {} },
      }),
    });
    expect(sentinel.status).toBe(200);
    expect(e.state.documents({ limit: -1 }).length).toBeLessThanOrEqual(created + aborted + 1);
    await screenshot(page, 'console-cancelled');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works against an emulator playing deployed servers too (smoke)', async () => {
    const e = await emulator({ profile: 'deployed' });
    const { page, errors } = await openConsole(e);
    await page.fill('#connector-name', 'Deployed files');
    await page.click('#create-connector');
    await page
      .locator('#connector-status[data-kind=ok], #connector-status[data-kind=error]')
      .waitFor();
    expect(await page.textContent('#connector-status')).toContain('created and associated');
    expect(await page.textContent('#result-credential-id')).toBe('0');
    const pair = Number(await page.inputValue('#cc-pair'));
    expect(pair).toBeGreaterThan(1);
    await page.setInputFiles('#file-input', [file('notes.txt', 'text/plain', 'Deployed notes.')]);
    await waitForRunEnd(page, 'Done');
    expect(await results(page)).toEqual({
      'notes.txt': ['created', 'document ingestion_api_notes.txt'],
    });
    expect(e.state.document('ingestion_api_notes.txt')?.cc_pair_ids).toEqual([pair]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is usable from the keyboard: labelled controls, focus order, visible focus', async () => {
    const e = await emulator();
    const { page } = await browser.newPage();
    await page.goto(`${site.origin}/?baseUrl=${encodeURIComponent(e.baseUrl)}`);

    // Every form control has an accessible name.
    const unlabelled = await page.$$eval('input, select, textarea, button', (els) =>
      els
        .filter((el) => {
          const labels = (el as HTMLInputElement).labels;
          const text = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
          return (labels === null || labels.length === 0) && text === '';
        })
        .map((el) => el.id || el.outerHTML),
    );
    expect(unlabelled).toEqual([]);

    // Connect with the keyboard only: focus the base URL, tab to the key, type, Enter.
    await page.focus('#base-url');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).toBe('solid');
    await page.keyboard.type(e.adminKey);
    await page.keyboard.press('Enter');
    await page.locator('#settings-status', { hasText: 'Connected to' }).waitFor();

    // The file input is reachable by Tab and enabled once connected; results are announced.
    expect(await page.isEnabled('#file-input')).toBe(true);
    await page.focus('#cc-pair');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('file-input');
    expect(await page.getAttribute('#results', 'aria-live')).toBe('polite');
    expect(await page.getAttribute('#ingest-status', 'role')).toBe('status');
    await page.close();
  });
});
