import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { documentedAs } from '../../lib/openapi-components.ts';
import { queryBool } from '../../lib/validation.ts';
import { emoji } from '../shared/schemas.ts';
import { JSONDocument } from './document-schema.ts';

/** Query of every content read: `metadata=false` leaves out git metadata; `computed` is accepted (nothing is computed). */
export const ContentQuery = z.object({ metadata: queryBool().optional(), computed: queryBool().optional() });

export const DOCUMENT_FORMATS = ['document', 'markdown'] as const;

/** A query-string value that is a boolean or one word: "true"/"false" over REST, true/false over GraphQL. */
const booleanOr = <Word extends string>(word: Word) =>
  z.preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.union([z.boolean(), z.literal(word)], { error: `must be true, false or ${word}` }),
  );

/**
 * How a page's structured document is read (the official `evaluated` and
 * `dereferenced` of the document reads; src/domain/content/page-document.ts
 * says what each does here).
 */
export const DocumentReadQuery = z.object({
  evaluated: booleanOr('deterministic-only')
    .optional()
    .describe(
      'Whether the document is evaluated (true, or deterministic-only: the same here): each heading gets `meta.id`, its anchor (its `data.id`, else a slug of its text, unique in the page). The documents of this server hold no expressions or variables, so nothing else depends on evaluation. Default false: the document as stored',
    ),
  dereferenced: booleanOr('reusable-contents')
    .optional()
    .describe(
      'Whether references are expanded in place (true, or reusable-contents). The official format expands reusable-content blocks; this server keeps no reusable content, so no document holds one. Page and file references stay references (`ref`), to the pages and files of the same revision',
    ),
});
export type DocumentReading = z.output<typeof DocumentReadQuery>;

export const PageQuery = ContentQuery.extend({ format: z.enum(DOCUMENT_FORMATS).optional(), ...DocumentReadQuery.shape });

export const ListFilesQuery = ContentQuery.extend({ ...pageParams });

/** A slug: lowercase letters, digits and dashes, as paths are built from them. */
const slug = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single dashes');

/** The longest page body, in characters of markdown: also of a structured document once turned into markdown. */
export const MAX_BODY_CHARACTERS = 1_000_000;

/**
 * A structured document given as a body: any object to zod, checked node by node as it becomes
 * Markdown (./document-input.ts), whose errors name the node; documented as the JSONDocument it must be.
 */
const structuredDocument = documentedAs(z.record(z.string(), z.unknown()), JSONDocument);

/** A page body: markdown, a structured document (as `format=document` reads it), or nothing (an empty page). */
const document = z.union(
  [z.strictObject({ markdown: z.string().max(MAX_BODY_CHARACTERS) }), z.strictObject({ document: structuredDocument }), z.strictObject({})],
  { error: 'must be {"markdown": "…"}, {"document": {"object": "document", "nodes": […]}} or {}' },
);

/** The layout options of a page (official RevisionPageLayoutOptions); those left out keep their defaults. */
export const PageLayout = z.strictObject({
  width: z.enum(['default', 'wide']).optional(),
  cover: z.boolean().optional(),
  coverSize: z.enum(['hero', 'full', 'background']).optional(),
  coverMask: z.enum(['none', 'radial']).optional(),
  title: z.boolean().optional(),
  description: z.boolean().optional(),
  tableOfContents: z.boolean().optional(),
  outline: z.boolean().optional(),
  pagination: z.boolean().optional(),
  metadata: z.boolean().optional(),
  tags: z.boolean().optional(),
  actions: z.boolean().optional(),
  anchors: z.boolean().optional(),
});
export type PageLayout = z.output<typeof PageLayout>;

/**
 * Where a cover image is, as written: an http(s) address, or a path to a file of
 * the content (`/files/<file id>`, or relative to the page's file as in a Git
 * repository: `../.gitbook/assets/cover.png`), resolved to a file when the
 * content has it.
 */
export const coverAddress = z
  .string()
  .min(1)
  .max(2048)
  .refine((address) => /^https?:\/\//i.test(address) || !/^[a-z][a-z0-9+.-]*:/i.test(address), 'must be an http(s) address or a path to a file of the content');

/** A cover image: a file of the content or an address (official ContentRefFile or ContentRefURL). */
const coverRef = z.discriminatedUnion(
  'kind',
  [z.strictObject({ kind: z.literal('file'), file: z.string().min(1).max(100) }), z.strictObject({ kind: z.literal('url'), url: coverAddress })],
  { error: 'must be {"kind": "file", "file": "<file id>"} or {"kind": "url", "url": "…"}' },
);

/** A page's cover (official RevisionPageDocumentCover, without text colors): its image, a dark-mode one, where it is cropped, its height. */
export const PageCover = z.strictObject({
  ref: coverRef.optional(),
  refDark: coverRef.optional(),
  yPos: z.number().finite().optional(),
  height: z.number().min(10).max(700).optional(),
});
export type PageCover = z.output<typeof PageCover>;

/** The most variables a page holds. */
export const MAX_PAGE_VARIABLES = 100;

/** The name of a page variable. */
export const variableName = z
  .string()
  .max(100)
  .regex(/^[A-Za-z_][\w-]*$/, 'variable names are letters, digits, "_" and "-", starting with a letter or "_"');
/** The value of a page variable (official VariableValue). */
export const variableValue = z.union([z.string().max(256), z.number().finite(), z.boolean()], {
  error: 'must be a string of up to 256 characters, a number or a boolean',
});

/** Page variables, by name (official Variables): strings of up to 256 characters, numbers and booleans. */
export const PageVariables = z
  .record(variableName, variableValue)
  .refine((variables) => Object.keys(variables).length <= MAX_PAGE_VARIABLES, `at most ${MAX_PAGE_VARIABLES} variables`);
export type PageVariables = z.output<typeof PageVariables>;

/**
 * Page metadata an insert or update may set (official RevisionPageUpdate, and
 * the official page's `layout`, `cover` and `variables`: each replaces the
 * page's own; `{}` or null resets it). Front matter sets the same fields with
 * the same rules (front-matter.ts).
 */
export const pageFields = {
  title: z.string().min(1).max(255).optional(),
  slug: slug.optional(),
  emoji: z.union([emoji, z.literal('')]).optional(),
  icon: z.string().max(50).optional(),
  description: z.string().max(1000).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z.string().max(1000).optional(),
  layout: PageLayout.optional(),
  cover: PageCover.nullable().optional(),
  variables: PageVariables.optional(),
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
export const UpdateContentQuery = z.object({
  compat: queryBool()
    .optional()
    .meta({
      description:
        'What the answer holds. `true` (the default, as the official API answers): the change request after the batch (`ChangeRequest`). ' +
        '`false`: `{changeRequest, changes, insertedFiles}` (`ChangeRequestContentUpdate`): the change request, what each change did to which page ' +
        '(`created_page` with the `ref` the change gave it, `updated_page`, `deleted_page`) and the files `insert_files` added, ' +
        'so that new pages and files can be named without reading the content again',
    }),
});
