import { ROLES } from '../../domain/access.ts';
import { LANGUAGE_NAMES } from '../../domain/shared/languages.ts';
import { builder } from '../builder.ts';

/** Shapes shared by several types. Field names and values are those of the REST objects. */

const ROLE_DESCRIPTIONS: Record<(typeof ROLES)[number], string> = {
  admin: 'Everything, including members, settings and deletion',
  create: 'Create collections and spaces, and everything below',
  review: 'Review and merge change requests, and everything below',
  edit: 'Edit content, and everything below',
  comment: 'Comment on content, and read it',
  read: 'Read content',
};

export const MemberRole = builder.enumType('MemberRole', {
  description: 'Role levels, from most to least powerful; each includes the ones below it',
  values: Object.fromEntries(ROLES.map((role) => [role, { description: ROLE_DESCRIPTIONS[role] }])) as Record<(typeof ROLES)[number], { description: string }>,
});

/**
 * A GraphQL enum over a REST enum: each value described, its REST spelling kept
 * as the internal value. GraphQL names cannot hold dashes, so `share-link` is
 * `share_link` in the graph and `share-link` in every resolver and service.
 */
export function restEnum<const Value extends string>(name: string, description: string, values: Record<Value, string>) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      Object.entries<string>(values).map(([value, valueDescription]) => [value.replaceAll('-', '_'), { value, description: valueDescription }]),
    ) as Record<string, { value: Value; description: string }>,
  });
}

export const Language = restEnum('Language', 'The language of a space or a translation (REST language codes; `pt-br` is `pt_br` here)', LANGUAGE_NAMES);

export const OrderDirection = builder.enumType('OrderDirection', {
  description: 'The order of a listing',
  values: { asc: { description: 'Oldest (or first) first' }, desc: { description: 'Newest (or last) first' } },
});

/** What each permission boolean says, whichever object carries it (the object says what it applies to). */
const PERMISSIONS: Record<string, string> = {
  view: 'Whether the caller may see it',
  access: 'Whether the caller may reach its content',
  edit: 'Whether the caller may change it',
  admin: 'Whether the caller may administer it: settings, access, deletion',
  create: 'Whether the caller may create content in it',
  createContent: 'Whether the caller may create collections and spaces in it',
  createOpenAPISpec: 'Whether the caller may add OpenAPI specs to it',
  comment: 'Whether the caller may comment on its content',
  reply: 'Whether the caller may reply to it, react to it and resolve it',
  delete: 'Whether the caller may delete it',
  merge: 'Whether the caller may merge change requests into it',
  review: 'Whether the caller may review its change requests',
  viewInviteLinks: 'Whether the caller may see its invite links',
  viewBilling: 'Whether the caller may see its billing (never: this server keeps no billing)',
  listMembers: 'Whether the caller may list its members',
  listTeams: 'Whether the caller may list its teams',
  ownTeam: 'Whether the caller may own a team in it',
  listIntegrations: 'Whether the caller may list integrations (never: this server has none)',
  listInstallations: 'Whether the caller may list integration installations (never: this server has none)',
  installIntegration: 'Whether the caller may install integrations (never: this server has none)',
  triggerGitSync: 'Whether the caller may import it from or export it to a Git repository (importGitRepository, exportToGitRepository)',
  viewAdaptiveSchema: "Whether the caller may read the site's adaptive schema",
  editAdaptiveSchema: "Whether the caller may change the site's adaptive schema",
};

/** What each address of `urls` leads to. */
const URLS: Record<string, string> = {
  location: 'Its address in this REST API',
  app: 'Its address in the web application (`APP_URL`; without it, this server redirects it to the REST resource)',
  preview: 'Where members preview the site, published or not',
  published: 'Where visitors read it, once published',
  llms: 'Its index for AI assistants (llms.txt: every page as Markdown, by section), once published; read with the visitor rules of the published site',
  mcp: 'Its Model Context Protocol server (Streamable HTTP: tools search, get_page and list_pages, pages as resources), once published; with the visitor rules of the published site',
  public: 'Its public address, when it is public',
  icon: 'Its icon image',
  logo: "The organization's logo image",
  deliveries: "A webhook's delivery log",
};

function described(table: Record<string, string>, type: string, key: string): string {
  const description = table[key];
  if (!description) throw new Error(`${type}.${key} has no description: add it in src/graphql/types/common.ts`);
  return description;
}

/** An object type of booleans, such as `permissions`. */
export function booleanObject<Keys extends string>(name: string, keys: readonly Keys[], description?: string) {
  return builder.objectRef<Record<Keys, boolean>>(name).implement({
    description: description ?? 'What the caller may do with it, as REST `permissions` says',
    fields: (t) => Object.fromEntries(keys.map((key) => [key, t.exposeBoolean(key as never, { description: described(PERMISSIONS, name, key) })])) as never,
  });
}

/** An object type of optional strings, such as `urls`. */
export function urlsObject<Required extends string, Optional extends string>(name: string, required: readonly Required[], optional: readonly Optional[] = []) {
  return builder.objectRef<Record<Required, string> & Partial<Record<Optional, string>>>(name).implement({
    description: 'Addresses of it, as REST `urls`',
    fields: (t) =>
      Object.fromEntries([
        ...required.map((key) => [key, t.exposeString(key as never, { description: described(URLS, name, key) })]),
        ...optional.map((key) => [
          key,
          t.exposeString(key as never, { nullable: true, description: `${described(URLS, name, key)}; null when there is none` }),
        ]),
      ]) as never,
  });
}

export const ContentPointerInput = builder.inputType('ContentPointerInput', {
  description: 'A sibling to place content next to: `{type: "space", space}` or `{type: "collection", collection}`',
  fields: (t) => ({
    type: t.field({
      type: restEnum('ContentPointerType', 'What a sibling pointer names', {
        space: 'A space, given in `space`',
        collection: 'A collection, given in `collection`',
      }),
      required: true,
      description: 'Which of the two ids follows',
    }),
    space: t.id({ description: 'The sibling space, when type is "space"' }),
    collection: t.id({ description: 'The sibling collection, when type is "collection"' }),
  }),
});

export const ContentPositionInput = builder.inputType('ContentPositionInput', {
  description: 'Where among its siblings to place a collection or space: just before one, just after one, or between the two given',
  fields: (t) => ({
    before: t.field({ type: ContentPointerInput, description: 'Place it just before this sibling' }),
    after: t.field({ type: ContentPointerInput, description: 'Place it just after this sibling' }),
  }),
});
