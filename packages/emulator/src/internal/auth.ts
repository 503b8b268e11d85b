// Bearer-key authentication. Keys are held only in memory, compared by their SHA-256 digest, and
// never written to the database, to logs or to error messages.
import { createHash, randomBytes } from 'node:crypto';

export type Role = 'admin' | 'basic';

export interface AuthOptions {
  adminKey: string;
  userKeys: readonly string[];
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
    for (const key of options.userKeys) {
      checkKeyFormat(key, 'user key');
      const d = digest(key);
      if (this.roles.get(d) === 'admin')
        throw new Error('a user key must differ from the admin key');
      this.roles.set(d, 'basic');
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
