/**
 * A private MariaDB for a test (Debian's `mariadb-server` package): a data folder made by
 * `mariadb-install-db` in a temporary folder, listening on a free port of 127.0.0.1 only (and a
 * socket in that folder), a test user with a password; ready once the client can connect. As
 * root it runs as the `mysql` system user. `close()` stops it and removes the folder.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './redis-server.js';
import { asUser, serverDir, serverUser } from './server-user.js';
import { runClient } from './sql-client.js';
import { until } from './until.js';

export interface TestMariadb {
  /** `mysql://USER:PASSWORD@127.0.0.1:PORT/DATABASE`. */
  url: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The URL with another password or database. */
  urlWith(change: { password?: string; database?: string }): string;
  /** Runs SQL as root through the `mariadb` client, in the test database; its tab-separated output. */
  sql(text: string): Promise<string>;
  close(): Promise<void>;
}

export interface StartMariadbOptions {
  /** The password of the test user (default `kis-test-password`). */
  password?: string;
}

const program = (names: readonly string[]): string => {
  for (const name of names) {
    try {
      execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
      return name;
    } catch {
      // the next name
    }
  }
  throw new Error(`cannot find ${names[0]}: install MariaDB, e.g. apt-get install mariadb-server`);
};

/** A MariaDB string literal. */
const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export async function startMariadb(options: StartMariadbOptions = {}): Promise<TestMariadb> {
  const server = program(['mariadbd', 'mysqld']);
  const install = program(['mariadb-install-db', 'mysql_install_db']);
  const client = program(['mariadb', 'mysql']);
  const user = serverUser('mysql');
  const dir = serverDir('mariadb', user);
  const data = join(dir, 'data');
  const socket = join(dir, 'mysqld.sock');
  const port = await freePort();
  const password = options.password ?? 'kis-test-password';
  const name = 'kis';
  const common = ['--no-defaults', `--datadir=${data}`, ...(user ? [`--user=${user.name}`] : [])];
  execFileSync(install, [...common, '--auth-root-authentication-method=normal', '--skip-test-db'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...asUser(user),
  });
  const child: ChildProcess = spawn(
    server,
    [
      ...common,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--log-error=${join(dir, 'error.log')}`,
      `--tmpdir=${dir}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=64M',
      '--innodb-flush-log-at-trx-commit=0',
      '--innodb-doublewrite=0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...asUser(user) },
  );
  let failed: Error | undefined;
  child.once('error', (error) => {
    failed = new Error(`cannot start ${server} (${error.message})`);
  });
  child.once('exit', (code) => {
    failed ??= new Error(`${server} exited with ${code} (see its log in ${dir})`);
  });
  const run = (database: string | undefined, text: string) =>
    runClient(
      client,
      [
        '--no-defaults',
        `--socket=${socket}`,
        '-u',
        'root',
        '--batch',
        '--skip-column-names',
        ...(database ? [database] : []),
      ],
      text,
    );
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (failed) throw failed;
        try {
          await run(undefined, 'SELECT 1;');
          return true;
        } catch {
          return false;
        }
      },
      `mariadb on port ${port}`,
      60_000,
      50,
    );
    await run(
      undefined,
      `CREATE DATABASE ${name}; CREATE USER '${name}'@'127.0.0.1' IDENTIFIED BY ${quote(password)}; GRANT ALL ON ${name}.* TO '${name}'@'127.0.0.1';`,
    );
  } catch (error) {
    await close();
    throw error;
  }
  const urlWith = (change: { password?: string; database?: string }) =>
    `mysql://${name}:${encodeURIComponent(change.password ?? password)}@127.0.0.1:${port}/${change.database ?? name}`;
  return {
    url: urlWith({}),
    port,
    user: name,
    password,
    database: name,
    urlWith,
    sql: (text) => run(name, text),
    close,
  };
}
