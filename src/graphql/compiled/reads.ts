import { type Expression, sql } from 'kysely';
import { COLLECTION_ADDRESSES } from '../../domain/collections/presenter.ts';
import { collectionsByCreation, collectionsInSiblingOrder } from '../../domain/collections/service.ts';
import { ORGANIZATION_ADDRESSES } from '../../domain/organizations/presenter.ts';
import { SITE_ADDRESSES, SITE_DEFAULT_LEVEL } from '../../domain/sites/presenter.ts';
import { sectionsInSiteOrder } from '../../domain/sites/sections.ts';
import { sitesByCreation } from '../../domain/sites/service.ts';
import { siteSpacesByCreation } from '../../domain/sites/site-spaces.ts';
import { SPACE_ADDRESSES } from '../../domain/spaces/presenter.ts';
import { contentColumnsOf, equalities, seesContent, seesSite } from '../../domain/reads.ts';
import { LISTED_SPACES, spacesByCreation, spacesInSiblingOrder } from '../../domain/spaces/service.ts';
import { addresses } from './addresses.ts';
import {
  type CompileContext,
  type CompiledTypes,
  type FieldCompiler,
  UNSUPPORTED,
  column,
  compileObject,
  constant,
  listElementTypeOf,
  objectTypeOf,
  ref,
  scalarOf,
} from './compile.ts';
import { connection, list, one } from './relations.ts';

/**
 * What compiled reads know of the graph: for each type, the table its objects
 * are rows of and how each field is read. The rules come from the domain — who
 * sees what (src/domain/access.ts, through the viewer's opened organizations),
 * the orderings and page tokens of its listings, the addresses of its presenters
 * — so that a compiled answer is the executor's answer (the test suite checks
 * every query it runs both ways). Fields not declared here (permissions, counts
 * of comments, the published tree of visitors…) are answered by the executor.
 */

/** The value JSON-encoded as the marker src/graphql/compiled/plugin.ts looks for: run this operation through the executor. */
export const EXECUTE_INSTEAD = '\u0001docs-gateway:execute';

/**
 * The field's value where `allowed` holds for the row; elsewhere the marker
 * that makes the operation run through the executor, which answers the error
 * (a guest listing sites, say) exactly.
 */
function guarded(allowed: (c: CompileContext, row: string) => ReturnType<typeof sql>, compile: FieldCompiler): FieldCompiler {
  return (c, row, selection) => {
    const value = compile(c, row, selection);
    if (value === UNSUPPORTED) return UNSUPPORTED;
    return sql`(CASE WHEN ${allowed(c, row)} THEN ${value} ELSE ${c.json.string(sql.lit(EXECUTE_INSTEAD))} END)`;
  };
}

/** Rows of organizations whose content the viewer reads (src/domain/access.ts readsContent). */
const contentOf = (c: CompileContext, organizationId: ReturnType<typeof ref>) => c.json.inList(organizationId, c.viewer.contentOf);
const memberOf = (c: CompileContext, organizationId: ReturnType<typeof ref>) => c.json.inList(organizationId, c.viewer.memberOf);
/** Rows of spaces or collections the viewer sees: by its organization role, or by a grant (src/domain/reads.ts seesContent). */
/** Rows of sites the viewer sees: by its organization role, or by a grant on the site (src/domain/reads.ts seesSite). */
const seenSite = (c: CompileContext, row: string) =>
  seesSite({ provider: c.json.provider }, { id: ref(row, 'id'), organizationId: ref(row, 'organizationId') }, c.viewer);
const seen = (kind: 'space' | 'collection') => (c: CompileContext, row: string) =>
  seesContent({ provider: c.json.provider }, contentColumnsOf(kind, row), c.viewer);

