import type { MemberRecord } from '../db/index.ts';
import { forbidden } from '../errors.ts';

/**
 * Role levels, from most to least powerful, exactly as the contract lists them.
 * An organization member's `role` is one of them, or null for a guest.
 * Collections and spaces carry a `defaultLevel`: the level organization members
 * get on that content. Null inherits from the parent collection, and at the top
 * from the member's organization role. Organization admins are admins of all
 * content; guests have no access to content.
 */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export function atLeast(level: Role | null | undefined, required: Role): boolean {
  return level != null && RANK[level] >= RANK[required];
}

export function asRole(value: string | null | undefined): Role | null {
  return value && (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}

/** A membership that opens the organization: active (guests included). */
export function activeMember(member: MemberRecord | null | undefined): member is MemberRecord {
  return member != null && !member.disabled;
}

/**
 * A membership that opens the organization's content — its collections, spaces
 * and sites: active, with a role. Such a member has a level on every piece of
 * content (`contentLevel`); guests have none.
 */
export function readsContent(member: MemberRecord | null | undefined): member is MemberRecord {
  return activeMember(member) && asRole(member.role) !== null;
}

/**
 * The organizations a viewer's memberships open, as the predicates of compiled
 * reads take them (src/graphql/compiled/): where it is a member, and where it
 * reads the content.
 */
export function openedOrganizations(memberships: Iterable<MemberRecord>): { memberOf: string[]; contentOf: string[] } {
  const members = [...memberships].filter(activeMember);
  return {
    memberOf: members.map((member) => member.organizationId),
    contentOf: members.filter(readsContent).map((member) => member.organizationId),
  };
}

/** The level a member has on a piece of content, given the default levels from the content up to the root. */
export function contentLevel(member: MemberRecord | null, defaultLevels: Array<string | null>): Role | null {
  if (!readsContent(member)) return null;
  const role = asRole(member.role);
  if (role === 'admin') return 'admin';
  if (role === null) return null;
  const explicit = defaultLevels.find((level) => level != null);
  return asRole(explicit) ?? role;
}

export interface OrganizationAccess {
  member: MemberRecord | null;
  role: Role | null;
}

export function organizationPermissions({ member, role }: OrganizationAccess) {
  const isMember = activeMember(member);
  const isAdmin = isMember && role === 'admin';
  const nonGuest = isMember && role !== null;
  return {
    view: isMember,
    access: nonGuest,
    admin: isAdmin,
    ownTeam: isAdmin,
    createContent: nonGuest && atLeast(role, 'create'),
    createOpenAPISpec: nonGuest && atLeast(role, 'create'),
    viewBilling: isAdmin,
    listMembers: nonGuest,
    listTeams: nonGuest,
    listIntegrations: nonGuest,
    listInstallations: isAdmin,
    installIntegration: isAdmin,
  };
}
export type OrganizationPermissions = ReturnType<typeof organizationPermissions>;

export function collectionPermissions(level: Role | null) {
  return {
    view: atLeast(level, 'read'),
    admin: atLeast(level, 'admin'),
    viewInviteLinks: atLeast(level, 'admin'),
    create: atLeast(level, 'create'),
  };
}
export type CollectionPermissions = ReturnType<typeof collectionPermissions>;

export function spacePermissions(level: Role | null, editMode: string) {
  return {
    view: atLeast(level, 'read'),
    access: atLeast(level, 'read'),
    admin: atLeast(level, 'admin'),
    viewInviteLinks: atLeast(level, 'admin'),
    edit: atLeast(level, 'edit') && editMode !== 'locked',
    triggerGitSync: atLeast(level, 'edit'),
    comment: atLeast(level, 'comment'),
    merge: atLeast(level, 'review'),
    review: atLeast(level, 'review'),
    installIntegration: atLeast(level, 'admin'),
  };
}
export type SpacePermissions = ReturnType<typeof spacePermissions>;

/** Throws a 403 naming the action unless `allowed`. */
export function authorize(allowed: boolean, action: string): void {
  if (!allowed) throw forbidden(`You are not allowed to ${action}`);
}

/**
 * Sites belong to the organization as a whole: non-guest members see them,
 * `create` members create them, admins configure them (like spaces, whose
 * settings need admin).
 */
export function sitePermissions({ member, role }: OrganizationAccess) {
  const nonGuest = readsContent(member) && role !== null;
  const isAdmin = nonGuest && role === 'admin';
  return {
    view: nonGuest,
    access: nonGuest,
    edit: isAdmin,
    create: nonGuest && atLeast(role, 'create'),
    admin: isAdmin,
    installIntegration: isAdmin,
    viewAdaptiveSchema: nonGuest,
    editAdaptiveSchema: isAdmin,
  };
}
export type SitePermissions = ReturnType<typeof sitePermissions>;
