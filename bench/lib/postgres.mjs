// A private PostgreSQL for the benchmarks (Debian's package, as the tests' @kis/test-support
// starts it, which plain Node cannot import): initdb in a temporary folder, 127.0.0.1 only, run
// as the `postgres` system user when this process is root; `sql()` runs psql over its socket.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = versions.find((v) => existsSync(join(base, v, 'bin', 'postgres')));
  if (!found) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return join(base, found, 'bin');
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(command, args, input = '') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(err || out))));
    child.stdin.end(input);
  });
}

/** `{ url, sql(text), copyOut(query, file), close() }`. */
export async function startPostgres(password = 'kis-bench-password') {
  const bin = binDir();
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const ids = root
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : {};
  const dir = mkdtempSync(join(tmpdir(), 'kis-bench-pg-'));
  if (root) chownSync(dir, ids.uid, ids.gid);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (root) chownSync(pwfile, ids.uid, ids.gid);
  const data = join(dir, 'data');
  execFileSync(
    join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'kis',
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    { stdio: 'ignore', ...ids },
  );
  const port = await freePort();
  const child = spawn(
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
    { stdio: 'ignore', ...ids },
  );
  const psql = (database, text) =>
    run(
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
        'kis',
        '-d',
        database,
        '-f',
        '-',
      ],
      text,
    );
  for (let i = 0; ; i++) {
    try {
      await run(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]);
      break;
    } catch (error) {
      if (i > 600) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await psql('postgres', 'CREATE DATABASE kis;');
  return {
    url: `postgres://kis:${encodeURIComponent(password)}@127.0.0.1:${port}/kis`,
    sql: (text) => psql('kis', text),
    /** Writes the rows of `query` (one text column) to `file`, through psql's \copy. */
    copyOut: (query, file) => psql('kis', `\\copy (${query}) TO '${file}'`),
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
