import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { role, roleOrNull } from '../shared/schemas.ts';

export const ListMembersQuery = z.object({
  ...pageParams,
  order: z.enum(['asc', 'desc']).default('desc'),
  role: z.union([role, z.literal('guest')]).optional(),
  search: z.string().min(1).max(256).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt', 'name']).default('joinedAt'),
});
export type ListMembersQuery = z.infer<typeof ListMembersQuery>;

export const UpdateMemberInput = z.strictObject({ role: roleOrNull });

export const ListMemberSpacesQuery = z.object({ ...pageParams, order: z.enum(['asc', 'desc']).default('desc') });

export const ListMemberTeamsQuery = z.object({ ...pageParams, title: z.string().max(64).optional() });
