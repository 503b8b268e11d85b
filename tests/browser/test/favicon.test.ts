// Every page a user opens (the console, the emulator's admin page and its API reference at /docs)
// carries its icon inline, so Chromium asks no server for a /favicon.ico that is not there.
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  consoleDist,
  launchBrowser,
  type StaticServer,
  serveStatic,
} from './helpers.js';

let site: StaticServer;
let emulator: Emulator;
let browser: Browser;

beforeAll(async () => {
  site = await serveStatic(consoleDist());
  emulator = await startEmulator({ port: 0 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  await site?.close();
});

/** Opens `url` until the network is idle: the page's icon and what it asked for that failed. */
async function open(url: string): Promise<{ icon: string | null; failed: string[] }> {
  const { page, consoleLines } = await browser.newPage();
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  const icon = await page.evaluate(
    () => document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null,
  );
  await page.close();
  // a missing icon is only ever said on the console ("Failed to load resource: … 404")
  return { icon, failed: consoleLines.filter((l) => /Failed to load resource/.test(l)) };
}

describe('page icons', () => {
  it.each([
    ['the console', () => `${site.origin}/`],
    ["the emulator's admin page", () => `${emulator.url}/`],
    ["the emulator's API reference", () => `${emulator.url}/docs`],
  ])('%s has an inline icon and asks for no missing one', async (_name, url) => {
    const { icon, failed } = await open(url());
    expect(failed).toEqual([]);
    expect(icon).toMatch(/^data:image\/svg\+xml,/);
  });
});
