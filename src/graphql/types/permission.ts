import type { RequestContext } from '../../context.ts';
import type { Role } from '../../domain/access.ts';
import { collectionRecord } from '../../domain/collections/service.ts';
import {
  type ContentRef,
  type GrantKind,
  type UserPermissionJSON,
  type UserSitePermissionJSON,
  inviteToContent,
  listPermissionsAggregate,
  listSitePermissionsAggregate,
  listTeamPermissionRecords,
  listUserPermissions,
  removeGrant,
  updateTeamPermission,
  updateUserPermission,
} from '../../domain/permissions/service.ts';
import { siteById } from '../../domain/sites/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import type { TeamRecord } from '../../db/index.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { nullIsAValue } from '../null-inputs.ts';
import { Collection } from './collection.ts';
import { MemberRole, OrderDirection } from './common.ts';
import { MemberRoleFilter, MemberSort } from './member.ts';
import { Site, pathOfSite } from './site-common.ts';
import { Space } from './space.ts';
import { Team } from './team.ts';
import { User } from './user.ts';

/**
 * Grants in the graph: the official permission operations of spaces,
 * collections and sites as mutations (src/domain/permissions/service.ts), each
 * answering the content as the viewer sees it afterwards, and their listings
 * as connections of the content whose cursors are REST's page tokens.
 */

const KINDS = {
  space: { Name: 'Space', type: Space, read: spaceRecord },
  collection: { Name: 'Collection', type: Collection, read: collectionRecord },
  site: { Name: 'Site', type: Site, read: siteById },
} as const;

/** The content a mutation names by id: a site is named under its organization in the domain. */
async function refOf(ctx: RequestContext, kind: GrantKind, id: string): Promise<ContentRef> {
  if (kind !== 'site') return { kind, id };
  const [organizationId] = await pathOfSite(ctx, id);
  return { kind, id, organizationId };
}

function grantMutations(kind: GrantKind) {
  const { Name, type, read } = KINDS[kind];
  const idField = `${kind}Id` as const;
  const payload = {
    outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { id: string }>) => ({
      [kind]: t.field({ type: type as never, resolve: (done, _args, ctx) => read(ctx, done.id) as never }),
    }),
  };

  builder.relayMutationField(
    `inviteTo${Name}`,
    {
      inputFields: (t) => ({
        [idField]: t.id({ required: true, description: `The ${kind}` }),
        role: t.field({ ...nullIsAValue, type: MemberRole, required: false, description: 'The role to give; null takes theirs away' }),
        users: t.idList({ description: 'Members of the organization (guests too), by user id' }),
        teams: t.idList({ description: 'Teams of the organization' }),
      }),
    },
    {
      description: `Gives users and teams of its organization a role on a ${kind}, beside their organization role (admins of the ${kind}); on a collection it reaches everything below`,
      resolve: async (_root, { input }, ctx) => {
        const { role, users, teams } = input as { role?: string | null; users?: string[] | null; teams?: string[] | null };
        const id = (input as Record<string, string>)[idField]!;
        await inviteToContent(ctx, await refOf(ctx, kind, id), {
          role: role === undefined ? undefined : role,
          ...(users ? { users } : {}),
          ...(teams ? { teams } : {}),
        });
        return { id };
      },
    },
    payload as never,
  );

  builder.relayMutationField(
    `set${Name}UserPermission`,
    {
      inputFields: (t) => ({
        [idField]: t.id({ required: true, description: `The ${kind}` }),
        userId: t.id({ required: true, description: 'A member of its organization (guests too), by user id' }),
        role: t.field({ ...nullIsAValue, type: MemberRole, required: false, description: 'Its role; null takes it away' }),
      }),
    },
    {
      description: `Sets or takes away a member's role on a ${kind} (admins of the ${kind})`,
      resolve: async (_root, { input }, ctx) => {
        const { userId, role } = input as { userId: string; role?: string | null };
        const id = (input as Record<string, string>)[idField]!;
        const ref = await refOf(ctx, kind, id);
        if (role === null) await removeGrant(ctx, ref, { userId });
        else await updateUserPermission(ctx, ref, userId, role === undefined ? {} : { role });
        return { id };
      },
    },
    payload as never,
  );

  builder.relayMutationField(
    `set${Name}TeamPermission`,
    {
      inputFields: (t) => ({
        [idField]: t.id({ required: true, description: `The ${kind}` }),
        teamId: t.id({ required: true, description: 'A team of its organization' }),
        role: t.field({ ...nullIsAValue, type: MemberRole, required: false, description: 'Its role; null takes it away' }),
      }),
    },
    {
      description: `Sets or takes away a team's role on a ${kind} (admins of the ${kind}); the team's members reach it at that level`,
      resolve: async (_root, { input }, ctx) => {
        const { teamId, role } = input as { teamId: string; role?: string | null };
        const id = (input as Record<string, string>)[idField]!;
        const ref = await refOf(ctx, kind, id);
        if (role === null) await removeGrant(ctx, ref, { teamId });
        else await updateTeamPermission(ctx, ref, teamId, role === undefined ? {} : { role });
        return { id };
      },
    },
    payload as never,
  );
}

grantMutations('space');
grantMutations('collection');
grantMutations('site');

