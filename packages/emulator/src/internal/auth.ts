// Bearer-key authentication. The keys the emulator starts with are held only in memory; keys made
// with `createApiKey` are stored as their SHA-256 digest. Keys are compared by digest and never
// written to logs or error messages.
//
// Every key carries what each kind of server reads (docs/deployed-servers.md, "Keys and their
// rights"): a role (release 4.6.1, and the seed's x-kis-role check when it is one of the seed's
// roles) and groups (the main line). The admin key is in `Admin`, `--curator-key`s in `Basic`
// and `Curators`, `--user-key`s in `Basic`.
import { createHash, randomBytes } from 'node:crypto';
import { ROLES, type Role, type UserRole } from '@kis/rules';
import { ADMIN_GROUP_ID, BASIC_GROUP_ID, CURATORS_GROUP_ID } from './store/groups.js';

export interface AuthOptions {
  adminKey: string;
  /** Keys of role `basic`. */
  userKeys: readonly string[];
  /** Keys of role `curator` (manage connectors, not admin-only calls). */
  curatorKeys?: readonly string[];
}

/** Who a key is. */
export interface KeyIdentity {
  /** Id of a key made with `createApiKey`; null for the keys the emulator started with. */
  apiKeyId: number | null;
  /** The key's name (`API_KEY__<name>` in its e-mail address), null when unnamed. */
  name: string | null;
  /** The uuid of the account the key acts as. */
  userId: string;
  role: UserRole;
  groupIds: readonly number[];
}

/** Finds a key made with `createApiKey` by its digest. */
export type CreatedKeyLookup = (digest: string) => KeyIdentity | undefined;

/** What the keys the emulator starts with are, by their role. */
const STARTED_KEYS: Readonly<Record<Role, { name: string; groupIds: readonly number[] }>> = {
  admin: { name: 'kis-emulator-admin', groupIds: [ADMIN_GROUP_ID] },
  curator: { name: 'kis-emulator-curator', groupIds: [BASIC_GROUP_ID, CURATORS_GROUP_ID] },
  basic: { name: 'kis-emulator-user', groupIds: [BASIC_GROUP_ID] },
};

/** The SHA-256 digest a key is matched by. */
export function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** A stable uuid (version 5 layout) for the account of a started key, from its digest. */
function accountId(digest: string): string {
  const hex = createHash('sha256').update(`kis-emulator-account:${digest}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A fresh random development key, e.g. `kis-dev-admin-3q2...`. */
export function generateKey(kind: 'admin' | 'user' | 'key'): string {
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

/** The seed's role of a key: its role when the seed has it, else none (every call refused). */
export function seedRoleOf(identity: KeyIdentity): Role | undefined {
  return (ROLES as readonly string[]).includes(identity.role) ? (identity.role as Role) : undefined;
}

export class KeyRing {
  private readonly started = new Map<string, KeyIdentity>();

  constructor(
    options: AuthOptions,
    private readonly created: CreatedKeyLookup = () => undefined,
  ) {
    checkKeyFormat(options.adminKey, 'admin key');
    this.add([options.adminKey], 'admin');
    this.add(options.curatorKeys ?? [], 'curator');
    this.add(options.userKeys, 'basic');
  }

  private add(keys: readonly string[], role: Role): void {
    const name = role === 'basic' ? 'user key' : `${role} key`;
    for (const key of keys) {
      checkKeyFormat(key, name);
      const digest = digestOf(key);
      const held = this.started.get(digest)?.role;
      // One key, one role: a key listed twice with different roles is a set-up mistake.
      if (held !== undefined && held !== role) {
        throw new RangeError(`a ${name} must differ from the ${held} key(s)`);
      }
      const { name: keyName, groupIds } = STARTED_KEYS[role];
      this.started.set(digest, {
        apiKeyId: null,
        name: keyName,
        userId: accountId(digest),
        role,
        groupIds,
      });
    }
  }

  /** Who the bearer key of an `Authorization` header value is, or undefined. */
  identify(authorization: string | undefined): KeyIdentity | undefined {
    if (authorization === undefined) return undefined;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match === null) return undefined;
    const digest = digestOf(match[1]!);
    return this.started.get(digest) ?? this.created(digest);
  }

  /** Who the keys the emulator started with are. */
  startedIdentities(): KeyIdentity[] {
    return [...this.started.values()];
  }

  /** The seed's role of the bearer key, or undefined (unknown key, or a role the seed lacks). */
  roleOf(authorization: string | undefined): Role | undefined {
    const identity = this.identify(authorization);
    return identity === undefined ? undefined : seedRoleOf(identity);
  }
}
