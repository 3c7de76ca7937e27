import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { roleOrNull, standaloneMergeRules, url } from '../shared/schemas.ts';

export const emailDomain = z
  .string()
  .max(253)
  .transform((value) => value.toLowerCase())
  .pipe(z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name'));

export const ListOrganizationsQuery = z.object({ ...pageParams });

export const UpdateOrganizationInput = z.strictObject({
  title: z
    .string()
    .min(2)
    .max(255)
    .regex(/^\S.*\S$/s, 'must not start or end with whitespace')
    .optional(),
  emailDomains: z.array(emailDomain).max(100).optional(),
  hostname: z
    .string()
    .min(3)
    .max(32)
    .regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, 'must be lowercase letters, digits and dashes, not starting or ending with a dash')
    .optional(),
  defaultRole: roleOrNull.optional(),
  defaultContent: z
    .strictObject({ type: z.literal('site'), site: z.string().min(1) })
    .nullable()
    .optional(),
  logo: url.nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: standaloneMergeRules.optional(),
});
export type UpdateOrganizationInput = z.infer<typeof UpdateOrganizationInput>;
