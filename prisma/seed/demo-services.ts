// Demo data for `docs-gateway seed --demo` and the first `npm start`: three
// organizations with members, teams, a SAML provider, a link invite and an OpenAPI spec, nested
// collections, spaces, custom fields and
// published sites with sections, a section group and adaptive content.
// Everything after the users is created through the domain services, as an admin would.
// This is the reference: prisma/seed/demo.ts loads the same rows in bulk from a snapshot of
// what this writes (prisma/seed/demo-snapshot.json, `npm run -s demo:snapshot`), and
// test/db/demo-seed.test.ts checks that both write the same rows.
import type { PublicUrls } from '../../src/config.ts';
import { type RequestContext, createContext } from '../../src/context.ts';
import type { Database, UserRecord } from '../../src/db/index.ts';
import { createCollection, updateCollection } from '../../src/domain/collections/service.ts';
import { createCustomField } from '../../src/domain/custom-fields/service.ts';
import { updateOrganization } from '../../src/domain/organizations/service.ts';
import { createSectionGroup } from '../../src/domain/sites/section-groups.ts';
import { createSection, updateSection } from '../../src/domain/sites/sections.ts';
import { createSite, setSitePublished, updateAdaptiveSchema } from '../../src/domain/sites/service.ts';
import { addSiteSpace, updateSiteSpace } from '../../src/domain/sites/site-spaces.ts';
import { createSpace, listOrganizationSpaces, updateSpaceCustomFields } from '../../src/domain/spaces/service.ts';
import { createChangeRequest, mergeChangeRequest } from '../../src/domain/change-requests/service.ts';
import { postCommentReply, updateCommentReply } from '../../src/domain/comments/replies.ts';
import { postComment, updateComment } from '../../src/domain/comments/service.ts';
import { listPages, updateChangeRequestContent } from '../../src/domain/content/service.ts';
import { createInvite } from '../../src/domain/invites/service.ts';
import { processOpenAPISpec } from '../../src/domain/openapi/processing.ts';
import { createSpec } from '../../src/domain/openapi/service.ts';
import { createSamlProvider } from '../../src/domain/saml/service.ts';
import { createTeam, putTeamMember } from '../../src/domain/teams/service.ts';
import { createTranslationSettings } from '../../src/domain/translations/service.ts';
import { createOrganization, ensureMembership, ensureUser } from '../../src/domain/users/provisioning.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { openApiDocumentOf } from '../../src/rest/openapi.ts';
import { restRoutes } from '../../src/rest/plugin.ts';
import type { FileStorage } from '../../src/storage/files.ts';

export const DEMO_ADMIN_EMAIL = 'alice@acme.test';

interface SpaceSeed {
  title: string;
  emoji: string;
  values?: Record<string, string | number | boolean | string[]>;
}
interface CollectionSeed {
  title: string;
  description?: string;
  defaultLevel?: 'read' | 'edit' | 'comment';
  collections?: CollectionSeed[];
  spaces?: SpaceSeed[];
}

const acme: { collections: CollectionSeed[]; spaces: SpaceSeed[] } = {
  collections: [
    {
      title: 'Product',
      description: 'Public product documentation',
      collections: [
        {
          title: 'Guides',
          spaces: [
            { title: 'Getting started', emoji: '🚀', values: { audience: 'public', owner: 'Docs team', reviewed: true, tags: ['tutorial'] } },
            { title: 'Installation', emoji: '🧰', values: { audience: 'public', reviewed: false, tags: ['tutorial'] } },
            { title: 'Troubleshooting', emoji: '🩺', values: { audience: 'public', owner: 'Support' } },
          ],
        },
        {
          title: 'API Reference',
          spaces: [
            { title: 'REST API', emoji: '🔌', values: { audience: 'partners', tags: ['api', 'reference'], 'review-cycle-days': 30 } },
            { title: 'GraphQL API', emoji: '🕸️', values: { audience: 'partners', tags: ['api', 'reference'] } },
          ],
        },
      ],
    },
    {
      title: 'Internal',
      description: 'Company handbook and practices',
      defaultLevel: 'comment',
      collections: [
        {
          title: 'Handbook',
          defaultLevel: 'edit',
          spaces: [
            { title: 'Onboarding', emoji: '👋', values: { audience: 'internal', owner: 'People team', tags: ['policy'] } },
            { title: 'Engineering practices', emoji: '🛠️', values: { audience: 'internal', reviewed: true } },
          ],
        },
      ],
      spaces: [{ title: 'Security policies', emoji: '🔐', values: { audience: 'internal', tags: ['policy'] } }],
    },
  ],
  spaces: [
    { title: 'Changelog', emoji: '📰', values: { audience: 'public' } },
    { title: 'Release notes', emoji: '📝' },
  ],
};

