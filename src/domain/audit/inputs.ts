import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { queryInt } from '../../lib/validation.ts';

const instant = z.iso.datetime({ offset: true, error: 'must be a date-time (ISO 8601, e.g. 2026-01-31T12:00:00Z)' }).transform((value) => new Date(value));

/** Query of the official `GET /v1/orgs/{organizationId}/audit-events`: up to 100 a page, 20 unless asked (GraphQL's first and last alike). */
export const ListAuditEventsQuery = z.object({
  ...pageParams,
  limit: queryInt(1, 100).default(20),
  first: queryInt(0, 100).optional(),
  last: queryInt(0, 100).optional(),
  from: instant.optional(),
  to: instant.optional(),
  action: z.string().min(1).max(100).optional(),
  actor: z.string().min(1).max(100).optional(),
  target: z.string().min(1).max(100).optional(),
});
