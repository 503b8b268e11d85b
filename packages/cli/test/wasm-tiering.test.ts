import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, collect } from './helpers/cli.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const MODULE = new URL('../dist/wasm-tiering.js', import.meta.url).href;

// In a process of its own: the module changes V8's flags once it hears of a connection.
const SCRIPT = (baseUrl: string) => `
import { hasSubscribers } from 'node:diagnostics_channel';
import ${JSON.stringify(MODULE)};
import { createKisClient } from '@kis/client';
const heard = () => hasSubscribers('undici:client:beforeConnect');
const before = heard();
const kis = createKisClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: 'kis-test-key-0000' });
const listed = await kis.ingestion.listConnectorDocuments(2);
console.log(JSON.stringify({ before, after: heard(), listed }));
process.exit(0);
`;

describe('the binary keeps undici on the baseline WebAssembly tier', () => {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  let baseUrl = '';
  beforeAll(async () => {
    assertBuilt();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => {
    server.close();
  });

  it("hears of the client's first connection, then stops listening", async () => {
    const { code, stdout, stderr } = await collect(
      spawn(process.execPath, ['--input-type=module', '-e', SCRIPT(baseUrl)], {
        cwd: PACKAGE,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ before: true, after: false, listed: [] });
  });
});
