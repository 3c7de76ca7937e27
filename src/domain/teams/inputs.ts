import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';

export const TEAM_MEMBER_ROLES = ['owner', 'member'] as const;
export const teamMemberRole = z.enum(TEAM_MEMBER_ROLES);
export type TeamMemberRole = z.infer<typeof teamMemberRole>;

const title = z.string().trim().min(1).max(64);
/** A user named by id or by email (team member updates accept both). */
const userKey = z.string().min(1).max(320);
const userKeys = z.array(userKey).max(1000);

export const ListTeamsQuery = z.object({
  ...pageParams,
  owner: z.string().min(1).max(100).optional(),
  title: z.string().max(64).optional(),
});

export const CreateTeamInput = z.strictObject({
  title,
  members: z.array(z.string().min(1).max(100)).max(1000).optional(),
});

export const UpdateTeamInput = z.strictObject({ title });

export const ListTeamMembersQuery = z.object({ ...pageParams });

export const UpdateTeamMembersInput = z.strictObject({
  add: userKeys.optional(),
  remove: userKeys.optional(),
  /** Roles to set, by user id or email (the users are added when not in the team yet). */
  memberships: z.record(userKey, z.strictObject({ role: teamMemberRole })).optional(),
});

export const PutTeamMemberInput = z.strictObject({ role: teamMemberRole.optional() });