/** The demo identity provider's certificate: self-signed, made offline with `openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=demo-idp`. */
const DEMO_IDP_CERTIFICATE = `
-----BEGIN CERTIFICATE-----
MIIDBzCCAe+gAwIBAgIUSMMWZIjR2frfzCif03ldRR+wJ+IwDQYJKoZIhvcNAQEL
BQAwEzERMA8GA1UEAwwIZGVtby1pZHAwHhcNMjYxMTIzMjIwMzI4WhcNMzYxMTIw
MjIwMzI4WjATMREwDwYDVQQDDAhkZW1vLWlkcDCCASIwDQYJKoZIhvcNAQEBBQAD
ggEPADCCAQoCggEBAMIQ0VlRIYn0V8b89x9Xl38lVyXwhcBJH9usLdbhEaKsMJ4t
0MDdP3pVrWJJSRdRBz13/NHupK6sELCyKgNjo9c+2i4xEqB5mbcHD6SiYTNXtjHO
feMlA0uc2Mju3IaiOJ/so95zrnnhcoO8sT/RKS/H8ixIVzLhNeugw7E2wmqiBnMt
dDUha3gw+eaH/WPadrIIk5p7eSCEG6O3izztbliBdnsqETZ0Hv9iQbuTtQvwe/rL
aK1Gk/K3BTBWI5O2lqWiA20n2Xx1VT+Qu1wjXEN33pxR45ae12ZjMV8Oi6XnGmOK
hIsPpBJLez6py5A/26rNi58OQ1HwE7LZeVfgUM8CAwEAAaNTMFEwHQYDVR0OBBYE
FAFl+eL3iF4WXPJ5LeJHCiD/TyOPMB8GA1UdIwQYMBaAFAFl+eL3iF4WXPJ5LeJH
CiD/TyOPMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBALr337Er
UuJIXWSJTaOe7+5+/0SdUMZA8W6Z4GBPm6ejj3ZENnd96Aiu3KTi11o0J2NQ/kAn
U9SReGKdTbTOJDHdIZS0AXNHi99OVmcTlzrZkgnxm/1agbGBs60zoqgQqn6y0O+N
2fqKwgxjFKEEVr2xU5bxFqEUDiEfrZfBEBXp7vHLd33vvJ4OJ/a4cfkqaIPSZNDG
vGsgU8/tLNVIH7Q6uaqTQgNGMosmT9QClQ99evemDcSFVe1WdZdo2pGU+D+1Yk+T
p/a9vrKpAYYLbzaP/r/pB2phlrvmrf6TepMlGIOUdsdLbg8Gv8X2Sw+JCi3VlqAR
RkwW/IsQFLW/bK4=
-----END CERTIFICATE-----
`.trim();

async function createTree(ctx: RequestContext, organizationId: string, seed: CollectionSeed, parent?: string) {
  const collection = await createCollection(ctx, organizationId, { title: seed.title, ...(parent ? { parent } : {}) });
  if (seed.description || seed.defaultLevel) {
    await updateCollection(ctx, collection.id, {
      ...(seed.description ? { description: seed.description } : {}),
      ...(seed.defaultLevel ? { defaultLevel: seed.defaultLevel } : {}),
    });
  }
  for (const child of seed.collections ?? []) await createTree(ctx, organizationId, child, collection.id);
  for (const space of seed.spaces ?? []) await createDemoSpace(ctx, organizationId, space, collection.id);
}

