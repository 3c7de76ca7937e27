import type { TeamRecord } from '../../db/index.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { MemberJSON } from '../members/presenter.ts';

export type TeamJSON = Wire<Api.OrganizationTeam>;
export type TeamMemberJSON = Wire<Api.OrganizationTeamMember>;

export interface TeamPermissions {
  /** Manage the team: rename, delete, change its members. */
  admin: boolean;
  /** See the team and list its members. */
  view: boolean;
}

export function presentTeam(team: TeamRecord, counts: { members: number; spaces: number }, permissions: TeamPermissions): TeamJSON {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: counts.members,
    spaces: counts.spaces,
    createdAt: team.createdAt.toISOString(),
    permissions,
  };
}

export function presentTeamMember(member: MemberJSON, role: string, view: boolean): TeamMemberJSON {
  return { organization: member, team: { role: role as TeamMemberJSON['team']['role'] }, permissions: { view } };
}
