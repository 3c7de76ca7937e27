import { listViewerOrganizationRecords } from '../../domain/organizations/service.ts';
import { getAuthenticatedUser } from '../../domain/users/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { Organization } from './organization.ts';
import { User } from './user.ts';

/** The caller: its user and the organizations it belongs to (`GET /v1/user`, `GET /v1/orgs`). */
const Viewer = builder.objectRef<{ kind: 'viewer' }>('Viewer').implement({
  description: 'The caller: its user and the organizations it belongs to',
  fields: (t) => ({
    user: t.field({ type: User, description: 'The user behind the token (`GET /v1/user`)', resolve: (_viewer, _args, ctx) => getAuthenticatedUser(ctx) }),
    organizations: t.connection({
      type: Organization,
      description: 'The organizations it is a member of (not disabled there), oldest first (`GET /v1/orgs`)',
      resolve: async (_viewer, args, ctx) => toConnection(await listViewerOrganizationRecords(ctx, connectionQuery(args))),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({ type: Viewer, description: 'The caller: its user and its organizations', resolve: () => ({ kind: 'viewer' as const }) }),
);