async function createDemoSpace(ctx: RequestContext, organizationId: string, seed: SpaceSeed, parent?: string) {
  const space = await createSpace(ctx, organizationId, { title: seed.title, emoji: seed.emoji, ...(parent ? { parent } : {}) });
  if (seed.values) {
    const values = Object.fromEntries(Object.entries(seed.values).map(([name, value]) => [name, { value }]));
    await updateSpaceCustomFields(ctx, space.id, { values });
  }
  return space;
}

/**
 * Acme's sites: a public developer portal with sections, a section group and
 * adaptive content, and a handbook for signed-in visitors only.
 */
async function createAcmeSites(ctx: RequestContext, organizationId: string) {
  const spaces = new Map((await listOrganizationSpaces(ctx, organizationId, { limit: 100 })).items.map((space) => [space.title, space.id]));
  const id = (title: string) => spaces.get(title)!;

  const portal = await createSite(ctx, organizationId, { title: 'Acme Developer Portal', type: 'premium', visibility: 'public' });
  await updateAdaptiveSchema(ctx, organizationId, portal.id, {
    jsonSchema: {
      type: 'object',
      properties: {
        plan: { type: 'string', description: 'Subscription plan', enum: ['free', 'pro', 'enterprise'] },
        betaTester: { type: 'boolean', description: 'Enrolled in the beta program' },
      },
      additionalProperties: false,
    },
  });
  const guides = await createSection(ctx, organizationId, portal.id, { spaceId: id('Getting started'), title: 'Guides' });
  await addSiteSpace(ctx, organizationId, portal.id, { spaceId: id('Installation'), sectionId: guides.id });
  const troubleshooting = await addSiteSpace(ctx, organizationId, portal.id, { spaceId: id('Troubleshooting'), sectionId: guides.id });
  await updateSiteSpace(ctx, organizationId, portal.id, troubleshooting.id, { condition: 'visitor.claims.plan !== "free"' });
  const rest = await createSection(ctx, organizationId, portal.id, { spaceId: id('REST API'), title: 'REST API' });
  const graphql = await createSection(ctx, organizationId, portal.id, { spaceId: id('GraphQL API'), title: 'GraphQL API' });
  await updateSection(ctx, organizationId, portal.id, graphql.id, { condition: 'visitor.claims.betaTester', icon: 'flask' });
  await createSectionGroup(ctx, organizationId, portal.id, { title: 'API Reference', icon: 'code', sections: [rest.id, graphql.id] });
  const changelog = await createSection(ctx, organizationId, portal.id, { spaceId: id('Changelog'), title: 'Changelog' });
  await addSiteSpace(ctx, organizationId, portal.id, { spaceId: id('Release notes'), sectionId: changelog.id });
  await setSitePublished(ctx, organizationId, portal.id, true);

  const handbook = await createSite(ctx, organizationId, {
    title: 'Acme Handbook',
    visibility: 'visitor-auth',
    spaces: [id('Onboarding'), id('Engineering practices'), id('Security policies')],
  });
  await setSitePublished(ctx, organizationId, handbook.id, true);
  await createSite(ctx, organizationId, { title: 'Partner Preview', visibility: 'share-link', spaces: [id('REST API')] });
}

/** A page of demo content: a title, a markdown body and its pages. */
interface PageSeed {
  title: string;
  markdown: string;
  pages?: PageSeed[];
}

