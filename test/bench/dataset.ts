// The benchmark's data set, built the same way on SQLite and PostgreSQL and
// reused between runs (test/bench/data/ and the docs_gateway_bench database):
// - "tree": 1 organization × 10 sites × 10 sections × 10 site spaces (1,000 spaces),
//   built through the domain services like an admin would;
// - "navigation": the spaces of the tree's first site (10 sections × 10 site
//   spaces) hold 50 pages each in a 3-level tree (5,000 pages), written as an
//   editor would: a change request per space, three content batches, a merge;
// - "large": 100,000 spaces in nested collections and 10,000 members, written in
//   bulk with the domain's ids, ordering keys and search normalization (creating
//   them one request at a time would take hours).
import { generateNKeysBetween } from 'fractional-indexing';
import { createContext } from '../../src/context.ts';
import { type Database, openDatabase, runMigrations } from '../../src/db/index.ts';
import { createChangeRequest, mergeChangeRequest } from '../../src/domain/change-requests/service.ts';
import { updateChangeRequestContent } from '../../src/domain/content/service.ts';
import { createSection } from '../../src/domain/sites/sections.ts';
import { createSite, setSitePublished } from '../../src/domain/sites/service.ts';
import { addSiteSpace } from '../../src/domain/sites/site-spaces.ts';
import { createSpace } from '../../src/domain/spaces/service.ts';
import { createOrganization, ensureMembership, ensureUser, issueApiToken } from '../../src/domain/users/provisioning.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { userSearchText } from '../../src/lib/search.ts';

export const BENCH_URLS = { api: 'http://127.0.0.1', app: 'http://127.0.0.1/app' };

export interface DataSet {
  url: string;
  token: string;
  treeOrganizationId: string;
  largeOrganizationId: string;
  /** A space of the tree organization (S1, S2). */
  spaceId: string;
  /** The tree's first site, whose spaces hold page trees (S7). */
  navigationSiteId: string;
  /** A page of a navigation space, by its space's current revision (S8, a renderer's page view). */
  pageView: { spaceId: string; revisionId: string; pageId: string };
  /** A site space and two siblings of it, for moves (S5). */
  move: { siteId: string; siteSpaceId: string; before: string; after: string };
}

export interface Sizes {
  sites: number;
  largeSpaces: number;
  largeMembers: number;
}

export const FULL: Sizes = { sites: 10, largeSpaces: 100_000, largeMembers: 10_000 };

async function buildTree(database: Database, size: number, log: (m: string) => void) {
  const organization = await createOrganization(database.db, { title: 'Bench tree', hostname: 'bench-tree' });
  const admin = await ensureUser(database.db, 'bench@bench.test', 'Bench admin');
  await ensureMembership(database.db, organization.id, admin.id, 'admin');
  const ctx = createContext({ database, viewer: { user: admin }, clock: systemClock, urls: BENCH_URLS });
  for (let s = 0; s < size; s++) {
    const site = await createSite(ctx, organization.id, { title: `Site ${s}`, visibility: 'public' });
    for (let c = 0; c < size; c++) {
      const spaces = [];
      for (let p = 0; p < size; p++) {
        spaces.push(await createSpace(ctx, organization.id, { title: `Space ${s}.${c}.${p}`, emoji: '📘' }));
      }
      const section = await createSection(ctx, organization.id, site.id, { spaceId: spaces[0]!.id, title: `Section ${c}` });
      for (const space of spaces.slice(1)) {
        await addSiteSpace(ctx, organization.id, site.id, { spaceId: space.id, sectionId: section.id });
      }
    }
    await setSitePublished(ctx, organization.id, site.id, true);
    log(`  tree: site ${s + 1}/${size}`);
  }
}

/** Per space: 5 groups × 3 pages × 2 pages (5 + 15 + 30 = 50 pages). */
export const NAVIGATION_SHAPE = [5, 3, 2] as const;

