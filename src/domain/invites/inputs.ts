import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { roleOrNull } from '../shared/schemas.ts';

export const INVITE_EMAILS_MAX = 100;

const email = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email({ error: 'must be an email address' }))
  .transform((value) => value.toLowerCase())
  .meta({ format: 'email' });

export const ListInvitesQuery = z.object({ ...pageParams });

/** A link invite: `role` given to whoever joins with it (null: guest). */
export const CreateInviteInput = z.strictObject({ role: roleOrNull });

export const UpdateInviteInput = z.strictObject({ role: roleOrNull });

/**
 * Email invites: one per address (an address may carry its own role), the
 * others get `role` (the organization's default role when it is absent).
 */
export const InviteUsersInput = z.strictObject({
  emails: z
    .array(z.union([email, z.strictObject({ email, role: roleOrNull })]))
    .min(1)
    .max(INVITE_EMAILS_MAX),
  role: roleOrNull.optional(),
  sso: z.boolean().optional(),
});
export type InviteUsersInput = z.infer<typeof InviteUsersInput>;
