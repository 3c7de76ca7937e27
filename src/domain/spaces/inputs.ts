import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { LANGUAGES } from '../shared/languages.ts';
import { emoji, roleOrNull, spaceMergeRules, url } from '../shared/schemas.ts';

export const SPACE_EDIT_MODES = ['live', 'locked'] as const;

/** A space's title: shown wherever the space is listed, so never empty or blank. */
export const spaceTitle = z.string().min(1).max(50).regex(/\S/, 'must not be blank');

export const GetSpaceQuery = z.object({ shareKey: z.string().min(1).max(256).optional() });
export const ListSpacesQuery = z.object({ ...pageParams });

/** Body of the official `POST /v1/orgs/{organizationId}/spaces`. */
export const CreateSpaceInput = z.strictObject({
  title: spaceTitle.optional(),
  emoji: emoji.optional(),
  parent: z.string().min(1).optional(),
  language: z.enum(LANGUAGES).optional(),
  editMode: z.enum(SPACE_EDIT_MODES).optional(),
  /** Start with no content (the default: templates are not offered). */
  empty: z.literal(true).optional(),
});

export const UpdateSpaceInput = z
  .strictObject({
    title: spaceTitle.optional(),
    emoji: emoji.nullable().optional(),
    icon: url.nullable().optional(),
    editMode: z.enum(SPACE_EDIT_MODES).optional(),
    defaultLevel: roleOrNull.optional(),
    language: z.enum(LANGUAGES).optional(),
    mergeRules: spaceMergeRules.optional(),
  })
  .refine((body) => !(body.emoji && body.icon), { message: 'set either emoji or icon, not both', path: ['icon'] })
  .meta({ description: '`emoji` and `icon` are one or the other: set one of them (and null, or leave out, the other)' });

/** `PATCH /v1/spaces/{spaceId}/custom-fields`: values by custom field name; a null value clears it. */
/** Values one request may set: every statement's parameters stay within SQLite's bound. */
export const MAX_CUSTOM_FIELD_VALUES = 100;

export const UpdateSpaceCustomFieldsInput = z.strictObject({
  values: z
    .record(
      z.string().min(1).max(50),
      z.strictObject({
        value: z.union([z.string().max(256), z.number(), z.boolean(), z.array(z.string().max(256)).max(50), z.null()]),
      }),
    )
    .refine((values) => Object.keys(values).length <= MAX_CUSTOM_FIELD_VALUES, `must hold at most ${MAX_CUSTOM_FIELD_VALUES} fields`)
    .meta({ maxProperties: MAX_CUSTOM_FIELD_VALUES }),
});
