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

/** The longest page body, in characters of markdown: also of a structured document once turned into markdown. */
export const MAX_BODY_CHARACTERS = 1_000_000;

/** A page body: markdown, a structured document (as `format=document` reads it), or nothing (an empty page). */
const document = z.union(
  [z.strictObject({ markdown: z.string().max(MAX_BODY_CHARACTERS) }), z.strictObject({ document: z.record(z.string(), z.unknown()) }), z.strictObject({})],
  { error: 'must be {"markdown": "…"}, {"document": {"object": "document", "nodes": […]}} or {}' },
);

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

/** Largest file an `insert_files` change takes inline. */
export const MAX_FILE_BYTES = 1024 * 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const FILE_NAME = /^[^/\\\u0000-\u001f]+$/;

/** One file of `insert_files`: inline bytes (base64) with their type, or a public URL to fetch them from. */
const fileUpload = z
  .strictObject({
    ref: z.string().min(1).max(100).optional(),
    name: z.string().min(1).max(256).regex(FILE_NAME, 'must not contain slashes or control characters'),
    contentType: z
      .string()
      .min(3)
      .max(255)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as image/png')
      .optional(),
    base64: z
      .string()
      .max(Math.ceil(MAX_FILE_BYTES / 3) * 4)
      .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64 of at most 1 MB')
      .optional(),
    url: z.url().max(2048).optional(),
  })
  .superRefine((file, context) => {
    if (file.url !== undefined && file.base64 !== undefined) {
      context.addIssue({ code: 'custom', path: ['url'], message: 'set either url or base64, not both' });
    } else if (file.url !== undefined) {
      return;
    } else if (file.base64 === undefined) {
      context.addIssue({ code: 'custom', path: ['base64'], message: 'is required (the file bytes, base64), or a url to fetch them from' });
    } else if (file.contentType === undefined) {
      context.addIssue({ code: 'custom', path: ['contentType'], message: 'is required with base64' });
    }
  });

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
    z.strictObject({ operation: z.literal('insert_files'), files: z.array(fileUpload).min(1).max(20) }),
  ],
  { error: 'must be an object whose operation is insert_page, update_page, delete_page, revert_page or insert_files' },
);
export type ContentChange = z.infer<typeof ContentChange>;

/** Body of the official `POST …/change-requests/{changeRequestId}/content`. */
export const UpdateContentInput = z.strictObject({ changes: z.array(ContentChange).min(1).max(50) });
export const UpdateContentQuery = z.object({ compat: queryBool().optional() });
