import { CreateInviteInput, InviteUsersInput, ListInvitesQuery, UpdateInviteInput } from '../../domain/invites/inputs.ts';
import { createInvite, deleteInvite, getInvite, inviteUsers, joinWithInvite, listInvites, updateInvite } from '../../domain/invites/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Invites';
const linkInvite = '/v1/orgs/{organizationId}/link-invites/{inviteId}';

export const inviteRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/link-invites',
    operationId: 'listOrganizationInviteLinks',
    summary: 'Link invites of an organization, oldest first (admins)',
    tag,
    query: ListInvitesQuery,
    status: 200,
    response: 'InviteLinkToOrganization',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listInvites(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/link-invites',
    operationId: 'createOrganizationInvite',
    summary: 'Create a link invite with a role (admins; while inviteLinks is on)',
    tag,
    body: CreateInviteInput,
    status: 201,
    response: 'InviteLinkToOrganization',
    handler: (ctx, { params, body }) => createInvite(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: linkInvite,
    operationId: 'getOrganizationInviteLink',
    summary: 'An invite: admins; anyone holding a link invite while inviteLinks is on; the invited user its email invite',
    tag,
    status: 200,
    response: 'InviteLinkToOrganization',
    handler: (ctx, { params }) => getInvite(ctx, params.organizationId!, params.inviteId!),
  }),
  route({
    method: 'PATCH',
    path: linkInvite,
    operationId: 'updateOrganizationInviteById',
    summary: "Change an invite's role (admins)",
    tag,
    body: UpdateInviteInput,
    status: 200,
    response: 'InviteLinkToOrganization',
    handler: (ctx, { params, body }) => updateInvite(ctx, params.organizationId!, params.inviteId!, body),
  }),
  route({
    method: 'DELETE',
    path: linkInvite,
    operationId: 'deleteOrganizationInviteById',
    summary: 'Delete an invite (admins)',
    tag,
    status: 205,
    handler: (ctx, { params }) => deleteInvite(ctx, params.organizationId!, params.inviteId!),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/invites',
    operationId: 'inviteUsersToOrganization',
    summary: 'Invite users by email: one invite per address, reusing an unused one (admins)',
    tag,
    body: InviteUsersInput,
    status: 200,
    response: 'InviteUsersResult',
    handler: (ctx, { params, body }) => inviteUsers(ctx, params.organizationId!, body),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/invites/{inviteId}',
    operationId: 'joinOrganizationWithInvite',
    summary: "Join the organization with an invite (a member keeps the higher of its role and the invite's)",
    tag,
    status: 200,
    response: 'JoinOrganizationResult',
    handler: (ctx, { params }) => joinWithInvite(ctx, params.organizationId!, params.inviteId!),
  }),
];
