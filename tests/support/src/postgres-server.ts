/**
 * A private PostgreSQL for a test (Debian's `postgresql` package): a cluster made by `initdb` in
 * a temporary folder, listening on a free port of 127.0.0.1 only (and a socket in that folder),
 * password authentication over TCP; ready once `pg_isready` says so. As root it runs as the
 * `postgres` system user (PostgreSQL refuses root). `close()` stops it and removes the folder.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './redis-server.js';
import { asUser, serverDir, serverUser } from './server-user.js';
import { runClient } from './sql-client.js';
import { until } from './until.js';

export interface TestPostgres {
  /** `postgres://USER:PASSWORD@127.0.0.1:PORT/DATABASE`. */
  url: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The URL with another password or database (a wrong password, a missing database). */
  urlWith(change: { password?: string; database?: string }): string;
  /** Runs SQL as the server's superuser through psql; resolves with its unaligned output. */
  sql(text: string): Promise<string>;
  close(): Promise<void>;
}

export interface StartPostgresOptions {
  /** The password of the test user (default `kis-test-password`). */
  password?: string;
}

/** The folder of PostgreSQL's programs: `PG_BIN`, else the newest `/usr/lib/postgresql/N/bin`. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    if (existsSync(join(base, v, 'bin', 'postgres'))) return join(base, v, 'bin');
  }
  throw new Error(
    'cannot find PostgreSQL (no /usr/lib/postgresql/N/bin/postgres): install it, e.g. apt-get install postgresql, or set PG_BIN',
  );
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const bin = binDir();
  const user = serverUser('postgres');
  const dir = serverDir('postgres', user);
  const data = join(dir, 'data');
  const port = await freePort();
  const password = options.password ?? 'kis-test-password';
  const name = 'kis';
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) execFileSync('chown', [`${user.uid}:${user.gid}`, pwfile]);
  execFileSync(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      name,
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...asUser(user) },
  );
  rmSync(pwfile);
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...asUser(user) },
  );
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    log = (log + d).slice(-4000);
  });
  let failed: Error | undefined;
  child.once('error', (error) => {
    failed = new Error(`cannot start postgres (${error.message})`);
  });
  child.once('exit', (code) => {
    failed ??= new Error(`postgres exited with ${code}: ${log.trim()}`);
  });
  const psql = (database: string, text: string) =>
    runClient(
      join(bin, 'psql'),
      [
        '-X',
        '-q',
        '-A',
        '-t',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        dir,
        '-p',
        String(port),
        '-U',
        name,
        '-d',
        database,
        '-f',
        '-',
      ],
      text,
    );
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT'); // fast shutdown
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (failed) throw failed;
        try {
          await runClient(
            join(bin, 'pg_isready'),
            ['-q', '-h', '127.0.0.1', '-p', String(port)],
            '',
          );
          return true;
        } catch {
          return false;
        }
      },
      `postgres on port ${port}`,
      30_000,
      25,
    );
    await psql('postgres', `CREATE DATABASE ${name};`);
  } catch (error) {
    await close();
    throw error;
  }
  const urlWith = (change: { password?: string; database?: string }) =>
    `postgres://${name}:${encodeURIComponent(change.password ?? password)}@127.0.0.1:${port}/${change.database ?? name}`;
  return {
    url: urlWith({}),
    port,
    user: name,
    password,
    database: name,
    urlWith,
    sql: (text) => psql(name, text),
    close,
  };
}
