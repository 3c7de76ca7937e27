import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { queryBool } from '../../lib/validation.ts';
import { emoji } from '../shared/schemas.ts';

/** Query of every content read: `metadata=false` leaves out git metadata; `computed` is accepted (nothing is computed). */
export const ContentQuery = z.object({ metadata: queryBool().optional(), computed: queryBool().optional() });

export const DOCUMENT_FORMATS = ['document', 'markdown'] as const;
export const PageQuery = ContentQuery.extend({ format: z.enum(DOCUMENT_FORMATS).optional() });

export const ListFilesQuery = ContentQuery.extend({ ...pageParams });

/** A slug: lowercase letters, digits and dashes, as paths are built from them. */
const slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single dashes');

/** A page body: markdown, or nothing (an empty page). */
const document = z.union([z.strictObject({ markdown: z.string().max(1_000_000) }), z.strictObject({})], {
  error: 'must be {"markdown": "…"} or {} (structured documents are not accepted as input)',
});

/** Page metadata an insert or update may set (official RevisionPageUpdate). */
const pageFields = {
  title: z.string().min(1).max(255).optional(),
  slug: slug.optional(),
  emoji: z.union([emoji, z.literal('')]).optional(),
  icon: z.string().max(50).optional(),
  description: z.string().max(1000).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z.string().max(1000).optional(),
};

const pageId = z.string().min(1).max(100);

export const ContentChange = z.discriminatedUnion(
  'operation',
  [
    z.strictObject({
      operation: z.literal('insert_page'),
      ...pageFields,
      document,
      into: pageId.optional(),
      at: z.number().int().min(0).optional(),
      ref: z.string().min(1).max(100).optional(),
    }),
    z.strictObject({
      operation: z.literal('update_page'),
      page: pageId,
      ...pageFields,
      document: document.optional(),
      into: pageId.nullable().optional(),
      at: z.number().int().min(0).optional(),
    }),
    z.strictObject({ operation: z.literal('delete_page'), page: pageId }),
    z.strictObject({ operation: z.literal('revert_page'), page: pageId, revision: z.string().min(1).max(100).optional() }),
  ],
  { error: 'must be an object whose operation is insert_page, update_page, delete_page or revert_page' },
);
export type ContentChange = z.infer<typeof ContentChange>;

/** Body of the official `POST …/change-requests/{changeRequestId}/content`. */
export const UpdateContentInput = z.strictObject({ changes: z.array(ContentChange).min(1).max(50) });
export const UpdateContentQuery = z.object({ compat: queryBool().optional() });
