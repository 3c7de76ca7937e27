import type { MemberRecord } from '../db/index.ts';
import { forbidden } from '../errors.ts';

/**
 * Role levels, from most to least powerful, exactly as the contract lists them.
 * An organization member's `role` is one of them, or null for a guest.
 * Collections and spaces carry a `defaultLevel`: the level organization members
 * get on that content. Null inherits from the parent collection, and at the top
 * from the member's organization role. Organization admins are admins of all
 * content; guests reach only what they are granted (`effectiveLevel`).
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

/** The most powerful of some levels (null: none of them). */
export function highestLevel(levels: Iterable<Role | null | undefined>): Role | null {
  let highest: Role | null = null;
  for (const level of levels) if (level != null && (highest === null || RANK[level] > RANK[highest])) highest = level;
  return highest;
}

/**
 * The one rule of a member's level on a piece of content: the highest of what
 * its organization role gives with the default levels (`contentLevel`, nothing
 * for a guest) and of the roles granted on that content or inherited from the
 * collections above it, to the member or to its teams (src/domain/permissions/).
 * A disabled member, or a user who is no member, reaches nothing.
 */
export function effectiveLevel(member: MemberRecord | null, defaultLevels: Array<string | null>, granted: Iterable<string | null | undefined>): Role | null {
  if (!activeMember(member)) return null;
  return highestLevel([contentLevel(member, defaultLevels), ...[...granted].map(asRole)]);
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
 * Sites belong to the organization as a whole: its non-guest members reach them
 * at their organization role (`organizationSiteLevel`), raised by what is
 * granted on a site to the member or its teams (src/domain/sites/records.ts
 * siteLevel); a guest reaches the sites it is granted. `create` members create
 * sites, admins configure them.
 */
export function sitePermissions(level: Role | null) {
  const view = level !== null;
  const isAdmin = level === 'admin';
  return {
    view,
    access: view,
    edit: isAdmin,
    create: atLeast(level, 'create'),
    admin: isAdmin,
    installIntegration: isAdmin,
    viewAdaptiveSchema: view,
    editAdaptiveSchema: isAdmin,
  };
}

/** The level the organization role gives on every site of the organization, before grants: none for guests. */
export function organizationSiteLevel({ member, role }: OrganizationAccess): Role | null {
  return readsContent(member) ? role : null;
}
export type SitePermissions = ReturnType<typeof sitePermissions>;
