/**
 * The doctor's checks of who the key is (`GET /me`) and what it may do with each group of calls,
 * worded for the key's model: a role on release 4.6.1, groups and permissions on the main line
 * (docs/deployed-servers.md, "Keys and their rights").
 */
import { isLimitedKey, releaseDenial, UNGROUPED_KEY_PERMISSIONS } from '@kis/rules';
import type { AccessGroup, DoctorAccess, DoctorCheck, DoctorKey } from '../doctor.js';
import {
  ACCESS_GROUPS,
  coveringPermissions,
  groupPermissions,
  inNoGroup,
  isUserRole,
  rolesPassing,
} from './key-access.js';
import { MANAGING_KEY } from './roles.js';

/** The checks that say who the key is: its role, or its account, groups and permissions. */
export function identityChecks(key: DoctorKey): DoctorCheck[] {
  if (key.model === 'role' && key.checks === 'seed') {
    const detail = `${key.role} (a server that checks roles the seed's way: see "key can manage connectors")`;
    return [{ name: 'key role', ok: true, detail }];
  }
  if (key.model === 'role') {
    const managing = rolesPassing(ACCESS_GROUPS.connectors).join(' or ');
    return [
      {
        name: 'key role',
        ok: true,
        detail: `${key.role} (a key with a role, as on release 4.6.1: its rights come from the role, and connector calls take a key of role ${managing})`,
      },
    ];
  }
  if (key.model === 'unknown') return [{ name: 'key identity', ok: true, detail: key.reason }];
  const groups = inNoGroup(key.permissions)
    ? `none: the key holds only ${UNGROUPED_KEY_PERMISSIONS.join(', ')}, what a key in no group holds`
    : "not shown to the key itself; the permissions below are its groups' grants";
  return [
    {
      name: 'key account',
      ok: true,
      detail: `${key.accountType} (main line: a key's rights are the grants of its groups)`,
    },
    {
      name: 'key groups',
      ok: true,
      detail: `${groups}${key.groupManager ? '; it manages a group' : ''}`,
    },
    {
      name: 'key permissions',
      ok: true,
      detail: isLimitedKey(key.permissions)
        ? 'none (a limited key: every server refuses it)'
        : key.permissions.join(', '),
    },
  ];
}

/** "createConnector, setCcPairStatus and 3 more". */
function someOf(operations: readonly string[], shown = 3): string {
  if (operations.length <= shown) return operations.join(', ');
  return `${operations.slice(0, shown).join(', ')} and ${operations.length - shown} more`;
}

/** The fix for a main-line key that lacks `permissions`. */
function groupFix(permissions: readonly string[]): string {
  return `add the key to a group that grants ${permissions.join(' and ')}`;
}

/** The fix for a release 4.6.1 key whose role does not pass the group's calls. */
function roleFix(group: AccessGroup): string {
  const roles = rolesPassing(ACCESS_GROUPS[group]);
  const example = roles[roles.length - 1] ?? 'admin';
  return `use a key of role ${roles.join(' or ')} (POST /admin/api-key with {"role": "${example}"})`;
}

/** How much of the group the key may not use: "refused" or "refused in part (…)". */
function refusal(access: DoctorAccess): string {
  const total = ACCESS_GROUPS[access.group].length;
  const ops = access.refused.map((r) => r.operationId);
  return ops.length === total
    ? 'refused'
    : `refused in part (${ops.length} of ${total} calls: ${someOf(ops)})`;
}

/** The check of one group of calls for the key. */
export function accessCheck(key: DoctorKey, access: DoctorAccess): DoctorCheck {
  const name = `may use ${access.group}`;
  if (key.model === 'groups') {
    if (access.allowed) {
      return { name, ok: true, detail: `yes (needs ${groupPermissions(access.group).join(', ')})` };
    }
    const missing = coveringPermissions(access.refused.map((r) => r.needs));
    const holds = key.permissions.join(', ') || 'nothing';
    const manager = key.groupManager
      ? '; as a group manager it still reaches the pairs of the groups it manages'
      : '';
    return {
      name,
      ok: false,
      detail: `${refusal(access)}: needs ${missing.join(' and ')}, and the key holds ${holds}${manager}`,
      fix: groupFix(missing),
    };
  }
  const role = key.model === 'role' ? key.role : 'unknown';
  if (access.allowed) return { name, ok: true, detail: `yes (role ${role})` };
  const first = access.refused[0]?.operationId ?? '';
  const answer = isUserRole(role) ? releaseDenial(first, role) : undefined;
  const text = (answer?.body as { detail?: unknown } | undefined)?.detail;
  return {
    name,
    ok: false,
    detail: `${refusal(access)}: a key of role ${role} is answered 403${typeof text === 'string' ? ` "${text}"` : ''}`,
    fix: roleFix(access.group),
  };
}

/** The fix of a failed "key can manage connectors", for the key's model when it is known. */
export function managingFix(key: DoctorKey | undefined): string {
  if (key?.model === 'groups') return groupFix(groupPermissions('credentials'));
  if (key?.model === 'role' && key.checks === 'v4.6.1') return roleFix('credentials');
  return `use ${MANAGING_KEY}`;
}