/** A root field reading one row by its `id` argument, with the rows the viewer may see; null (then the executor's 404) for others. */
function byId(table: Parameters<typeof one>[0], visible: (c: CompileContext, row: string) => ReturnType<typeof sql>): FieldCompiler {
  return (c, _row, selection) => {
    const type = objectTypeOf(selection.field.type);
    const id = selection.args.id;
    if (!type || typeof id !== 'string') return UNSUPPORTED;
    const row = c.alias();
    const object = compileObject(c, type.name, row, selection.nodes);
    if (object === UNSUPPORTED) return UNSUPPORTED;
    return sql`(SELECT ${object} FROM ${sql.table(table)} AS ${sql.id(row)} WHERE ${ref(row, 'id')} = ${id} AND ${visible(c, row)})`;
  };
}

/** The sum of integer columns (a space's open and draft change requests). */
const sum =
  (...columns: string[]): FieldCompiler =>
  (_c, row) =>
    sql`(${sql.join(
      columns.map((name) => ref(row, name)),
      sql` + `,
    )})`;

/** A JSON value that does not depend on the row. */
const jsonConstant =
  (value: unknown): FieldCompiler =>
  (c) =>
    c.json.jsonColumn(sql.lit(JSON.stringify(value)));

/** A column of another row: the title of a site space's space. */
const columnOf =
  (table: Parameters<typeof one>[0], foreignKey: string, name: string): FieldCompiler =>
  (c, row, selection) => {
    const value = scalarOf(c, selection.field.type, sql.ref(`o.${name}`));
    if (value === UNSUPPORTED) return UNSUPPORTED;
    return sql`(SELECT ${value} FROM ${sql.table(table)} AS o WHERE o."id" = ${ref(row, foreignKey)})`;
  };

/**
 * The pages under `parent` (a page's alias, or null for the top level) of the
 * revision `revision` (an expression), in sibling order (src/domain/content/tree.ts
 * treeOf): each page is a revision entry (alias) joined to its version (alias_v).
 */
function pagesUnder(revision: (row: string) => ReturnType<typeof ref>, parent: 'none' | 'page'): FieldCompiler {
  return (c, row, selection) => {
    const type = listElementTypeOf(selection.field.type);
    if (!type) return UNSUPPORTED;
    const entry = c.alias();
    const version = `${entry}_v`;
    c.pagePaths.set(entry, pagePath(c, parent === 'none' ? null : c.pagePaths.get(row)!, ref(version, 'slug')));
    const object = compileObject(c, type.name, entry, selection.nodes);
    if (object === UNSUPPORTED) return UNSUPPORTED;
    const byBytes = c.json.provider === 'postgresql' ? sql` COLLATE "C"` : sql``;
    const parentCondition = parent === 'none' ? sql`${ref(entry, 'parentId')} IS NULL` : sql`${ref(entry, 'parentId')} = ${ref(row, 'pageId')}`;
    return sql`(SELECT ${c.json.arrayAgg(object, sql`${ref(entry, 'position')}${byBytes}, ${ref(entry, 'pageId')}${byBytes}`)}
      FROM "revision_pages" AS ${sql.id(entry)} JOIN "page_versions" AS ${sql.id(version)} ON ${ref(version, 'id')} = ${ref(entry, 'versionId')}
      WHERE ${ref(entry, 'revisionId')} = ${revision(row)} AND ${parentCondition})`;
  };
}

/** src/domain/content/tree.ts joinPath in SQL: the parent's path and the slug. */
function pagePath(c: CompileContext, prefix: Expression<unknown> | null, slug: Expression<unknown>): Expression<unknown> {
  if (!prefix) return slug;
  return sql`(CASE WHEN ${prefix} = '' THEN ${slug} WHEN ${slug} = '' THEN ${prefix} ELSE ${c.json.concat([prefix, sql`'/'`, slug])} END)`;
}

/** A field of a page's version (the entry's alias with `_v`). */
const versionColumn =
  (name: string): FieldCompiler =>
  (c, row, selection) =>
    scalarOf(c, selection.field.type, ref(`${row}_v`, name));

