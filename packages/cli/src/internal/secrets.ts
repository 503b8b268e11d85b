/**
 * The API key (and a queue URL's password) never printed: collected from the command line and the
 * environment before parsing, and redacted from everything written to stdout and stderr.
 */
import type { Io } from './output.js';

/** Strings that must never be printed (the API key, wherever it came from). */
export class Secrets {
  private readonly values = new Set<string>();
  add(value: string | undefined): void {
    const v = value?.trim();
    if (v && v.length >= 4) this.values.add(v);
  }
  redact(text: string): string {
    let out = text;
    for (const secret of this.values) {
      if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    }
    return out;
  }
}

/** `scheme://user:PASSWORD@host…`: the password of a URL anywhere in an argument. */
const URL_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:([^/@\s]+)@/gi;

/**
 * Collects the API key from the command line and the environment before parsing, and the
 * password of any URL on the command line (a database connection string, a git remote), so that
 * even commander's own error messages are redacted.
 */
export function collectSecrets(argv: readonly string[], env: Io['env']): Secrets {
  const secrets = new Secrets();
  secrets.add(env.KIS_API_KEY);
  argv.forEach((arg, i) => {
    if (arg === '--api-key' || arg === '--admin-key') secrets.add(argv[i + 1]);
    else if (arg.startsWith('--api-key=')) secrets.add(arg.slice('--api-key='.length));
    else if (arg.startsWith('--admin-key=')) secrets.add(arg.slice('--admin-key='.length));
    for (const [, password] of arg.matchAll(URL_PASSWORD)) addPassword(secrets, password);
  });
  return secrets;
}

/** A URL's password as written and decoded (either may be printed by what reads it). */
export function addPassword(secrets: Secrets, password: string | undefined): void {
  if (password === undefined || password === '') return;
  secrets.add(password);
  try {
    secrets.add(decodeURIComponent(password));
  } catch {
    // not valid percent-encoding: hidden as written
  }
}

/** A writable wrapper that redacts secrets from everything written through it. */
export function redactingIo(io: Io, secrets: Secrets): Io {
  const wrap = <S extends Io['stdout']>(stream: S): S => {
    const proxy = Object.create(stream) as S;
    proxy.write = ((chunk: unknown, ...rest: unknown[]) =>
      (stream.write as (...args: unknown[]) => boolean).call(
        stream,
        typeof chunk === 'string' ? secrets.redact(chunk) : chunk,
        ...rest,
      )) as S['write'];
    return proxy;
  };
  return { ...io, stdout: wrap(io.stdout), stderr: wrap(io.stderr) };
}
