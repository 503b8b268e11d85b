// Shared pieces of the browser tests: Debian's Chromium driven by playwright-core, a static server
// for the built console (apps/web/dist), and a small admin-key fetch for the emulator's API.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Emulator, type EmulatorOptions, startEmulator } from '@kis/emulator';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const require = createRequire(import.meta.url);

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots (and the JSON report) go here, for review. */
export const RESULTS_DIR = fileURLToPath(new URL('../test-results/', import.meta.url));

/** apps/web/dist: the console as `vite build` wrote it (turbo builds it before these tests). */
export function consoleDist(): string {
  const dist = join(dirname(require.resolve('@kis/example-web/package.json')), 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(
      `${dist}/index.html is missing: build the console first (pnpm --filter @kis/example-web build, or run the tests through turbo: pnpm test)`,
    );
  }
  return dist;
}

export interface Browser {
  context: BrowserContext;
  /** Opens a new tab; uncaught page errors are collected in `errors`. */
  newPage(): Promise<{ page: Page; errors: Error[]; consoleLines: string[] }>;
  close(): Promise<void>;
}

const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium with a fresh profile; throws (never skips) when it cannot. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'kis-browser-tests-'));
  let context: BrowserContext;
  try {
    // launchPersistentContext passes the fresh profile as --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: { width: 1100, height: 900 },
      timeout: 30_000,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`Chromium at ${CHROMIUM_PATH} could not be launched: ${String(error)}`);
  }
  context.setDefaultTimeout(20_000);
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: Error[] = [];
      const consoleLines: string[] = [];
      page.on('pageerror', (error) => errors.push(error));
      page.on('console', (message) => consoleLines.push(message.text()));
      return { page, errors, consoleLines };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>`, the console's origin. */
  origin: string;
  close(): Promise<void>;
}

/** Serves a directory on 127.0.0.1 and a free port; resolves once it listens. */
export async function serveStatic(root: string): Promise<StaticServer> {
  const base = normalize(root + sep);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = normalize(
        join(base, pathname.endsWith('/') ? `${pathname}index.html` : pathname),
      );
      if (!file.startsWith(base) || req.method !== 'GET') {
        res.writeHead(req.method === 'GET' ? 403 : 405).end();
        return;
      }
      try {
        if (!(await stat(file)).isFile()) throw new Error('not a file');
        const body = await readFile(file);
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What a console test file runs against (`consoleStage`). */
export interface ConsoleStage {
  /** The built console, served on its own origin. */
  readonly site: StaticServer;
  readonly browser: Browser;
  /** An emulator that lets the console's origin call it. */
  readonly emulator: Emulator;
}

/**
 * The built console, Chromium and an emulator (`options`, on a free port, allowing the console's
 * origin), started before the file's tests and stopped after them.
 */
export function consoleStage(options: Omit<EmulatorOptions, 'port' | 'corsOrigin'> = {}) {
  const stage: { site?: StaticServer; browser?: Browser; emulator?: Emulator } = {};
  beforeAll(async () => {
    stage.site = await serveStatic(consoleDist());
    stage.browser = await launchBrowser();
    stage.emulator = await startEmulator({ ...options, port: 0, corsOrigin: stage.site.origin });
  });
  afterAll(async () => {
    await stage.browser?.close();
    await stage.emulator?.close();
    await stage.site?.close();
  });
  return stage as ConsoleStage;
}

/** A call to the emulator's API with its admin key. */
export async function api<T>(
  emulator: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${emulator.adminKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json()) as T };
}

/** Writes a screenshot (the full page unless `fullPage: false`) to test-results/<name>.png. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
