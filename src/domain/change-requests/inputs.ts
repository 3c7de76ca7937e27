import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';

/** Every status a change request can have (official ChangeRequestStatus); `merged` only by merging. */
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

export const changeRequestSubject = z.string().max(100);

export const ListChangeRequestsQuery = z.object({
  ...pageParams,
  status: z.enum(CHANGE_REQUEST_STATUSES).default('open'),
  contributor: z.string().min(1).max(100).optional(),
  creator: z.string().min(1).max(100).optional(),
});

/** Body of the official `POST /v1/spaces/{spaceId}/change-requests` (templates are not offered). */
export const CreateChangeRequestInput = z.strictObject({ subject: changeRequestSubject.optional() });

/** Body of the official `PATCH …/change-requests/{changeRequestId}`. */
export const UpdateChangeRequestInput = z.strictObject({
  subject: changeRequestSubject.optional(),
  status: z.enum(['draft', 'open', 'archived'], { error: 'must be draft, open or archived (merging sets merged)' }).optional(),
});