const GETTING_STARTED: PageSeed[] = [
  {
    title: 'Overview',
    markdown: 'Acme lets you ship **docs** with your product.\n\n- Write in change requests\n- Review and merge\n- Publish to your site\n',
  },
  {
    title: 'Quickstart',
    markdown: 'Install the CLI, then create a project:\n\n```sh\nnpm install -g acme\nacme init my-docs\n```\n',
    pages: [
      { title: 'Create an account', markdown: 'Sign up at the [console](https://console.acme.test) with your work email.\n' },
      { title: 'Invite your team', markdown: 'Admins invite members from **Settings → Members**.\n' },
    ],
  },
  {
    title: 'Concepts',
    markdown: 'Spaces hold content; sites publish spaces.\n\n![How content flows](./content-flow)\n\nThe [style guide](./style-guide) applies to every page.\n',
    pages: [
      { title: 'Spaces', markdown: 'A space is a tree of pages with its own history.\n' },
      { title: 'Change requests', markdown: 'Edits are proposed in a change request and merged when reviewed.\n' },
    ],
  },
];

const REST_API: PageSeed[] = [
  { title: 'Authentication', markdown: 'Send `Authorization: Bearer <token>` with every request.\n' },
  {
    title: 'Endpoints',
    markdown: 'Every path starts with `/v1`.\n',
    pages: [
      { title: 'Spaces', markdown: '`GET /v1/spaces/{spaceId}` returns a space.\n' },
      { title: 'Change requests', markdown: '`POST /v1/spaces/{spaceId}/change-requests` opens one.\n' },
    ],
  },
  { title: 'Errors', markdown: 'Errors answer `{"error": {"code", "message"}}`.\n' },
];

/** A diagram and a document, attached to the guide's pages (`./content-flow`, `./style-guide` in their markdown). */
const CONTENT_FLOW_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="80" viewBox="0 0 360 80">
  <g font-family="sans-serif" font-size="14" text-anchor="middle">
    <rect x="5" y="20" width="100" height="40" rx="6" fill="#e8f0fe"/><text x="55" y="45">Change request</text>
    <rect x="130" y="20" width="100" height="40" rx="6" fill="#e6f4ea"/><text x="180" y="45">Space</text>
    <rect x="255" y="20" width="100" height="40" rx="6" fill="#fef7e0"/><text x="305" y="45">Site</text>
  </g>
  <path d="M105 40h25M230 40h25" stroke="#555" stroke-width="2"/>