async function buildNavigation(database: Database, siteId: string, log: (m: string) => void) {
  const admin = await database.db.user.findUniqueOrThrow({ where: { email: 'bench@bench.test' } });
  const ctx = createContext({ database, viewer: { user: admin }, clock: systemClock, urls: BENCH_URLS });
  const siteSpaces = await database.db.siteSpace.findMany({ where: { siteId }, select: { spaceId: true } });
  const body = (title: string) => ({
    markdown: `# ${title}\n\nHow ${title.toLowerCase()} works, step by step.\n\n## Details\n\nMore about ${title.toLowerCase()}.\n`,
  });
  for (const [index, { spaceId }] of siteSpaces.entries()) {
    const changeRequest = await createChangeRequest(ctx, spaceId, { subject: 'Write the guide' });
    const insert = async (pages: Array<{ title: string; into?: string }>) => {
      const result = (await updateChangeRequestContent(
        ctx,
        spaceId,
        changeRequest.id,
        {
          changes: pages.map((page) => ({
            operation: 'insert_page',
            title: page.title,
            ...(page.into ? { into: page.into } : {}),
            document: body(page.title),
          })),
        },
        { compat: 'false' },
      )) as { changes: Array<{ page: { id: string } }> };
      return result.changes.map((change) => change.page.id);
    };
    const [groups, perGroup, perPage] = NAVIGATION_SHAPE;
    const top = await insert(Array.from({ length: groups }, (_, g) => ({ title: `Chapter ${g + 1}` })));
    const middle = await insert(top.flatMap((into, g) => Array.from({ length: perGroup }, (_, p) => ({ title: `Topic ${g + 1}.${p + 1}`, into }))));
    await insert(middle.flatMap((into, m) => Array.from({ length: perPage }, (_, p) => ({ title: `Detail ${m + 1}.${p + 1}`, into }))));
    await mergeChangeRequest(ctx, spaceId, changeRequest.id);
    if ((index + 1) % 20 === 0) log(`  navigation: ${index + 1}/${siteSpaces.length} spaces`);
  }
}

async function buildLarge(database: Database, sizes: Sizes, log: (m: string) => void) {
  const { db } = database;
  const organization = await createOrganization(db, { title: 'Bench large', hostname: 'bench-large' });
  const admin = await ensureUser(db, 'bench@bench.test', 'Bench admin');
  await ensureMembership(db, organization.id, admin.id, 'admin');
  // 100 collections with 10 sub-collections each; spaces spread over the sub-collections.
  const tops = generateNKeysBetween(null, null, 100);
  const leaves: string[] = [];
  for (const [index, position] of tops.entries()) {
    const id = newId('collection');
    const subKeys = generateNKeysBetween(null, null, 10);
    await db.collection.createMany({
      data: [
        { id, organizationId: organization.id, title: `Area ${index}`, position },
        ...subKeys.map((subPosition, sub) => {
          const subId = newId('collection');
          leaves.push(subId);
          return { id: subId, organizationId: organization.id, parentId: id, title: `Area ${index}.${sub}`, position: subPosition };
        }),
      ],
    });
  }
  const perLeaf = Math.ceil(sizes.largeSpaces / leaves.length);
  const start = Date.now() - sizes.largeSpaces * 1000;
  let created = 0;
  for (const leaf of leaves) {
    if (created >= sizes.largeSpaces) break;
    const count = Math.min(perLeaf, sizes.largeSpaces - created);
    const keys = generateNKeysBetween(null, null, count);
    const spaces = keys.map((position, index) => ({
      id: newId('space'),
      organizationId: organization.id,
      parentId: leaf,
      title: `Space ${created + index}`,
      emoji: '📄',
      mergeRules: { type: 'inherit' },
      revisionId: newId('revision'),
      position,
      createdAt: new Date(start + (created + index) * 1000),
    }));
    await db.space.createMany({ data: spaces });
    // Each space's first revision, empty, as the domain layer writes it.
    await db.revision.createMany({
      data: spaces.map((space) => ({ id: space.revisionId, spaceId: space.id, type: 'edits', parents: [], createdAt: space.createdAt })),
    });
    created += count;
    if (created % 20_000 < perLeaf) log(`  large: ${created} spaces`);
  }
  for (let offset = 0; offset < sizes.largeMembers; offset += 1000) {
    const users = Array.from({ length: Math.min(1000, sizes.largeMembers - offset) }, (_, index) => {
      const email = `member${offset + index}@bench.test`;
      const displayName = `Member ${offset + index}`;
      return { id: newId('user'), email, displayName, searchText: userSearchText({ displayName, email }) };
    });
    await db.user.createMany({ data: users });
    await db.member.createMany({
      data: users.map((user, index) => ({
        organizationId: organization.id,
        userId: user.id,
        role: index % 10 === 0 ? 'edit' : 'read',
        joinedAt: new Date(start + (offset + index) * 1000),
      })),
    });
  }
  log(`  large: ${sizes.largeMembers} members`);
}

