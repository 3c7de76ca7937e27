import { type GitBindingJSON, deleteGitBinding, getGitBinding, putGitBinding, syncGitBinding, visibleGitBinding } from '../../domain/git/binding.ts';
import { builder } from '../builder.ts';
import { nullIsAValue } from '../null-inputs.ts';
import { Space } from './space.ts';

/**
 * A space bound to a Git repository (REST `/v1/spaces/{spaceId}/git/binding`; space admins):
 * `Space.gitBinding` and the mutations that bind, unbind and sync. The credentials go in and
 * never come out; the hook secret comes out once, in the payload of the binding that made it.
 */

const GitBindingSide = builder.enumType('GitBindingSide', {
  description: 'Which side wins the first sync of a binding',
  values: {
    space: { description: "The space's content is pushed to the branch" },
    repository: { description: "The branch's content becomes the space's" },
  },
});

const GitBindingState = builder.enumType('GitBindingState', {
  description: 'Where the sync of a bound space stands',
  values: {
    idle: { description: 'Bound, not synced yet' },
    running: { description: 'A sync is under way' },
    synced: { description: 'The last sync ended well: the space and the branch hold the same content' },
    failed: { description: 'The last sync failed (lastError says why)' },
    conflict: { description: 'A push conflicts with edits of the space: it waits in the change request conflictChangeRequestId' },
  },
});

const GitBinding = builder.objectRef<GitBindingJSON>('GitBinding').implement({
  description: "A space bound to a Git repository's branch: merges are pushed as commits, pushes become revisions",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the binding (its push webhook address ends with it)' }),
    url: t.exposeString('url', { description: 'The repository, without credentials' }),
    branch: t.exposeString('branch', { description: 'The branch synced' }),
    projectDirectory: t.exposeString('projectDirectory', { description: 'Where the content lives in the repository ("" for its root)' }),
    hasCredentials: t.exposeBoolean('hasCredentials', { description: 'Whether credentials are kept (they are never answered)' }),
    initialSync: t.field({
      type: GitBindingSide,
      description: 'Which side won the first sync',
      resolve: (binding) => binding.initialSync as 'space' | 'repository',
    }),
    hookUrl: t.exposeString('hookUrl', { description: 'Where the repository host sends push webhooks (GitHub, GitLab or Gitea signatures)' }),
    state: t.field({
      type: GitBindingState,
      description: 'Where its sync stands',
      resolve: (binding) => binding.status.state as 'idle' | 'running' | 'synced' | 'failed' | 'conflict',
    }),
    lastCommit: t.string({
      nullable: true,
      description: 'The commit the space and the branch were last the same at',
      resolve: (binding) => binding.status.lastCommit ?? null,
    }),
    lastSyncAt: t.string({ nullable: true, description: 'When the last sync ended (ISO 8601)', resolve: (binding) => binding.status.lastSyncAt ?? null }),
    lastError: t.string({
      nullable: true,
      description: 'Why the last sync failed (never the credentials)',
      resolve: (binding) => binding.status.lastError ?? null,
    }),
    conflictChangeRequestId: t.id({
      nullable: true,
      description: 'The change request a conflicting push waits in, while the state is conflict',
      resolve: (binding) => binding.status.conflictChangeRequestId ?? null,
    }),
    createdAt: t.exposeString('createdAt', { description: 'When it was made (ISO 8601)' }),
    updatedAt: t.exposeString('updatedAt', { description: 'When it last changed (ISO 8601)' }),
  }),
});

builder.objectField(Space, 'gitBinding', (t) =>
  t.field({
    type: GitBinding,
    nullable: true,
    description: 'The Git repository the space is bound to; null when it has none, or for whoever is not its admin',
    resolve: (space, _args, ctx) => visibleGitBinding(ctx, space.id),
  }),
);

const GitCredentialsInput = builder.inputType('GitCredentialsInput', {
  description: 'Credentials for a repository over HTTP(S): kept encrypted, never answered',
  fields: (t) => ({
    username: t.string({ required: true, description: 'The user name (for a token, what its host expects, e.g. x-access-token or oauth2)' }),
    password: t.string({ required: true, description: 'The password or access token' }),
  }),
});

builder.relayMutationField(
  'bindSpaceToGitRepository',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      url: t.string({ required: true, description: 'The repository (http or https), without credentials' }),
      branch: t.string({ description: 'The branch (default main)' }),
      projectDirectory: t.string({ description: 'Where the content lives in the repository (default its root)' }),
      credentials: t.field({ type: GitCredentialsInput, description: 'Left out: kept as they are; null removes them', ...nullIsAValue }),
      initialSync: t.field({ type: GitBindingSide, description: 'Which side wins the first sync (default repository)' }),
    }),
  },
  {
    description:
      "Binds a space to a repository's branch, or changes its binding, and syncs it (space admins); a new binding's payload holds its hook secret, this once",
    resolve: async (_root, { input: { spaceId, credentials, ...fields } }, ctx) => {
      const body = {
        ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)),
        ...(credentials !== undefined ? { credentials } : {}),
      };
      const binding = await putGitBinding(ctx, spaceId, body);
      return { binding, hookSecret: binding.hookSecret ?? null };
    },
  },
  {
    outputFields: (t) => ({
      gitBinding: t.field({ type: GitBinding, description: 'The binding', resolve: (payload) => payload.binding }),
      hookSecret: t.string({
        nullable: true,
        description: 'The push webhook secret: only when the binding was made by this mutation',
        resolve: (payload) => payload.hookSecret,
      }),
    }),
  },
);

builder.relayMutationField(
  'unbindSpaceFromGitRepository',
  { inputFields: (t) => ({ spaceId: t.id({ required: true, description: 'The space' }) }) },
  {
    description: 'Unbinds a space from its repository: both keep what they have (space admins)',
    resolve: async (_root, { input: { spaceId } }, ctx) => {
      await deleteGitBinding(ctx, spaceId);
      return { spaceId };
    },
  },
  { outputFields: (t) => ({ spaceId: t.exposeID('spaceId', { description: 'The space unbound' }) }) },
);

builder.relayMutationField(
  'syncSpaceGitBinding',
  { inputFields: (t) => ({ spaceId: t.id({ required: true, description: 'The space' }) }) },
  {
    description: 'Syncs a bound space with its branch now (queued; the binding says how it ends) (space admins)',
    resolve: async (_root, { input: { spaceId } }, ctx) => {
      await syncGitBinding(ctx, spaceId);
      return { binding: await getGitBinding(ctx, spaceId) };
    },
  },
  { outputFields: (t) => ({ gitBinding: t.field({ type: GitBinding, description: 'The binding', resolve: (payload) => payload.binding }) }) },
);