</svg>
`;
const STYLE_GUIDE = 'Acme style guide\n\n1. Write for the reader in front of you.\n2. One idea per paragraph.\n3. Show the command, then explain it.\n';
export const DEMO_FILES = [
  { ref: 'content-flow', name: 'content-flow.svg', contentType: 'image/svg+xml', base64: Buffer.from(CONTENT_FLOW_SVG).toString('base64') },
  { ref: 'style-guide', name: 'style-guide.txt', contentType: 'text/plain', base64: Buffer.from(STYLE_GUIDE).toString('base64') },
];

/** Writes a page tree (and files its pages link) into a space the way an author would: one change request, merged. */
async function writeDemoContent(ctx: RequestContext, spaceId: string, subject: string, pages: PageSeed[], files: typeof DEMO_FILES = []) {
  const changeRequest = await createChangeRequest(ctx, spaceId, { subject });
  const insert = async (seeds: PageSeed[], into?: string) => {
    const changes: unknown[] = seeds.map((seed) => ({
      operation: 'insert_page',
      title: seed.title,
      document: { markdown: seed.markdown },
      ...(into ? { into } : {}),
    }));
    // Files come with the top-level pages: their refs resolve within one batch.
    if (!into && files.length) changes.push({ operation: 'insert_files', files });
    const result = (await updateChangeRequestContent(ctx, spaceId, changeRequest.id, { changes }, { compat: 'false' })) as {
      changes: Array<{ page: { id: string } }>;
    };
    for (const [index, seed] of seeds.entries()) if (seed.pages) await insert(seed.pages, result.changes[index]!.page.id);
  };
  await insert(pages);
  await mergeChangeRequest(ctx, spaceId, changeRequest.id);
}

async function createAcmeContent(alice: RequestContext, bob: RequestContext, organizationId: string) {
  const spaces = new Map((await listOrganizationSpaces(alice, organizationId, { limit: 100 })).items.map((space) => [space.title, space.id]));
  const gettingStarted = spaces.get('Getting started')!;
  await writeDemoContent(alice, gettingStarted, 'First version of the guide', GETTING_STARTED, alice.storage ? DEMO_FILES : []);
  await writeDemoContent(alice, spaces.get('REST API')!, 'Document the REST API', REST_API);
  // An open change request by Bob, waiting for review.
  const overview = (await listPages(bob, { spaceId: gettingStarted })).pages[0] as { id: string };
  const pending = await createChangeRequest(bob, gettingStarted, { subject: 'Explain publishing in the overview' });
  await updateChangeRequestContent(bob, gettingStarted, pending.id, {
    changes: [
      {
        operation: 'update_page',
        page: overview.id,
        document: {
          markdown:
            'Acme lets you ship **docs** with your product.\n\n- Write in change requests\n- Review and merge\n- Publish to your site, for everyone or for signed-in visitors\n',
        },
      },
      { operation: 'insert_page', title: 'Publishing', document: { markdown: 'A site publishes one or more spaces.\n' } },
    ],
  });
  // Discussions: a resolved question on the overview with a reply and reactions, an open remark, and a review comment in Bob's change request.
  const question = await postComment(alice, gettingStarted, null, { page: overview.id, body: { markdown: 'Should the overview link to the **quickstart**?' } });
  await postCommentReply(bob, gettingStarted, null, question.id, { body: { markdown: 'Yes: the change request adds it.' } });
  await updateComment(bob, gettingStarted, null, question.id, { addedReactions: ['👍'] });
  await updateComment(alice, gettingStarted, null, question.id, { addedReactions: ['👍', '🎉'], resolved: true });
  await postComment(bob, gettingStarted, null, { body: { markdown: 'The install section needs a Windows example.' } });
  const review = await postComment(alice, gettingStarted, pending.id, {
    page: overview.id,
    body: { markdown: 'Nice. Can we mention visitor authentication?' },
  });
  const answer = await postCommentReply(bob, gettingStarted, pending.id, review.id, { body: { markdown: 'Done, in the new Publishing page.' } });
  await updateCommentReply(alice, gettingStarted, pending.id, review.id, answer.id, { addedReactions: ['🚀'] });
}

/**
 * Writes the demo data into an empty database through the domain services; `storage` keeps its files (without it,
 * the guide has no files). `deferSpec`: the demo OpenAPI spec is created but not processed (see demo.ts).
 */
export async function seedDemoThroughServices(database: Database, urls: PublicUrls, storage?: FileStorage, options: { deferSpec?: boolean } = {}) {
  const { db } = database;

  const people = {
    alice: await ensureUser(db, DEMO_ADMIN_EMAIL, 'Alice Martin'),
    bob: await ensureUser(db, 'bob@acme.test', 'Bob Chen'),
    carol: await ensureUser(db, 'carol@acme.test', 'Carol Diaz'),
    dave: await ensureUser(db, 'dave@partner.test', 'Dave Okafor'),
    erin: await ensureUser(db, 'erin@globex.test', 'Erin Novak'),
    frank: await ensureUser(db, 'frank@initech.test', 'Frank Ito'),
  };
  const as = (user: UserRecord) => createContext({ database, viewer: { user }, clock: systemClock, urls, storage });

  const acmeOrg = await createOrganization(db, { title: 'Acme Docs', hostname: 'acme-docs', emailDomains: ['acme.test'] });
  await ensureMembership(db, acmeOrg.id, people.alice.id, 'admin');
  await ensureMembership(db, acmeOrg.id, people.bob.id, 'edit');
  await ensureMembership(db, acmeOrg.id, people.carol.id, 'read');
  await ensureMembership(db, acmeOrg.id, people.dave.id, null);
  const alice = as(people.alice);
  await updateOrganization(alice, acmeOrg.id, { defaultRole: 'read' });
  await createCustomField(alice, acmeOrg.id, {
    name: 'audience',
    type: 'select',
    title: 'Audience',
    description: 'Who the space is written for',
    options: ['public', 'partners', 'internal'],
  });
  await createCustomField(alice, acmeOrg.id, { name: 'owner', type: 'text', title: 'Owner', placeholder: 'Team name' });
  await createCustomField(alice, acmeOrg.id, { name: 'reviewed', type: 'boolean', title: 'Reviewed this quarter' });
  await createCustomField(alice, acmeOrg.id, {
    name: 'tags',
    type: 'multi-select',
    title: 'Tags',
    options: ['api', 'tutorial', 'reference', 'policy'],
  });
  await createCustomField(alice, acmeOrg.id, { name: 'review-cycle-days', type: 'number', title: 'Review cycle (days)' });
  for (const collection of acme.collections) await createTree(alice, acmeOrg.id, collection);
  for (const space of acme.spaces) await createDemoSpace(alice, acmeOrg.id, space);
  await createAcmeSites(alice, acmeOrg.id);
  await createAcmeContent(alice, as(people.bob), acmeOrg.id);
  const writers = await createTeam(alice, acmeOrg.id, { title: 'Technical writers', members: [people.bob.id, people.carol.id] });
  await putTeamMember(alice, acmeOrg.id, writers.id, people.bob.id, { role: 'owner' });
  await createTeam(alice, acmeOrg.id, { title: 'Platform', members: [people.alice.id] });
  await createTranslationSettings(alice, acmeOrg.id, { title: 'European languages', languages: ['fr', 'de', 'es'] });
  // Members who sign in through the demo identity provider join the writers as readers; and a link to join as a commenter.
  await createSamlProvider(alice, acmeOrg.id, {
    label: 'Acme IdP',
    ssoURL: 'https://idp.acme.test/saml/sso',
    entityID: 'https://idp.acme.test/saml/metadata',
    certificate: DEMO_IDP_CERTIFICATE,
    defaultTeam: writers.id,
    defaultRole: 'read',
  });
  await createInvite(alice, acmeOrg.id, { role: 'comment' });
  // docs-gateway's own REST API as an OpenAPI spec, given as text (the demo is seeded before the
  // server listens): processed as the job would, into its first version, here or (deferSpec) once
  // the server listens. Then it is fetched from the server itself (sourceDemoSpecFromServer).
  const ownApi = await createSpec(alice, acmeOrg.id, {
    slug: DEMO_SPEC_SLUG,
    source: { text: demoSpecText(urls) },
  });

  const globex = await createOrganization(db, { title: 'Globex Engineering', hostname: 'globex', emailDomains: ['globex.test'] });
  await ensureMembership(db, globex.id, people.erin.id, 'admin');
  await ensureMembership(db, globex.id, people.alice.id, 'admin');
  const erin = as(people.erin);
  await createTree(erin, globex.id, {
    title: 'Platform',
    spaces: [
      { title: 'Runbooks', emoji: '📟' },
      { title: 'Architecture', emoji: '🏗️' },
    ],
  });
  await createDemoSpace(erin, globex.id, { title: 'Team directory', emoji: '📇' });
  const platform = await listOrganizationSpaces(erin, globex.id, { limit: 10 });
  const platformSite = await createSite(erin, globex.id, {
    title: 'Globex Platform',
    visibility: 'unlisted',
    spaces: platform.items.filter((space) => space.title !== 'Team directory').map((space) => space.id),
  });
  await setSitePublished(erin, globex.id, platformSite.id, true);

  const initech = await createOrganization(db, { title: 'Initech Community', hostname: 'initech' });
  await ensureMembership(db, initech.id, people.frank.id, 'admin');
  await createDemoSpace(as(people.frank), initech.id, { title: 'Community guidelines', emoji: '🤝' });
  // Last, as the bulk load does it after its rows: its version is built from the route table of this build.
  if (!options.deferSpec) await processOpenAPISpec(alice, ownApi.id);
}

/** The demo spec's text: docs-gateway's own OpenAPI document, from the route table of this build. */
export function demoSpecText(urls: PublicUrls): string {
  return JSON.stringify(openApiDocumentOf(restRoutes, urls.api), null, 2);
}

export const DEMO_SPEC_SLUG = 'docs-gateway-api';
