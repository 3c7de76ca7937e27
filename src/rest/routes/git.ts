import { PutGitBindingInput, deleteGitBinding, getGitBinding, putGitBinding, syncGitBinding } from '../../domain/git/binding.ts';
import { ExportToGitRepository, ImportGitRepository, exportToGitRepository, getSpaceGitInfo, importGitRepository } from '../../domain/git/service.ts';
import { type Route, route } from '../route.ts';

/** Git sync of a space (official `space-git` operations): import and export are queued jobs (204); info is the last sync's state. */
export const spaceGitRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/v1/spaces/{spaceId}/git/import',
    operationId: 'importGitRepository',
    summary: "Pull content into a space from a Git repository in GitBook's layout (queued: 204; see …/git/info)",
    tag: 'Space Git sync',
    body: ImportGitRepository,
    status: 204,
    handler: (ctx, { params, body }) => importGitRepository(ctx, params.spaceId!, body),
  }),
  route({
    method: 'POST',
    path: '/v1/spaces/{spaceId}/git/export',
    operationId: 'exportToGitRepository',
    summary: "Push a space's content to a Git repository as one commit in GitBook's layout (queued: 204; see …/git/info)",
    tag: 'Space Git sync',
    body: ExportToGitRepository,
    status: 204,
    handler: (ctx, { params, body }) => exportToGitRepository(ctx, params.spaceId!, body),
  }),
  route({
    method: 'GET',
    path: '/v1/spaces/{spaceId}/git/info',
    operationId: 'getSpaceGitInfo',
    summary: 'The Git sync state of a space: its repository and its last import or export',
    tag: 'Space Git sync',
    status: 200,
    response: 'GitSyncState',
    handler: (ctx, { params }) => getSpaceGitInfo(ctx, params.spaceId!),
  }),
];

const binding = '/v1/spaces/{spaceId}/git/binding';

/** A space bound to a repository (docs-gateway's own; space admins): merges pushed as commits, pushes made revisions. */
export const spaceGitBindingRoutes: Route[] = [
  route({
    method: 'GET',
    path: binding,
    operationId: 'getSpaceGitBinding',
    summary: "The repository a space is bound to, and the binding's sync state; never its credentials (space admins)",
    tag: 'Space Git binding',
    status: 200,
    response: 'GitBinding',
    handler: (ctx, { params }) => getGitBinding(ctx, params.spaceId!),
  }),
  route({
    method: 'PUT',
    path: binding,
    operationId: 'putSpaceGitBinding',
    summary: 'Bind a space to a repository branch, or change its binding, and sync it (space admins); a new binding answers its hook secret, this once',
    tag: 'Space Git binding',
    body: PutGitBindingInput,
    status: 200,
    response: 'GitBinding',
    handler: (ctx, { params, body }) => putGitBinding(ctx, params.spaceId!, body),
  }),
  route({
    method: 'DELETE',
    path: binding,
    operationId: 'deleteSpaceGitBinding',
    summary: 'Unbind a space from its repository: both keep what they have (space admins)',
    tag: 'Space Git binding',
    status: 204,
    handler: (ctx, { params }) => deleteGitBinding(ctx, params.spaceId!),
  }),
  route({
    method: 'POST',
    path: `${binding}/sync`,
    operationId: 'syncSpaceGitBinding',
    summary: 'Sync a bound space with its branch now (queued: 204; see the binding for its state) (space admins)',
    tag: 'Space Git binding',
    status: 204,
    handler: (ctx, { params }) => syncGitBinding(ctx, params.spaceId!),
  }),
];
