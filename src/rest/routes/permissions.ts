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
  type Grantee,
  listSitePermissionsAggregate,
  inviteToContent,
  listPermissionsAggregate,
  listTeamPermissions,
  listUserPermissions,
  removeGrant,
  updateTeamPermission,
  updateUserPermission,
} from '../../domain/permissions/service.ts';
import type { RequestContext } from '../../context.ts';
import { type Page, restList } from '../../lib/pagination.ts';
import { type Route, route } from '../route.ts';

type ListGrants = (ctx: RequestContext, ref: ContentRef, query: unknown) => Promise<Page<object>>;

/** Who can be given a role on content, as the official operations name them. */
const GRANTEES = {
  user: { Who: 'User', param: 'userId', list: listUserPermissions as ListGrants, update: updateUserPermission, who: 'a member' },
  team: { Who: 'Team', param: 'teamId', list: listTeamPermissions as ListGrants, update: updateTeamPermission, who: 'a team' },
} as const;

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
  // The same three operations for users and for teams given a role on the content.
  const granteeRoutes = (grantee: 'user' | 'team'): Route[] => {
    const { Who, param: granteeParam, list, update, who } = GRANTEES[grantee];
    const granteeOf = (params: Record<string, string>): Grantee => (grantee === 'user' ? { userId: params.userId! } : { teamId: params.teamId! });
    const path = `${base}/permissions/${grantee}s`;
    return [
      route({
        method: 'GET',
        path,
        operationId: `list${Who}PermissionsIn${Kind}`,
        summary: `${Who}s given a role on the ${kind} itself`,
        tag,
        query: ListContentPermissionsQuery,
        status: 200,
        response: responses[grantee],
        list: true,
        handler: async (ctx, { params, query }) => restList(await list(ctx, id(params), query)),
      }),
      route({
        method: 'PATCH',
        path: `${path}/{${granteeParam}}`,
        operationId: `update${Who}PermissionIn${Kind}`,
        summary: `Set ${who}'s role on the ${kind} (its admins; null takes it away)`,
        tag,
        body: UpdateContentPermissionInput,
        status: 204,
        handler: (ctx, { params, body }) => update(ctx, id(params), params[granteeParam]!, body),
      }),
      route({
        method: 'DELETE',
        path: `${path}/{${granteeParam}}`,
        operationId: `remove${Who}From${Kind}`,
        summary: `Take ${who}'s role on the ${kind} away (its admins)`,
        tag,
        status: 205,
        noContentWhenAbsent: true,
        handler: (ctx, { params }) => removeGrant(ctx, id(params), granteeOf(params)),
      }),
    ];
  };
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
    ...granteeRoutes('user'),
    ...granteeRoutes('team'),
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
