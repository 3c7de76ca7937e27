import { ListMemberSpacesQuery, ListMemberTeamsQuery, ListMembersQuery, UpdateMemberInput } from '../../domain/members/inputs.ts';
import {
  getMember,
  listMemberSpaces,
  listMembers,
  ping,
  removeMember,
  setSsoMember,
  updateMember,
} from '../../domain/members/service.ts';
import { listMemberTeams } from '../../domain/teams/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Members';

export const memberRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members',
    operationId: 'listMembersInOrganizationById',
    summary: 'Members of an organization',
    tag,
    query: ListMembersQuery,
    status: 200,
    response: 'OrganizationMember',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listMembers(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    operationId: 'getMemberInOrganizationById',
    summary: 'A member',
    tag,
    status: 200,
    response: 'OrganizationMember',
    handler: (ctx, { params }) => getMember(ctx, params.organizationId!, params.userId!),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    operationId: 'updateMemberInOrganizationById',
    summary: "Change a member's role (admins)",
    tag,
    body: UpdateMemberInput,
    status: 200,
    response: 'OrganizationMember',
    handler: (ctx, { params, body }) => updateMember(ctx, params.organizationId!, params.userId!, body),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/members/{userId}',
    operationId: 'removeMemberFromOrganizationById',
    summary: 'Remove a member (admins), or leave the organization',
    tag,
    status: 204,
    handler: (ctx, { params }) => removeMember(ctx, params.organizationId!, params.userId!),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/ping',
    operationId: 'updateOrganizationMemberLastSeenAt',
    summary: "Update the caller's last-seen time",
    tag,
    status: 200,
    response: 'PingResult',
    handler: (ctx, { params }) => ping(ctx, params.organizationId!),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/members/{userId}/sso',
    operationId: 'setUserAsSSOMemberForOrganization',
    summary: 'Mark a member as signed in through SSO (admins)',
    tag,
    status: 200,
    response: 'OrganizationMember',
    handler: (ctx, { params }) => setSsoMember(ctx, params.organizationId!, params.userId!),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
    operationId: 'listSpacesForOrganizationMember',
    summary: "Spaces a member can access, with the member's level",
    tag,
    query: ListMemberSpacesQuery,
    status: 200,
    response: 'MemberContentPermission',
    list: true,
    handler: async (ctx, { params, query }) =>
      restList(await listMemberSpaces(ctx, params.organizationId!, params.userId!, query)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/members/{userId}/teams',
    operationId: 'listTeamsForOrganizationMember',
    summary: 'Teams of a member',
    tag,
    query: ListMemberTeamsQuery,
    status: 200,
    response: 'MemberTeam',
    list: true,
    handler: async (ctx, { params, query }) =>
      restList(await listMemberTeams(ctx, params.organizationId!, params.userId!, query)),
  }),
];