const UserContentPermission = builder.objectRef<UserPermissionJSON>('UserContentPermission').implement({
  description: 'A user with its level on a space or collection (the REST UserContentPermission)',
  fields: (t) => ({
    permission: t.expose('permission', { type: MemberRole, description: 'Its role on the content' }),
    user: t.expose('user', { type: User, description: 'The user' }),
  }),
});

const TeamContentPermission = builder.objectRef<{ permission: Role; team: TeamRecord }>('TeamContentPermission').implement({
  description: 'A team with the role it was given on a space, collection or site (the REST TeamContentPermission)',
  fields: (t) => ({
    permission: t.expose('permission', { type: MemberRole, description: 'Its role on the content' }),
    team: t.expose('team', { type: Team, description: 'The team' }),
  }),
});

const SitePermissionOrigin = builder.objectRef<UserSitePermissionJSON['origin']>('SitePermissionOrigin').implement({
  description: "Where a member's level on a site comes from: its organization role, or a role granted on the site",
  fields: (t) => ({
    type: t.string({ description: '"organization" or "site"', resolve: (origin) => origin.type }),
    organization: t.id({
      nullable: true,
      description: 'The organization, when the level is its role there',
      resolve: (o) => (o.type === 'organization' ? o.organization : null),
    }),
    site: t.id({ nullable: true, description: 'The site, when the level was granted on it', resolve: (o) => (o.type === 'site' ? o.site : null) }),
    reason: t.string({
      nullable: true,
      description: '"member" (granted to it) or "team" (to a team of it), for a grant',
      resolve: (o) => (o.type === 'site' ? o.reason : null),
    }),
    team: t.id({ nullable: true, description: 'The team whose grant gives the level', resolve: (o) => (o.type === 'site' ? (o.team ?? null) : null) }),
  }),
});

const UserSitePermission = builder.objectRef<UserSitePermissionJSON>('UserSitePermission').implement({
  description: 'A member who reaches a site, with its level and where it comes from (the REST UserSitePermission)',
  fields: (t) => ({
    permission: t.expose('permission', { type: MemberRole, description: 'Its level on the site' }),
    user: t.expose('user', { type: User, description: 'The user' }),
    origin: t.expose('origin', { type: SitePermissionOrigin, description: 'Where the level comes from' }),
    disabled: t.exposeBoolean('disabled', { description: 'Whether the membership is disabled (never, as disabled members reach nothing)' }),
    lastSeenAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the member was last active in the organization; null if never',
      resolve: (entry) => entry.lastSeenAt ?? null,
    }),
  }),
});

/** The listings of grants on one kind of content, as fields of its type (who sees the content sees them, as in REST). */
function grantListings<Row extends { id: string }>(type: unknown, kind: GrantKind, refOfRow: (row: Row) => ContentRef) {
  const Type = type as PothosSchemaTypes.ObjectRef<typeof builder.$inferSchemaTypes, Row>;
  builder.objectField(Type, 'userPermissions', (t) =>
    t.connection({
      type: UserContentPermission,
      description: `Users given a role on the ${kind} itself, oldest grant first`,
      resolve: async (row, args, ctx) => toConnection(await listUserPermissions(ctx, refOfRow(row), connectionQuery(args))),
    }),
  );
  builder.objectField(Type, 'teamPermissions', (t) =>
    t.connection({
      type: TeamContentPermission,
      description: `Teams given a role on the ${kind} itself, oldest grant first`,
      resolve: async (row, args, ctx) => toConnection(await listTeamPermissionRecords(ctx, refOfRow(row), connectionQuery(args))),
    }),
  );
}

grantListings(Space, 'space', (space: { id: string }) => ({ kind: 'space', id: space.id }));
grantListings(Collection, 'collection', (collection: { id: string }) => ({ kind: 'collection', id: collection.id }));
grantListings(Site, 'site', (site: { id: string; organizationId: string }) => ({ kind: 'site', id: site.id, organizationId: site.organizationId }));

for (const [type, kind] of [
  [Space, 'space'],
  [Collection, 'collection'],
] as const) {
  builder.objectField(type as typeof Space, 'permissionsAggregate', (t) =>
    t.connection({
      type: UserContentPermission,
      description: `Every active member who reaches the ${kind}, with the level its organization role, the default levels and the grants give, in the order they joined`,
      args: { role: t.arg({ type: MemberRole, description: 'Only the members at this level' }) },
      resolve: async (row, args, ctx) => toConnection(await listPermissionsAggregate(ctx, { kind, id: row.id }, connectionQuery(args))),
    }),
  );
}

builder.objectField(Site, 'permissionsAggregate', (t) =>
  t.connection({
    type: UserSitePermission,
    description: 'Every active member who reaches the site, with its level and where it comes from',
    args: {
      order: t.arg({ type: OrderDirection, description: 'Direction of `sort`: desc (the default) or asc' }),
      role: t.arg({ type: MemberRoleFilter, description: 'Only the members at this level, or only the guests of the organization' }),
      search: t.arg.string({ description: 'Matches display names and emails' }),
      sort: t.arg({ type: MemberSort, description: 'What to order by: joinedAt when absent' }),
      team: t.arg.id({ description: "Only this team's members" }),
    },
    resolve: async (site, args, ctx) =>
      toConnection(await listSitePermissionsAggregate(ctx, { kind: 'site', id: site.id, organizationId: site.organizationId }, connectionQuery(args))),
  }),
);
