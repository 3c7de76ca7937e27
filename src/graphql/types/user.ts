import type { UserJSON } from '../../domain/users/presenter.ts';
import { getAuthenticatedUser, getUser } from '../../domain/users/service.ts';
import { builder } from '../builder.ts';
import { loadEach } from '../connection.ts';
import { urlsObject } from './common.ts';

const UserUrls = urlsObject('UserUrls', ['location']);

export const User = builder.loadableNodeRef<UserJSON, string>('User', {
  id: { resolve: (user) => user.id },
  load: (ids, ctx) => loadEach(ids, (id) => getUser(ctx, id)),
});

User.implement({
  fields: (t) => ({
    object: t.exposeString('object'),
    displayName: t.exposeString('displayName'),
    email: t.exposeString('email', { nullable: true }),
    photoURL: t.exposeString('photoURL', { nullable: true }),
    urls: t.field({ type: UserUrls, resolve: (user) => user.urls }),
  }),
});

builder.queryField('user', (t) =>
  t.field({
    type: User,
    description: 'The user behind the token (`GET /v1/user`)',
    resolve: (_root, _args, ctx) => getAuthenticatedUser(ctx),
  }),
);
