import { type GitSyncStateJSON, exportToGitRepository, importGitRepository, spaceGitSyncState } from '../../domain/git/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { builder } from '../builder.ts';
import { restEnum } from './common.ts';
import { Space } from './space.ts';

/**
 * Git sync of a space (REST `/v1/spaces/{spaceId}/git/...`): its state, and the
 * mutations that queue an import or an export, through the same domain service.
 */

type Operation = GitSyncStateJSON['operation'];

const GitSyncProvider = restEnum<GitSyncStateJSON['installationProvider']>('GitSyncProvider', 'Who hosts the repository, as its address tells', {
  github: 'GitHub, or any Git server other than GitLab',
  gitlab: 'GitLab (a host whose name says gitlab)',
});
const GitSyncInstallationStatus = restEnum<GitSyncStateJSON['installationStatus']>(
  'GitSyncInstallationStatus',
  'Whether the sync can run (REST `installationStatus`)',
  { active: 'It can: this server keeps no installation that could lapse' },
);
const GitSyncOperationState = restEnum<Operation['state']>('GitSyncOperationState', 'Where the last import or export is (REST `operation.state`)', {
  running: 'Queued or running',
  success: 'It ended well',
  failure: 'It failed: `error` says why',
});
const GitSyncOperationDirection = restEnum<Operation['direction']>('GitSyncOperationDirection', 'Which way content went', {
  import: 'From the repository into the space',
  export: 'From the space to the repository',
});

const GitSyncOperation = builder.objectRef<Operation>('GitSyncOperation').implement({
  description: 'The last import or export of a space',
  fields: (t) => ({
    state: t.field({ type: GitSyncOperationState, description: 'running, success or failure', resolve: (operation) => operation.state }),
    direction: t.field({ type: GitSyncOperationDirection, description: 'import or export', resolve: (operation) => operation.direction }),
    startedAt: t.field({ type: 'DateTime', description: 'When it was queued', resolve: (operation) => operation.startedAt }),
    endedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it ended; null while it runs',
      resolve: (operation) => operation.endedAt ?? null,
    }),
    error: t.string({ nullable: true, description: 'Why it failed; null unless it did', resolve: (operation) => operation.error ?? null }),
  }),
});

const GitSyncState = builder.objectRef<GitSyncStateJSON>('GitSyncState').implement({
  description: 'The Git sync of a space: the repository it was last synced with and its last operation (REST `GET /v1/spaces/{spaceId}/git/info`)',
  fields: (t) => ({
    installationId: t.exposeString('installationId', { description: 'Id of the sync (`git_` and the space id)' }),
    installationProvider: t.field({ type: GitSyncProvider, description: 'github or gitlab', resolve: (state) => state.installationProvider }),
    installationStatus: t.field({ type: GitSyncInstallationStatus, description: 'Always active', resolve: (state) => state.installationStatus }),
    repoName: t.exposeString('repoName', { description: 'The repository path on its host, without .git' }),
    url: t.exposeString('url', { description: 'Address of the repository, without credentials' }),
    operation: t.expose('operation', { type: GitSyncOperation, description: 'The last import or export' }),
    updatedAt: t.field({ type: 'DateTime', description: 'When the state last changed', resolve: (state) => state.updatedAt }),
  }),
});

builder.objectField(Space, 'gitSync', (t) =>
  t.field({
    type: GitSyncState,
    nullable: true,
    description: 'Its Git sync: the repository and the last import or export; null when it was never synced (REST `.../git/info` answers 404)',
    resolve: (space, _args, ctx) => spaceGitSyncState(ctx, space.id),
  }),
);

/** Input fields of the official ImportGitRepository, shared by the export. */
const repositoryFields = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>) => ({
  spaceId: t.id({ required: true, description: 'The space' }),
  url: t.string({
    required: true,
    description: 'Address of the repository (http or https, up to 2048 characters); credentials may be given in it, and are never kept',
  }),
  ref: t.string({ required: true, description: 'The branch, as refs/heads/<name> or <name>' }),
  repoProjectDirectory: t.string({ description: 'The folder of the repository holding the content (up to 500 characters, no ".."); its root when absent' }),
  repoCacheID: t.string({ description: 'Accepted as REST accepts it (up to 255 characters); unused here' }),
  repoTreeURL: t.string({ description: 'Accepted as REST accepts it (up to 2048 characters); unused here' }),
  repoCommitURL: t.string({ description: 'Accepted as REST accepts it (up to 2048 characters); unused here' }),
  timestamp: t.field({ type: 'DateTime', description: 'When the change behind this sync happened: an older one is not run after a newer one' }),
  force: t.boolean({ description: 'Sync even when nothing seems to have changed' }),
  standalone: t.boolean({ description: 'Import as a standalone revision, leaving the space content as it is' }),
});

/** The input as the REST body: absent fields left out. */
const bodyOf = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([key, value]) => key !== 'spaceId' && value != null));

const gitSyncPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { spaceId: string }>) => ({
    space: t.field({ type: Space, description: 'The space', resolve: (payload, _args, ctx) => spaceRecord(ctx, payload.spaceId) }),
    gitSync: t.field({
      type: GitSyncState,
      description: 'Its Git sync now: the operation queued, running until its job ends',
      resolve: async (payload, _args, ctx) => (await spaceGitSyncState(ctx, payload.spaceId))!,
    }),
  }),
};

builder.relayMutationField(
  'importGitRepository',
  { inputFields: (t) => repositoryFields(t) },
  {
    description:
      "Queues an import of a branch in GitBook's layout into the space, replacing its content as one revision (REST `POST /v1/spaces/{spaceId}/git/import`; edit level on the space, which must not be deleted, nor locked unless standalone); follow it with gitSync or spaceEvents",
    resolve: async (_root, { input }, ctx) => {
      await importGitRepository(ctx, input.spaceId, bodyOf(input));
      return { spaceId: input.spaceId };
    },
  },
  gitSyncPayload,
);

builder.relayMutationField(
  'exportToGitRepository',
  {
    inputFields: (t) => ({
      ...repositoryFields(t),
      commitMessage: t.string({ required: true, description: 'Message of the commit made (1 to 10,000 characters)' }),
    }),
  },
  {
    description:
      "Queues an export of the space content to a branch as one commit in GitBook's layout (REST `POST /v1/spaces/{spaceId}/git/export`; edit level on the space, which must not be deleted); follow it with gitSync or spaceEvents",
    resolve: async (_root, { input }, ctx) => {
      await exportToGitRepository(ctx, input.spaceId, bodyOf(input));
      return { spaceId: input.spaceId };
    },
  },
  gitSyncPayload,
);
