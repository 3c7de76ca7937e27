import {
  InviteUsersAndTeamsInput,
  ListContentPermissionsQuery,
  ListPermissionsAggregateQuery,
  ListSitePermissionsAggregateQuery,
  UpdateContentPermissionInput,
} from '../../domain/permissions/inputs.ts';
import {
  type ContentRef,
  type GrantKind,
  listSitePermissionsAggregate,
  inviteToContent,
  listPermissionsAggregate,
  listTeamPermissions,
  listUserPermissions,
  removeGrant,
  updateTeamPermission,
  updateUserPermission,
} from '../../domain/permissions/service.ts';
import { restList } from '../../lib/pagination.ts';
import { type Route, route } from '../route.ts';

/** The seven official operations of one kind of content's permissions, and its aggregate (src/domain/permissions/service.ts). */
function contentPermissionRoutes(
  kind: GrantKind,
  names: { Kind: string; base: string; param: string; tag: string; responses?: { user: string; team: string; aggregate: string } },
): Route[] {
  const { Kind, base, param, tag } = names;
  const responses = names.responses ?? { user: 'UserContentPermission', team: 'TeamContentPermission', aggregate: 'UserContentPermission' };
  // A site is named under its organization: the path's organization must be the site's (else a 404).
  const id = (params: Record<string, string>): ContentRef => ({
    kind,
    id: params[param]!,
    // An empty path segment ('/orgs//sites/...') is an organization that is not found, not a missing one.
    ...(kind === 'site' ? { organizationId: params.organizationId ?? '' } : {}),
  });
  const aggregate = kind === 'site' ? listSitePermissionsAggregate : listPermissionsAggregate;
  return [
    route({
      method: 'POST',
      path: `${base}/permissions`,
      operationId: `inviteTo${Kind}`,
      summary: `Give users and teams a role on a ${kind} (its admins; a null role takes theirs away)`,
      tag,
      body: InviteUsersAndTeamsInput,
      status: 204,
      handler: (ctx, { params, body }) => inviteToContent(ctx, id(params), body),
    }),
    route({
      method: 'GET',
      path: `${base}/permissions/users`,
      operationId: `listUserPermissionsIn${Kind}`,
      summary: `Users given a role on the ${kind} itself`,
      tag,
      query: ListContentPermissionsQuery,
      status: 200,
      response: responses.user,
      list: true,
      handler: async (ctx, { params, query }) => restList(await listUserPermissions(ctx, id(params), query)),
    }),
    route({
      method: 'PATCH',
      path: `${base}/permissions/users/{userId}`,
      operationId: `updateUserPermissionIn${Kind}`,
      summary: `Set a member's role on the ${kind} (its admins; null takes it away)`,
      tag,
      body: UpdateContentPermissionInput,
      status: 204,
      handler: (ctx, { params, body }) => updateUserPermission(ctx, id(params), params.userId!, body),
    }),
    route({
      method: 'DELETE',
      path: `${base}/permissions/users/{userId}`,
      operationId: `removeUserFrom${Kind}`,
      summary: `Take a member's role on the ${kind} away (its admins)`,
      tag,
      status: 205,
      noContentWhenAbsent: true,
      handler: (ctx, { params }) => removeGrant(ctx, id(params), { userId: params.userId! }),
    }),
    route({
      method: 'GET',
      path: `${base}/permissions/teams`,
      operationId: `listTeamPermissionsIn${Kind}`,
      summary: `Teams given a role on the ${kind} itself`,
      tag,
      query: ListContentPermissionsQuery,
      status: 200,
      response: responses.team,
      list: true,
      handler: async (ctx, { params, query }) => restList(await listTeamPermissions(ctx, id(params), query)),
    }),
    route({
      method: 'PATCH',
      path: `${base}/permissions/teams/{teamId}`,
      operationId: `updateTeamPermissionIn${Kind}`,
      summary: `Set a team's role on the ${kind} (its admins; null takes it away)`,
      tag,
      body: UpdateContentPermissionInput,
      status: 204,
      handler: (ctx, { params, body }) => updateTeamPermission(ctx, id(params), params.teamId!, body),
    }),
    route({
      method: 'DELETE',
      path: `${base}/permissions/teams/{teamId}`,
      operationId: `removeTeamFrom${Kind}`,
      summary: `Take a team's role on the ${kind} away (its admins)`,
      tag,
      status: 205,
      noContentWhenAbsent: true,
      handler: (ctx, { params }) => removeGrant(ctx, id(params), { teamId: params.teamId! }),
    }),
    route({
      method: 'GET',
      path: `${base}/permissions/aggregate`,
      operationId: `listPermissionsAggregateIn${Kind}`,
      summary: `Every member who reaches the ${kind}, with the level the organization role, default levels and grants give`,
      tag,
      query: kind === 'site' ? ListSitePermissionsAggregateQuery : ListPermissionsAggregateQuery,
      status: 200,
      response: responses.aggregate,
      list: true,
      handler: async (ctx, { params, query }) => restList(await aggregate(ctx, id(params), query)),
    }),
  ];
}

export const spacePermissionRoutes = contentPermissionRoutes('space', {
  Kind: 'Space',
  base: '/v1/spaces/{spaceId}',
  param: 'spaceId',
  tag: 'Space permissions',
});

export const collectionPermissionRoutes = contentPermissionRoutes('collection', {
  Kind: 'Collection',
  base: '/v1/collections/{collectionId}',
  param: 'collectionId',
  tag: 'Collection permissions',
});

export const sitePermissionRoutes = contentPermissionRoutes('site', {
  Kind: 'Site',
  base: '/v1/orgs/{organizationId}/sites/{siteId}',
  param: 'siteId',
  tag: 'Site permissions',
  responses: { user: 'UserSitePermissionOverride', team: 'TeamSitePermissionOverride', aggregate: 'UserSitePermission' },
});
