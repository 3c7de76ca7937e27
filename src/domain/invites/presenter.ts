import type { InviteRecord } from '../../db/index.ts';
import { type Role, asRole, atLeast } from '../access.ts';
import type { Api, Wire } from '../shared/api-types.ts';

/** The official InviteLinkToOrganization; email invites also carry their `email`. */
export type InviteJSON = Wire<Api.InviteLinkToOrganization> & { email?: string };

/**
 * An invite is redundant for a caller who already has at least its role in the
 * organization (any membership for a guest invite): joining would change nothing.
 */
export function inviteRedundant(invite: Pick<InviteRecord, 'role'>, membership: { role: Role | null } | null): boolean {
  if (!membership) return false;
  const role = asRole(invite.role);
  return role === null || atLeast(membership.role, role);
}

export function presentInvite(invite: InviteRecord, redundant: boolean): InviteJSON {
  return {
    object: 'invite',
    id: invite.id,
    role: (asRole(invite.role) ?? null) as InviteJSON['role'],
    redundant,
    ...(invite.email ? { email: invite.email } : {}),
  };
}

/** The higher of two organization roles (null, a guest, is the lowest). */
export function higherRole(a: Role | null, b: Role | null): Role | null {
  if (a === null) return b;
  if (b === null) return a;
  return atLeast(a, b) ? a : b;
}