/** Opens (building on first use) the data set at `url`, and issues a token for its admin. */
export async function prepareDataSet(url: string, sizes: Sizes, log: (m: string) => void): Promise<DataSet> {
  await runMigrations(url);
  const database = openDatabase(url);
  try {
    const { db } = database;
    if (!(await db.organization.findUnique({ where: { hostname: 'bench-tree' } }))) {
      log(`building the tree data set on ${database.provider}`);
      await buildTree(database, sizes.sites, log);
    }
    if (!(await db.organization.findUnique({ where: { hostname: 'bench-large' } }))) {
      log(`building the large data set on ${database.provider}`);
      await buildLarge(database, sizes, log);
    }
    const tree = await db.organization.findUniqueOrThrow({ where: { hostname: 'bench-tree' } });
    const navigationSite = await db.site.findFirstOrThrow({ where: { organizationId: tree.id, title: 'Site 0' } });
    if (!(await db.changeRequest.findFirst({ where: { space: { organizationId: tree.id } } }))) {
      log(`writing the navigation page trees on ${database.provider}`);
      await buildNavigation(database, navigationSite.id, log);
    }
    const large = await db.organization.findUniqueOrThrow({ where: { hostname: 'bench-large' } });
    const admin = await db.user.findUniqueOrThrow({ where: { email: 'bench@bench.test' } });
    const siteSpaces = await db.siteSpace.findMany({
      where: { site: { organizationId: tree.id } },
      orderBy: [{ sectionId: 'asc' }, { position: 'asc' }],
      take: 3,
    });
    const navigationSpace = await db.space.findUniqueOrThrow({
      where: {
        id: (await db.siteSpace.findFirstOrThrow({ where: { siteId: navigationSite.id }, orderBy: [{ sectionId: 'asc' }, { position: 'asc' }] })).spaceId,
      },
    });
    const viewedPage = await db.revisionPage.findFirstOrThrow({ where: { revisionId: navigationSpace.revisionId, version: { title: 'Topic 1.1' } } });
    return {
      url,
      token: await issueApiToken(db, admin.id, 'bench'),
      pageView: { spaceId: navigationSpace.id, revisionId: navigationSpace.revisionId, pageId: viewedPage.pageId },
      treeOrganizationId: tree.id,
      largeOrganizationId: large.id,
      navigationSiteId: navigationSite.id,
      spaceId: siteSpaces[0]!.spaceId,
      move: {
        siteId: siteSpaces[0]!.siteId,
        siteSpaceId: siteSpaces[1]!.id,
        before: siteSpaces[0]!.id,
        after: siteSpaces[2]!.id,
      },
    };
  } finally {
    await database.close();
  }
}

/** S6: one organization of the multi-tenant mix, with the tokens of its members (the first one its admin). */
export interface Tenant {
  organizationId: string;
  spaceIds: string[];
  tokens: string[];
}

/**
 * S6's data set: `count` small organizations, each with 5 members, 6 spaces and
 * a published site of 2 sections showing 3 spaces each, built through the
 * domain services; the members get new tokens at every run.
 */
export async function prepareTenants(url: string, count: number, log: (m: string) => void): Promise<Tenant[]> {
  await runMigrations(url);
  const database = openDatabase(url);
  try {
    const { db } = database;
    const tenants: Tenant[] = [];
    for (let t = 0; t < count; t++) {
      const hostname = `bench-tenant-${t}`;
      let organization = await db.organization.findUnique({ where: { hostname } });
      const members = [];
      for (let m = 0; m < 5; m++) members.push(await ensureUser(db, `tenant${t}-member${m}@bench.test`, `Tenant ${t} member ${m}`));
      if (!organization) {
        organization = await createOrganization(db, { title: `Tenant ${t}`, hostname });
        for (const [index, member] of members.entries()) await ensureMembership(db, organization.id, member.id, index === 0 ? 'admin' : 'read');
        const ctx = createContext({ database, viewer: { user: members[0]! }, clock: systemClock, urls: BENCH_URLS });
        const spaces = [];
        for (let s = 0; s < 6; s++) spaces.push(await createSpace(ctx, organization.id, { title: `Tenant ${t} space ${s}`, emoji: '📗' }));
        const site = await createSite(ctx, organization.id, { title: `Tenant ${t} docs`, visibility: 'public' });
        for (const group of [spaces.slice(0, 3), spaces.slice(3)]) {
          const section = await createSection(ctx, organization.id, site.id, { spaceId: group[0]!.id });
          for (const space of group.slice(1)) await addSiteSpace(ctx, organization.id, site.id, { spaceId: space.id, sectionId: section.id });
        }
        await setSitePublished(ctx, organization.id, site.id, true);
        if ((t + 1) % 20 === 0) log(`  tenants: ${t + 1}/${count}`);
      }
      const spaceIds = (await db.space.findMany({ where: { organizationId: organization.id }, select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
      const tokens = [];
      for (const member of members) tokens.push(await issueApiToken(db, member.id, 'bench'));
      tenants.push({ organizationId: organization.id, spaceIds, tokens });
    }
    return tenants;
  } finally {
    await database.close();
  }
}
