import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { distinct, queryBool } from '../../lib/validation.ts';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
/** Values of `spaces` in the create-site body that create a new space for the site (official API). */
export const NEW_SPACE_VALUES = ['empty', 'sample'] as const;

export const siteTitle = z.string().min(2).max(128);
const hostname = z
  .string()
  .max(512)
  .regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/,
    'must be a lowercase hostname with at least three labels, e.g. docs.example.com',
  );
const proxyOrigin = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host and path such as example.com/docs');
/**
 * A path on the site: URL-safe segments. A "." or ".." segment is refused: the
 * site's addresses (its `llms.txt` links among them) would resolve outside it.
 */
export const sitePath = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/, 'must be URL path segments of letters, digits, ".", "_", "~" or "-"')
  .regex(/^(?!\.\.?(?:\/|$))(?:[^/]+\/(?!\.\.?(?:\/|$)))*[^/]*$/, 'must not have a "." or ".." segment');
const condition = z.string().min(1).max(1024);
const icon = z.string().max(50);
const id = z.string().min(1).max(100);

export const ListSitesQuery = z.object({
  ...pageParams,
  space: id.optional(),
  title: z.string().min(1).max(128).optional(),
  published: queryBool().optional(),
});

export const CreateSiteInput = z.strictObject({
  type: z.enum(SITE_TYPES).optional(),
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  spaces: z.union([z.array(id).max(100), z.enum(NEW_SPACE_VALUES)]).optional(),
});

export const UpdateSiteInput = z.strictObject({
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  hostname: hostname.nullable().optional(),
  basename: z.string().min(1).max(100).nullable().optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  defaultSiteSpace: id.optional(),
  defaultSiteSection: id.optional(),
  proxy: proxyOrigin.nullable().optional(),
});

export const PublishedSiteQuery = z.object({
  shareKey: z.string().min(1).max(256).optional(),
  visitorToken: z.string().min(1).max(8192).optional(),
});

/** A listing of site structure: REST sends `shareKey` too, which members do not need. */
export const ListStructureQuery = z.object({ ...pageParams, shareKey: z.string().min(1).max(256).optional() });
export const ListSiteSpacesQuery = ListStructureQuery.extend({ default: queryBool().optional() });

export const CreateSectionInput = z.strictObject({ spaceId: id, title: z.string().min(2).max(64).optional() });

export const UpdateSectionInput = z.strictObject({
  title: z.string().min(2).max(128).optional(),
  path: sitePath.optional(),
  defaultSiteSpace: id.optional(),
  condition: condition.nullable().optional(),
  icon: icon.nullable().optional(),
  description: z.string().max(256).nullable().optional(),
});

const pointer = <T extends string, K extends string>(type: T, key: K) =>
  z.strictObject({ type: z.literal(type), [key]: id } as { type: z.ZodLiteral<T> } & Record<K, typeof id>);

export const MoveSectionInput = z.strictObject({
  position: z.strictObject({ before: pointer('site-section', 'siteSection').optional(), after: pointer('site-section', 'siteSection').optional() }).optional(),
});

/** Section groups sit among the top-level sections: their pointers name a section or a group by `id`. */
const topLevelPointer = z.strictObject({ type: z.enum(['site-section', 'site-section-group']), id });
export const MoveSectionGroupInput = z.strictObject({
  position: z.strictObject({ before: topLevelPointer.optional(), after: topLevelPointer.optional() }).optional(),
});

export const MoveSiteSpaceInput = z.strictObject({
  position: z.strictObject({ before: pointer('site-space', 'siteSpace').optional(), after: pointer('site-space', 'siteSpace').optional() }).optional(),
});

/** The official body of duplicateSiteSpace. */
export const DuplicateSiteSpaceInput = z.strictObject({ draft: z.boolean().optional() });

export const CreateSectionGroupInput = z.strictObject({
  title: z.string().min(1).max(100),
  icon: icon.nullable().optional(),
  sections: distinct(z.array(id).max(100), 'must not repeat a section').optional(),
});

export const UpdateSectionGroupInput = z.strictObject({
  title: z.string().min(1).max(100).optional(),
  icon: icon.nullable().optional(),
});

export const AddSectionToGroupInput = z.strictObject({ sectionId: id });

export const CreateSiteSpaceInput = z.strictObject({ spaceId: id, sectionId: id.optional() });

export const UpdateSiteSpaceInput = z.strictObject({
  path: sitePath.optional(),
  condition: condition.nullable().optional(),
});

export const CreateShareLinkInput = z.strictObject({ name: z.string().max(50) });
export const UpdateShareLinkInput = z
  .strictObject({ name: z.string().max(50).optional(), active: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.active !== undefined, { message: 'set name, active or both', path: ['name'] })
  .meta({ minProperties: 1 });
export const ListShareLinksQuery = z.object({ ...pageParams });

/**
 * The adaptive schema: a draft-07 JSON Schema of an object whose properties are
 * the visitor attributes (claims). Checked by ajv against the draft-07
 * meta-schema too; this describes the shape the official API accepts.
 */
const claimPrimitive = z.union([
  z.strictObject({ type: z.literal('boolean'), description: z.string().max(512) }),
  z.strictObject({ type: z.literal('string'), description: z.string().max(512), enum: z.array(z.string()).max(100).optional() }),
  z.strictObject({ type: z.literal('number'), description: z.string().max(512) }),
]);
type Claim =
  | z.infer<typeof claimPrimitive>
  | { type: 'array'; description: string; items: z.infer<typeof claimPrimitive> }
  | {
      type: 'object';
      description: string;
      properties: Record<string, Claim>;
      additionalProperties: false;
    };
const claimName = z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'must be a valid attribute name');
const claim: z.ZodType<Claim> = z.lazy(() =>
  z.union([
    claimPrimitive,
    z.strictObject({ type: z.literal('array'), description: z.string().max(512), items: claimPrimitive }),
    z.strictObject({
      type: z.literal('object'),
      description: z.string().max(512),
      properties: z.record(claimName, claim),
      additionalProperties: z.literal(false),
    }),
  ]),
);

export const adaptiveJsonSchema = z.strictObject({
  $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
  $id: z.string().max(2048).optional(),
  type: z.literal('object'),
  properties: z.record(claimName, claim),
  additionalProperties: z.literal(false),
});

export const UpdateAdaptiveSchemaInput = z.strictObject({ jsonSchema: z.record(z.string(), z.unknown()) });

/** An absolute http(s) address a visitor is sent to. */
const visitorUrl = z
  .string()
  .max(2048)
  .url()
  .regex(/^https?:\/\//i, 'must be an http or https URL');

/** The official SitePublishingAuthUpdate. */
export const UpdatePublishingAuthInput = z.strictObject({
  backend: z.enum(['custom', 'integration']),
  integration: z.string().min(1).max(100).optional(),
  fallbackURL: visitorUrl.nullable().optional(),
  logoutURL: visitorUrl.nullable().optional(),
});
