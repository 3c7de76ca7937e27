import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { UserRecord } from '../../db/index.ts';

export type UserJSON = Wire<Api.User>;

export function presentUser(user: UserRecord, urls: PublicUrls): UserJSON {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: `${urls.api}/v1/users/${user.id}` },
  };
}
