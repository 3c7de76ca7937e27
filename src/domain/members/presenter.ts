import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { MemberRecord, UserRecord } from '../../db/index.ts';
import { asRole } from '../access.ts';
import { presentUser } from '../users/presenter.ts';

export type MemberWithUser = MemberRecord & { user: UserRecord };
export type MemberJSON = Wire<Api.OrganizationMember>;

export interface MemberCounts {
  spaces: number;
  teams: number;
  sites: number;
}

export function presentMember(member: MemberWithUser, counts: MemberCounts, urls: PublicUrls): MemberJSON {
  return {
    object: 'member',
    id: member.userId,
    role: asRole(member.role),
    user: presentUser(member.user, urls),
    disabled: member.disabled,
    joinedAt: member.joinedAt.toISOString(),
    ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    sso: member.sso,
    ...counts,
  };
}
