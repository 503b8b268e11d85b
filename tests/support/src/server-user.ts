/**
 * Database servers refuse to run as root (PostgreSQL) or drop to a user of their own (MariaDB):
 * as root, a test's server runs as that system user, in a temporary folder it owns.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The uid and gid a server process runs as: the system user's when this process is root. */
export interface ServerUser {
  uid: number;
  gid: number;
  /** The user's name (for servers that take it, like mariadbd's `--user`). */
  name: string;
}

/** `name`'s ids, read with `id`; undefined when this process is not root (it runs as itself). */
export function serverUser(name: string): ServerUser | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid, name };
  } catch {
    throw new Error(
      `running as root, the test server needs the system user "${name}" (the Debian package creates it)`,
    );
  }
}

/** A temporary folder owned by `user` (or by this process). */
export function serverDir(tag: string, user: ServerUser | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), `kis-${tag}-`));
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Spawn options that run a child as `user` (nothing when this process is not root). */
export function asUser(user: ServerUser | undefined): { uid?: number; gid?: number } {
  return user ? { uid: user.uid, gid: user.gid } : {};
}
