// Bearer-key authentication. Keys are held only in memory, compared by their SHA-256 digest, and
// never written to the database, to logs or to error messages.
import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@kis/rules';

export interface AuthOptions {
  adminKey: string;
  /** Keys of role `basic`. */
  userKeys: readonly string[];
  /** Keys of role `curator` (manage connectors, not admin-only calls). */
  curatorKeys?: readonly string[];
}

function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** A fresh random development key, e.g. `kis-dev-admin-3q2...`. */
export function generateKey(kind: 'admin' | 'user'): string {
  return `kis-dev-${kind}-${randomBytes(24).toString('base64url')}`;
}

/** Checks a key's format: printable ASCII without spaces, 8 to 512 characters. */
export function checkKeyFormat(key: string, name: string): void {
  if (!/^[\x21-\x7e]{8,512}$/.test(key)) {
    throw new Error(
      `${name} must be 8 to 512 printable ASCII characters without spaces (got ${key.length} characters)`,
    );
  }
}

export class KeyRing {
  private readonly roles = new Map<string, Role>();

  constructor(options: AuthOptions) {
    checkKeyFormat(options.adminKey, 'admin key');
    this.roles.set(digest(options.adminKey), 'admin');
    this.add(options.curatorKeys ?? [], 'curator');
    this.add(options.userKeys, 'basic');
  }

  private add(keys: readonly string[], role: Role): void {
    const name = role === 'basic' ? 'user key' : 'curator key';
    for (const key of keys) {
      checkKeyFormat(key, name);
      const d = digest(key);
      const held = this.roles.get(d);
      // One key, one role: a key listed twice with different roles is a set-up mistake.
      if (held !== undefined && held !== role) {
        throw new RangeError(`a ${name} must differ from the ${held} key(s)`);
      }
      this.roles.set(d, role);
    }
  }

  /** The role of the bearer key in an `Authorization` header value, or undefined. */
  roleOf(authorization: string | undefined): Role | undefined {
    if (authorization === undefined) return undefined;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match === null) return undefined;
    return this.roles.get(digest(match[1]!));
  }
}
