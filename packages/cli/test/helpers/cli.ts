/**
 * Runs the built `kis` binary (packages/cli/bin/kis.js → dist/bin.js) as a child process,
 * the way a user does, and starts emulators and small HTTP servers for it to talk to.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Emulator, type EmulatorOptions, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll } from 'vitest';
import { testProfile } from './profile.js';

export const BIN = fileURLToPath(new URL('../../bin/kis.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export const ADMIN_KEY = 'kis-test-admin-key-5f3a9c2e7d1b';
export const USER_KEY = 'kis-test-user-key-8e2b4d6f0a1c';

export function assertBuilt(): void {
  if (!existsSync(DIST)) {
    throw new Error('packages/cli/dist is missing: run `pnpm --filter @kis/cli build` first');
  }
}

export interface KisResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface KisRunOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string | Buffer;
}

/** A clean environment: no KIS_* from the developer's shell, no colours. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('KIS_') && k !== 'FORCE_COLOR' && v !== undefined) env[k] = v;
  }
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts `kis ARGS…` without waiting for it. */
export function spawnKis(args: readonly string[], options: KisRunOptions = {}): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: baseEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  return child;
}

/** Collects a child's output until it exits. */
export async function collect(child: ChildProcess): Promise<KisResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

/** Runs `kis ARGS…` to completion. */
export function kis(args: readonly string[], options: KisRunOptions = {}): Promise<KisResult> {
  return collect(spawnKis(args, options));
}

/** The JSON lines of a `--json` stdout (every line must parse). */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** An emulator with known keys, on a free port, playing the test project's server profile. */
export function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({
    port: 0,
    dbPath: ':memory:',
    adminKey: ADMIN_KEY,
    userKeys: [USER_KEY],
    profile: testProfile(),
    ...options,
  });
}

/** Environment for talking to an emulator as admin. */
export function envFor(emu: { baseUrl: string }, key = ADMIN_KEY): Record<string, string> {
  return { KIS_BASE_URL: emu.baseUrl, KIS_API_KEY: key };
}

/** What the tests of a file share: an emulator, the environment to reach it, a work folder. */
export interface EmulatorAndFolder {
  emu: Emulator;
  env: Record<string, string>;
  work: string;
}

/**
 * Before a file's tests: checks that kis is built, starts an emulator (`emulator()`) and makes a
 * temporary work folder named `prefix…`, which `fill` may then write. After them: closes the
 * emulator and removes the folder. The fields are set once the tests run.
 */
export function emulatorAndFolder(
  prefix: string,
  fill?: (work: string) => Promise<unknown>,
): EmulatorAndFolder {
  const shared = {} as EmulatorAndFolder;
  beforeAll(async () => {
    assertBuilt();
    shared.emu = await emulator();
    shared.env = envFor(shared.emu);
    shared.work = await mkdtemp(join(tmpdir(), prefix));
    await fill?.(shared.work);
  });
  afterAll(async () => {
    await shared.emu?.close();
    if (shared.work) await rm(shared.work, { recursive: true, force: true });
  });
  return shared;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  contentType: string | undefined;
  body: Buffer;
  json: unknown;
}

export interface Recorder {
  /** Base URL (with /api) of the recording proxy. */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A recording proxy in front of an emulator: every request (method, path, headers, body) is kept,
 * then forwarded, and the emulator's answer is returned unchanged.
 */
export async function recordingProxy(target: { url: string }): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const contentType = req.headers['content-type'];
    let json: unknown;
    if (contentType?.includes('application/json') && body.length > 0) {
      json = JSON.parse(body.toString('utf8'));
    }
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      contentType,
      body,
      json,
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length')
        headers[k] = v;
    }
    const answer = await fetch(`${target.url}${req.url ?? ''}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    const out = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(out);
  });
  const url = await listen(server);
  return { baseUrl: `${url}/api`, requests, close: () => closeServer(server) };
}

/** A server that answers every request with `status` and an HTML page (a web UI, a proxy). */
export async function htmlServer(status = 200): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html><head><title>Sign in</title></head><body>Please sign in</body></html>',
    );
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}

/** A URL on which nothing listens (a port just freed). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await closeServer(server);
  return `${url}/api`;
}

/** The acknowledgements among the complete lines of the journal (not its header or uploads). */
export function journalEntries(path: string): { id: string }[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop(); // an incomplete (or empty) last line
  return lines
    .slice(1)
    .map((l) => JSON.parse(l) as { id?: string })
    .filter((e): e is { id: string } => typeof e.id === 'string');
}

/** Polls the journal until it holds `count` acknowledgements (the run is well under way). */
export async function waitForJournal(
  path: string,
  count: number,
  child: { exitCode: number | null },
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (journalEntries(path).length < count) {
    if (child.exitCode !== null) throw new Error(`kis exited early with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the journal did not fill in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