export const COMPILED_TYPES: CompiledTypes = {
  Query: {
    table: null,
    fields: {
      organization: byId('organizations', (c, row) => memberOf(c, ref(row, 'id'))),
      space: byId('spaces', seen('space')),
      collection: byId('collections', seen('collection')),
      site: byId('sites', seenSite),
    },
  },

  Organization: {
    table: 'organizations',
    fields: {
      id: column('id'),
      object: constant('organization'),
      createdAt: column('createdAt'),
      type: column('type'),
      useCase: column('useCase'),
      communityType: column('communityType'),
      defaultRole: column('defaultRole'),
      plan: column('plan'),
      mergeRules: column('mergeRules'),
      internal_isOnNewTrial: constant(true),
      urls: addresses(ORGANIZATION_ADDRESSES),
      // Members who are not guests (src/domain/sites/service.ts listSiteRecords); others get the executor's 403.
      // Guests list the sites granted to them (src/domain/sites/service.ts listSiteRecords).
      sites: guarded(
        (c, row) => memberOf(c, ref(row, 'id')),
        connection({
          table: 'sites',
          where: (c, child, parent) => sql`${ref(child, 'organizationId')} = ${ref(parent, 'id')} AND ${seenSite(c, child)}`,
          ordering: sitesByCreation as never,
          filter: (_c, child, args) => {
            if (args.title != null || args.space != null) return UNSUPPORTED;
            return args.published == null ? [] : [sql`${ref(child, 'published')} = ${sql.lit(Boolean(args.published))}`];
          },
        }),
      ),
      // Guests list what grants reach (src/domain/spaces/service.ts listOrganizationSpaceRecords).
      spaces: guarded(
        (c, row) => memberOf(c, ref(row, 'id')),
        connection({
          table: 'spaces',
          where: (c, child, parent) =>
            sql`${ref(child, 'organizationId')} = ${ref(parent, 'id')} AND ${equalities(child, LISTED_SPACES)} AND ${seen('space')(c, child)}`,
          ordering: spacesByCreation as never,
        }),
      ),
      collections: guarded(
        (c, row) => contentOf(c, ref(row, 'id')),
        (c, row, selection) =>
          connection({
            table: 'collections',
            where: (_c, child, parent) =>
              selection.args.nested === false
                ? sql`${ref(child, 'organizationId')} = ${ref(parent, 'id')} AND ${ref(child, 'parentId')} IS NULL`
                : sql`${ref(child, 'organizationId')} = ${ref(parent, 'id')}`,
            ordering: (selection.args.nested === false ? collectionsInSiblingOrder : collectionsByCreation) as never,
            filter: () => [],
          })(c, row, selection),
      ),
    },
  },

  Collection: {
    table: 'collections',
    fields: {
      id: column('id'),
      object: constant('collection'),
      defaultLevel: column('defaultLevel'),
      urls: addresses(COLLECTION_ADDRESSES),
      organization: one(
        'organizations',
        (c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'organizationId')} AND ${memberOf(c, ref(child, 'id'))}`,
      ),
      parent: one('collections', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'parentId')}`),
      collections: connection({
        table: 'collections',
        where: (_c, child, parent) => sql`${ref(child, 'parentId')} = ${ref(parent, 'id')}`,
        ordering: collectionsInSiblingOrder as never,
      }),
      spaces: connection({
        table: 'spaces',
        where: (_c, child, parent) => sql`${ref(child, 'parentId')} = ${ref(parent, 'id')} AND ${equalities(child, LISTED_SPACES)}`,
        ordering: spacesInSiblingOrder as never,
      }),
    },
  },

  Space: {
    table: 'spaces',
    fields: {
      id: column('id'),
      object: constant('space'),
      visibility: column('visibility'),
      createdAt: column('createdAt'),
      updatedAt: column('updatedAt'),
      deletedAt: column('deletedAt'),
      editMode: column('editMode'),
      mergeRules: column('mergeRules'),
      language: column('language'),
      defaultLevel: column('defaultLevel'),
      changeRequests: sum('changeRequestsOpen', 'changeRequestsDraft'),
      urls: addresses(SPACE_ADDRESSES),
      // Its active revision (the revision row always exists).
      content: one('revisions', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'revisionId')}`),
      // Null, without an error, for a viewer who is not a member (src/errors.ts nullIfHidden).
      organization: one(
        'organizations',
        (c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'organizationId')} AND ${memberOf(c, ref(child, 'id'))}`,
      ),
      parent: one('collections', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'parentId')}`),
    },
  },

  Site: {
    table: 'sites',
    fields: {
      id: column('id'),
      object: constant('site'),
      type: column('type'),
      appliedType: column('type'),
      visibility: column('visibility'),
      createdAt: column('createdAt'),
      defaultLevel: constant(SITE_DEFAULT_LEVEL),
      features: jsonConstant([]),
      urls: addresses(SITE_ADDRESSES),
      organization: one(
        'organizations',
        (c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'organizationId')} AND ${memberOf(c, ref(child, 'id'))}`,
      ),
      // Members who are not guests see every section (src/domain/sites/sections.ts); visitors' trees are the executor's.
      sections: guarded(
        seenSite,
        connection({
          table: 'site_sections',
          where: (_c, child, parent) => sql`${ref(child, 'siteId')} = ${ref(parent, 'id')}`,
          ordering: sectionsInSiteOrder as never,
        }),
      ),
      siteSpaces: guarded(
        seenSite,
        connection({
          table: 'site_spaces',
          where: (_c, child, parent) => sql`${ref(child, 'siteId')} = ${ref(parent, 'id')}`,
          ordering: siteSpacesByCreation as never,
          filter: (c, child, args) =>
            args.default == null
              ? []
              : [sql`${ref(child, 'isDefault')} = ${c.json.provider === 'postgresql' ? sql.lit(Boolean(args.default)) : sql.lit(args.default ? 1 : 0)}`],
        }),
      ),
    },
  },

  SiteSection: {
    table: 'site_sections',
    fields: {
      id: column('id'),
      object: constant('site-section'),
      title: column('title'),
      description: column('description'),
      default: column('isDefault'),
      draft: constant(false),
      path: column('path'),
      condition: column('condition'),
      icon: column('icon'),
      sectionGroup: one('site_section_groups', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'sectionGroupId')}`),
      // A member's view: every site space, in order (src/domain/sites/records.ts siteSpacesOfSection). A
      // section is reached through its site (Query.site, or Organization.sites' guard): its viewer reads content.
      siteSpaces: list('site_spaces', (_c, child, parent) => sql`${ref(child, 'sectionId')} = ${ref(parent, 'id')}`, [
        { column: 'position', direction: 'asc' },
        { column: 'id', direction: 'asc' },
      ]),
    },
  },

  SiteSpace: {
    table: 'site_spaces',
    fields: {
      id: column('id'),
      object: constant('site-space'),
      title: columnOf('spaces', 'spaceId', 'title'),
      draft: constant(false),
      hasAdvancedCustomizationFeature: constant(false),
      section: one('site_sections', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'sectionId')}`),
      space: one('spaces', (_c, child, parent) => sql`${ref(child, 'id')} = ${ref(parent, 'spaceId')}`),
    },
  },

  Revision: {
    table: 'revisions',
    fields: {
      id: column('id'),
      object: constant('revision'),
      type: column('type'),
      parents: (c, row) => c.json.jsonColumn(ref(row, 'parents')),
      createdAt: column('createdAt'),
      pages: pagesUnder((row) => ref(row, 'id'), 'none'),
    },
  },

  Page: {
    table: 'revision_pages',
    fields: {
      id: column('pageId'),
      type: versionColumn('type'),
      title: versionColumn('title'),
      slug: versionColumn('slug'),
      path: (c, row) => c.pagePaths.get(row) ?? UNSUPPORTED,
      emoji: versionColumn('emoji'),
      icon: versionColumn('icon'),
      description: versionColumn('description'),
      hidden: versionColumn('hidden'),
      noIndex: versionColumn('noIndex'),
      noRobotsIndex: versionColumn('noRobotsIndex'),
      createdAt: versionColumn('createdAt'),
      updatedAt: versionColumn('updatedAt'),
      pages: pagesUnder((row) => ref(row, 'revisionId'), 'page'),
    },
  },

  SiteSectionGroup: {
    table: 'site_section_groups',
    fields: {
      id: column('id'),
      object: constant('site-section-group'),
    },
  },
};
