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
  description: 'A user account (REST `User`)',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "user"' }),
    displayName: t.exposeString('displayName', { description: 'The name shown for the user' }),
    email: t.exposeString('email', { nullable: true, description: 'Its email address (never null here)' }),
    photoURL: t.exposeString('photoURL', { nullable: true, description: 'Address of its profile picture; null when it has none' }),
    urls: t.expose('urls', { type: UserUrls, description: 'Its address in this REST API' }),
  }),
});

builder.queryField('user', (t) =>
  t.field({
    type: User,
    description: 'The user behind the token (`GET /v1/user`)',
    resolve: (_root, _args, ctx) => getAuthenticatedUser(ctx),
  }),
);
