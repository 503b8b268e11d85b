import { PassThrough } from 'node:stream';
import { oneLine as nodeOneLine } from '@kis/node';
import { describe, expect, it } from 'vitest';
import { ExitCode, run } from '../src/index.js';
import { checkBaseUrl } from '../src/internal/context.js';
import { oneLine } from '../src/internal/errors.js';
import type { Io } from '../src/internal/output.js';
import { collectSecrets, redactingIo } from '../src/internal/secrets.js';

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => {
    text += d.toString('utf8');
  });
  return { stream, text: () => text };
}

describe('run (in-process)', () => {
  it('resolves with the exit code and writes to the given streams', async () => {
    const out = capture();
    const err = capture();
    const io = { stdout: out.stream, stderr: err.stream, env: {}, cwd: process.cwd() };
    expect(await run(['--version'], { io })).toBe(ExitCode.Ok);
    expect(out.text()).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(await run(['sources', '--nope'], { io })).toBe(ExitCode.Usage);
    expect(err.text()).toBe("error: unknown option '--nope'\n");
  });

  it('redacts the API key from everything it writes, even on usage errors', async () => {
    const err = capture();
    const io = { stdout: capture().stream, stderr: err.stream, env: {}, cwd: process.cwd() };
    const key = 'super-secret-key-123';
    const code = await run(['--api-key', key, 'docs', 'list', '--base-url', `http://h/${key}`], {
      io,
    });
    expect(code).toBe(ExitCode.Usage);
    expect(err.text()).toContain('[REDACTED]');
    expect(err.text()).not.toContain(key);
  });
});

describe('checkBaseUrl', () => {
  it('accepts http(s) URLs ending in /api and normalises the trailing slash', () => {
    expect(checkBaseUrl('http://localhost:8080/api/', '--base-url')).toBe(
      'http://localhost:8080/api',
    );
    expect(checkBaseUrl('https://kis.example.com/tenant/api', '--base-url')).toBe(
      'https://kis.example.com/tenant/api',
    );
  });
  it('rejects a missing /api, other schemes and non-URLs, naming the flag', () => {
    expect(() => checkBaseUrl('http://localhost:8080', 'KIS_BASE_URL')).toThrow(
      'KIS_BASE_URL: "http://localhost:8080" lacks the /api prefix; the base URL includes it, e.g. http://localhost:8080/api',
    );
    expect(() => checkBaseUrl('ftp://h/api', '--base-url')).toThrow(
      'must be an http:// or https:// URL',
    );
    expect(() => checkBaseUrl('not a url', '--base-url')).toThrow('"not a url" is not a URL');
    expect(() => checkBaseUrl('http://h/api?x=1', '--base-url')).toThrow(
      'must not have a query or fragment',
    );
  });
});

describe('secrets', () => {
  it('collects the key from flags and environment and redacts stream writes', () => {
    const secrets = collectSecrets(['--api-key=abcd1234', '--admin-key', 'efgh5678'], {
      KIS_API_KEY: 'ijkl9012',
    });
    const out = capture();
    const io = redactingIo(
      {
        stdout: out.stream,
        stderr: out.stream,
        stdin: new PassThrough(),
        env: {},
        cwd: '/',
      } as unknown as Io,
      secrets,
    );
    io.stdout.write('a abcd1234 b efgh5678 c ijkl9012\n');
    expect(out.text()).toBe('a [REDACTED] b [REDACTED] c [REDACTED]\n');
  });
});

describe('oneLine', () => {
  it("words an error as @kis/node's oneLine does, without loading @kis/node", () => {
    for (const error of [new Error('a\n  b\n\nc '), 'plain\nstring', 42, new TypeError(' x ')]) {
      expect(oneLine(error)).toBe(nodeOneLine(error));
    }
  });
});
