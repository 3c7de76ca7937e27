import { ROLES } from '../../domain/access.ts';
import { builder } from '../builder.ts';

/** Shapes shared by several types. Field names and values are those of the REST objects. */

export const MemberRole = builder.enumType('MemberRole', {
  description: 'Role levels, from most to least powerful',
  values: ROLES,
});

export const OrderDirection = builder.enumType('OrderDirection', { values: ['asc', 'desc'] as const });

/** An object type of booleans, such as `permissions`. */
export function booleanObject<Keys extends string>(name: string, keys: readonly Keys[], description?: string) {
  return builder.objectRef<Record<Keys, boolean>>(name).implement({
    ...(description ? { description } : {}),
    fields: (t) => Object.fromEntries(keys.map((key) => [key, t.exposeBoolean(key as never, {})])) as never,
  });
}

/** An object type of optional strings, such as `urls`. */
export function urlsObject<Required extends string, Optional extends string>(name: string, required: readonly Required[], optional: readonly Optional[] = []) {
  return builder.objectRef<Record<Required, string> & Partial<Record<Optional, string>>>(name).implement({
    fields: (t) =>
      Object.fromEntries([
        ...required.map((key) => [key, t.exposeString(key as never, {})]),
        ...optional.map((key) => [key, t.exposeString(key as never, { nullable: true })]),
      ]) as never,
  });
}

export const ContentPointerInput = builder.inputType('ContentPointerInput', {
  description: 'A sibling to place content next to: `{type: "space", space}` or `{type: "collection", collection}`',
  fields: (t) => ({
    type: t.string({ required: true }),
    space: t.id(),
    collection: t.id(),
  }),
});

export const ContentPositionInput = builder.inputType('ContentPositionInput', {
  fields: (t) => ({
    before: t.field({ type: ContentPointerInput }),
    after: t.field({ type: ContentPointerInput }),
  }),
});
