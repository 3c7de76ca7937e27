import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { role, roleOrNull } from '../shared/schemas.ts';

const ids = z.array(z.string().min(1).max(100)).min(1).max(1000);

/** Who to give a role on a piece of content: users and teams of its organization (the official `InviteUsersAndTeams`). */
export const InviteUsersAndTeamsInput = z
  .strictObject({ role: roleOrNull, users: ids.optional(), teams: ids.optional() })
  .refine((input) => input.users !== undefined || input.teams !== undefined, { message: 'is required unless teams are named', path: ['users'] });

/** A user's or team's role on a piece of content; null takes the grant away, none changes nothing. */
export const UpdateContentPermissionInput = z.strictObject({ role: roleOrNull.optional() });

export const ListContentPermissionsQuery = z.object({ ...pageParams });

export const ListPermissionsAggregateQuery = z.object({ ...pageParams, role: role.optional() });

/** The site aggregate's official filters: a level or the guests, a search, an order, one team's members. */
export const ListSitePermissionsAggregateQuery = z.object({
  ...pageParams,
  order: z.enum(['asc', 'desc']).default('desc'),
  role: z.union([role, z.literal('guest')]).optional(),
  search: z.string().min(1).max(256).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt', 'name']).default('joinedAt'),
  team: z.string().min(1).max(100).optional(),
});
export type ListSitePermissionsAggregateQuery = z.infer<typeof ListSitePermissionsAggregateQuery>;
