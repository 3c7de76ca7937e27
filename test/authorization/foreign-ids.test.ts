import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/http.ts';
import { expectGraphQLError } from '../support/graphql.ts';
import { type MatrixWorld, buildMatrixWorld } from './fixtures.ts';

/**
 * Ids of another organization where an operation of organization A takes ids:
 * in bodies (parents, move and transfer targets, spaces and sections shown by a
 * site, defaults, revisions) and mixed into paths and GraphQL arguments. The
 * caller is A's admin, who also administers B (so every id is one it may use
 * in its own organization) and has nothing to do with X. Each is refused —
 * 400 for a body naming what is not in this organization, 404 for a path or
 * argument naming what is not there — and changes nothing in any of the three.
 */

let t: TestApp;
let w: MatrixWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildMatrixWorld(t);
}, 120_000);

/** Every row of these organizations that an operation could change. */
async function everything(organizationIds: string[]) {
  const { db } = t.database;
  const inOrganizations = { organizationId: { in: organizationIds } };
  const byId = { id: 'asc' as const };
  const sites = await db.site.findMany({ where: inOrganizations, orderBy: byId });
  const siteIds = sites.map((site) => site.id);
  const spaces = await db.space.findMany({ where: inOrganizations, orderBy: byId, include: { customFieldValues: true } });
  const spaceIds = spaces.map((space) => space.id);
  return {
    organizations: await db.organization.findMany({ where: { id: { in: organizationIds } }, orderBy: byId, include: { emailDomains: true } }),
    members: await db.member.findMany({ where: inOrganizations, orderBy: [{ organizationId: 'asc' }, { userId: 'asc' }] }),
    collections: await db.collection.findMany({ where: inOrganizations, orderBy: byId }),
    spaces,
    changeRequests: await db.changeRequest.findMany({ where: { spaceId: { in: spaceIds } }, orderBy: byId }),
    customFields: await db.customField.findMany({ where: inOrganizations, orderBy: byId }),
    sites,
    sections: await db.siteSection.findMany({ where: { siteId: { in: siteIds } }, orderBy: byId }),
    groups: await db.siteSectionGroup.findMany({ where: { siteId: { in: siteIds } }, orderBy: byId }),
    siteSpaces: await db.siteSpace.findMany({ where: { siteId: { in: siteIds } }, orderBy: byId }),
    shareLinks: await db.shareLink.findMany({ where: { siteId: { in: siteIds } }, orderBy: byId }),
    samlProviders: await db.samlProvider.findMany({ where: inOrganizations, orderBy: byId }),
    invites: await db.invite.findMany({ where: inOrganizations, orderBy: byId }),
    comments: await db.comment.findMany({ where: inOrganizations, orderBy: byId }),
    commentReplies: await db.commentReply.findMany({ where: inOrganizations, orderBy: byId }),
    commentReactions: await db.commentReaction.findMany({ where: inOrganizations, orderBy: [{ targetId: 'asc' }, { userId: 'asc' }, { emoji: 'asc' }] }),
  };
}

interface Refusal {
  name: string;
  method: string;
  url: (w: MatrixWorld) => string;
  body?: (w: MatrixWorld) => unknown;
  status: 400 | 404;
  /** A refusal the service does not make yet: the test is expected to fail until it does. */
}

const site = (w: MatrixWorld, rest = '') => `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}${rest}`;

const REFUSALS: Refusal[] = [
  // Bodies naming objects of B, where the organization is A's
  {
    name: 'a collection of B as the parent of a new collection',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/collections`,
    body: (w) => ({ parent: w.b.collectionId }),
    status: 400,
  },
  {
    name: 'a collection of B as the parent of a new space',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/spaces`,
    body: (w) => ({ parent: w.b.collectionId }),
    status: 400,
  },
  {
    name: 'a collection of X as the parent of a new space',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/spaces`,
    body: (w) => ({ parent: w.x.collectionId }),
    status: 400,
  },
  {
    name: 'moving a collection into a collection of B',
    method: 'POST',
    url: (w) => `/v1/collections/${w.a.collectionId}/move`,
    body: (w) => ({ parent: w.b.collectionId }),
    status: 400,
  },
  {
    name: 'moving a collection next to a space of B',
    method: 'POST',
    url: (w) => `/v1/collections/${w.a.collectionId}/move`,
    body: (w) => ({ position: { before: { type: 'space', space: w.b.spaceId } } }),
    status: 400,
  },
  {
    name: 'moving a space into a collection of B',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/move`,
    body: (w) => ({ parent: w.b.collectionId }),
    status: 400,
  },
  {
    name: 'moving a space into a collection of X',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/move`,
    body: (w) => ({ parent: w.x.collectionId }),
    status: 400,
  },
  {
    name: 'moving a space next to a collection of B',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/move`,
    body: (w) => ({ position: { after: { type: 'collection', collection: w.b.collectionId } } }),
    status: 400,
  },
  {
    name: 'transferring a space to X',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/transfer`,
    body: (w) => ({ organization: w.x.organizationId }),
    status: 400,
  },
  {
    name: 'transferring a collection to X',
    method: 'POST',
    url: (w) => `/v1/collections/${w.a.collectionId}/transfer`,
    body: (w) => ({ organization: w.x.organizationId }),
    status: 400,
  },
  {
    name: 'a new site showing a space of B',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/sites`,
    body: (w) => ({ spaces: [w.b.spaceId] }),
    status: 400,
  },
  {
    name: 'a new site showing a space of X',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/sites`,
    body: (w) => ({ spaces: [w.x.spaceId] }),
    status: 400,
  },
  { name: 'a section showing a space of B', method: 'POST', url: (w) => site(w, '/sections'), body: (w) => ({ spaceId: w.b.spaceId }), status: 400 },
  { name: 'a site space of a space of B', method: 'POST', url: (w) => site(w, '/site-spaces'), body: (w) => ({ spaceId: w.b.spaceId }), status: 400 },
  {
    name: 'a site space in a section of B',
    method: 'POST',
    url: (w) => site(w, '/site-spaces'),
    body: (w) => ({ spaceId: w.a.spaceInCollection, sectionId: w.b.sectionId }),
    status: 400,
  },
  {
    name: 'a new section group holding a section of B',
    method: 'POST',
    url: (w) => site(w, '/section-groups'),
    body: (w) => ({ title: 'Foreign', sections: [w.b.sectionId] }),
    status: 400,
  },
  {
    name: 'adding a section of B to a group',
    method: 'POST',
    url: (w) => site(w, `/section-groups/${w.a.groupId}/sections`),
    body: (w) => ({ sectionId: w.b.sectionId }),
    status: 400,
  },
  { name: 'a section of B as the default section', method: 'PATCH', url: (w) => site(w), body: (w) => ({ defaultSiteSection: w.b.sectionId }), status: 400 },
  {
    name: 'a site space of B as the default site space',
    method: 'PATCH',
    url: (w) => site(w),
    body: (w) => ({ defaultSiteSpace: w.b.siteSpaceId }),
    status: 400,
  },
  {
    name: "a site space of B as a section's default",
    method: 'PATCH',
    url: (w) => site(w, `/sections/${w.a.sectionId}`),
    body: (w) => ({ defaultSiteSpace: w.b.siteSpaceId }),
    status: 400,
  },
  {
    name: 'moving a section next to a section of B',
    method: 'POST',
    url: (w) => site(w, `/sections/${w.a.sectionId}/move`),
    body: (w) => ({ position: { before: { type: 'site-section', siteSection: w.b.sectionId } } }),
    status: 400,
  },
  {
    name: 'moving a section group next to a section of B',
    method: 'POST',
    url: (w) => site(w, `/section-groups/${w.a.groupId}/move`),
    body: (w) => ({ position: { before: { type: 'site-section', id: w.b.sectionId } } }),
    status: 400,
  },
  {
    name: 'moving a site space next to a site space of B',
    method: 'POST',
    url: (w) => site(w, `/site-spaces/${w.a.siteSpaceId}/move`),
    body: (w) => ({ position: { before: { type: 'site-space', siteSpace: w.b.siteSpaceId } } }),
    status: 400,
  },
  {
    name: 'a site of B as the default content of A',
    method: 'PATCH',
    url: (w) => `/v1/orgs/${w.a.organizationId}`,
    body: (w) => ({ defaultContent: { type: 'site', site: w.b.siteId } }),
    status: 400,
  },
  {
    name: 'a custom field of B set on a space of A',
    method: 'PATCH',
    url: (w) => `/v1/spaces/${w.a.spaceId}/custom-fields`,
    body: (w) => ({ values: { [w.b.customFieldName]: { value: 'foreign' } } }),
    status: 400,
  },
  {
    name: 'reverting a page to a revision of a space of B',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/content`,
    body: (w) => ({ changes: [{ operation: 'revert_page', page: w.a.page.id, revision: w.b.revisionId }] }),
    status: 400,
  },
  {
    name: 'reverting a page to a revision that does not exist',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/content`,
    body: (w) => ({ changes: [{ operation: 'revert_page', page: w.a.page.id, revision: 'rev_doesnotexist' }] }),
    status: 400,
  },
  {
    name: 'a new page inside a page of B',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/content`,
    body: (w) => ({ changes: [{ operation: 'insert_page', title: 'Foreign', into: w.b.page.id, document: {} }] }),
    status: 400,
  },

  // Paths mixing A's ids with B's
  {
    name: 'merging a change request of B through a space of A',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.b.changeRequestId}/merge`,
    status: 404,
  },
  {
    name: 'editing a change request of B through a space of A',
    method: 'PATCH',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.b.changeRequestId}`,
    body: () => ({ subject: 'Foreign' }),
    status: 404,
  },
  { name: 'a page of B through a space of A', method: 'GET', url: (w) => `/v1/spaces/${w.a.spaceId}/content/page/${w.b.page.id}`, status: 404 },
  { name: 'a file of B through a space of A', method: 'GET', url: (w) => `/v1/spaces/${w.a.spaceId}/content/files/${w.b.fileId}`, status: 404 },
  { name: 'a revision of B through a space of A', method: 'GET', url: (w) => `/v1/spaces/${w.a.spaceId}/revisions/${w.b.revisionId}`, status: 404 },
  {
    name: 'a page document of a revision of X through a space of A',
    method: 'GET',
    url: (w) => `/v1/spaces/${w.a.spaceId}/revisions/${w.x.revisionId}/page/${w.x.page.id}/document`,
    status: 404,
  },
  {
    name: 'the changes of a revision of B through a space of A',
    method: 'GET',
    url: (w) => `/v1/spaces/${w.a.spaceId}/revisions/${w.b.revisionId}/changes`,
    status: 404,
  },
  {
    name: 'a page of B in a revision of A',
    method: 'GET',
    url: (w) => `/v1/spaces/${w.a.spaceId}/revisions/${w.a.revisionId}/page/${w.b.page.id}`,
    status: 404,
  },
  {
    name: 'a team of B as the default team of a new SAML provider',
    method: 'POST',
    url: (w) => `/v1/orgs/${w.a.organizationId}/saml`,
    body: (w) => ({ label: 'Foreign', defaultTeam: w.b.teamId }),
    status: 400,
  },
  {
    name: "a team of B as a SAML provider's default team",
    method: 'PATCH',
    url: (w) => `/v1/orgs/${w.a.organizationId}/saml/${w.a.samlProviderId}`,
    body: (w) => ({ defaultTeam: w.b.teamId }),
    status: 400,
  },
  {
    name: 'a SAML provider of B through organization A',
    method: 'PATCH',
    url: (w) => `/v1/orgs/${w.a.organizationId}/saml/${w.b.samlProviderId}`,
    body: () => ({ label: 'Foreign' }),
    status: 404,
  },
  {
    name: 'deleting a SAML provider of B through organization A',
    method: 'DELETE',
    url: (w) => `/v1/orgs/${w.a.organizationId}/saml/${w.b.samlProviderId}`,
    status: 404,
  },
  {
    name: 'an invite of B through organization A',
    method: 'PATCH',
    url: (w) => `/v1/orgs/${w.a.organizationId}/link-invites/${w.b.inviteId}`,
    body: () => ({ role: 'admin' }),
    status: 404,
  },
  {
    name: 'deleting an invite of B through organization A',
    method: 'DELETE',
    url: (w) => `/v1/orgs/${w.a.organizationId}/link-invites/${w.b.inviteId}`,
    status: 404,
  },
  { name: 'joining organization A with an invite of X', method: 'POST', url: (w) => `/v1/orgs/${w.a.organizationId}/invites/${w.x.inviteId}`, status: 404 },
  {
    name: 'a site of B through organization A',
    method: 'PATCH',
    url: (w) => `/v1/orgs/${w.a.organizationId}/sites/${w.b.siteId}`,
    body: () => ({ title: 'Foreign' }),
    status: 404,
  },
  { name: 'deleting a site of A through organization B', method: 'DELETE', url: (w) => `/v1/orgs/${w.b.organizationId}/sites/${w.a.siteId}`, status: 404 },
  { name: 'deleting a site of X through organization A', method: 'DELETE', url: (w) => `/v1/orgs/${w.a.organizationId}/sites/${w.x.siteId}`, status: 404 },
  { name: 'a section of B through a site of A', method: 'DELETE', url: (w) => site(w, `/sections/${w.b.sectionId}`), status: 404 },
  { name: 'a section group of B through a site of A', method: 'DELETE', url: (w) => site(w, `/section-groups/${w.b.groupId}`), status: 404 },
  { name: 'a site space of B through a site of A', method: 'DELETE', url: (w) => site(w, `/site-spaces/${w.b.siteSpaceId}`), status: 404 },
  { name: 'a share link of B through a site of A', method: 'DELETE', url: (w) => site(w, `/share-links/${w.b.shareLinkId}`), status: 404 },
  { name: 'a member of X only, through organization A', method: 'DELETE', url: (w) => `/v1/orgs/${w.a.organizationId}/members/${w.outsider.id}`, status: 404 },
  {
    name: 'a custom field of B through organization A',
    method: 'DELETE',
    url: (w) => `/v1/orgs/${w.a.organizationId}/custom-fields/${w.b.customFieldName}`,
    status: 404,
  },
  {
    name: 'a page of B as the page of a comment in A',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/comments`,
    body: (w) => ({ page: w.b.page.id, body: { markdown: 'Foreign' } }),
    status: 400,
  },
  {
    name: 'resolving a comment of B through a space of A',
    method: 'PUT',
    url: (w) => `/v1/spaces/${w.a.spaceId}/comments/${w.b.commentId}`,
    body: () => ({ resolved: true }),
    status: 404,
  },
  { name: 'deleting a comment of B through a space of A', method: 'DELETE', url: (w) => `/v1/spaces/${w.a.spaceId}/comments/${w.b.commentId}`, status: 404 },
  {
    name: "a change request comment of B through A's change request",
    method: 'DELETE',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/comments/${w.b.changeRequestCommentId}`,
    status: 404,
  },
  {
    name: 'commenting in a change request of B through a space of A',
    method: 'POST',
    url: (w) => `/v1/spaces/${w.a.spaceId}/change-requests/${w.b.changeRequestId}/comments`,
    body: () => ({ body: { markdown: 'Foreign' } }),
    status: 404,
  },
  {
    name: 'reacting to a reply of B under a comment of A',
    method: 'PUT',
    url: (w) => `/v1/spaces/${w.a.spaceId}/comments/${w.a.commentId}/replies/${w.b.commentReplyId}`,
    body: () => ({ addedReactions: ['👍'] }),
    status: 404,
  },
];

describe('ids of another organization in REST bodies and paths', () => {
  for (const refusal of REFUSALS) {
    it(`refuses ${refusal.name} (${refusal.status}) and changes nothing`, async () => {
      const organizations = [w.a.organizationId, w.b.organizationId, w.x.organizationId];
      const before = await everything(organizations);
      const response = await t.call(refusal.method, refusal.url(w), {
        token: w.admin.token,
        ...(refusal.body ? { body: refusal.body(w) } : {}),
      });
      expectError(response, refusal.status);
      expect(await everything(organizations)).toEqual(before);
    });
  }
});

describe('revisions of another organization in content changes', () => {
  // revert_page once loaded any revision id: an admin of A who learned two ids of X copied X's page, body included, into A.
  it('reverting to a revision of X does not copy its page into a change request of A', async () => {
    // A page of X that A has no page like (same slug and all).
    const secretSpace = await w.x.make.space();
    await w.x.rest('POST', `/v1/spaces/${secretSpace}/change-requests/${await w.x.make.changeRequest(secretSpace)}/merge`);
    const secretPage = (await w.x.rest('GET', `/v1/spaces/${secretSpace}/content/pages`)).pages[0].id as string;
    const secretRevision = (await w.x.rest('GET', `/v1/spaces/${secretSpace}`)).revision as string;

    const changeRequestId = await w.a.make.changeRequest(w.a.spaceId);
    const base = `/v1/spaces/${w.a.spaceId}/change-requests/${changeRequestId}`;
    const revert = await t.call('POST', `${base}/content`, {
      token: w.admin.token,
      body: { changes: [{ operation: 'revert_page', page: secretPage, revision: secretRevision }] },
    });
    expectError(revert, 400, `changes.0.revision: no revision ${secretRevision} in this space`);
    expectError(await t.call('GET', `${base}/content/page/${secretPage}`, { token: w.admin.token }), 404);
  });
});

describe('ids of another organization in GraphQL arguments', () => {
  const cases: Array<{ name: string; query: string; variables: (w: MatrixWorld) => Record<string, unknown>; code: 400 | 404 }> = [
    {
      name: "a team of B as a SAML provider's default team",
      query: 'mutation($id: ID!, $team: ID!) { updateSamlProvider(input: { samlProviderId: $id, defaultTeamId: $team }) { samlProvider { id } } }',
      variables: (w) => ({ id: w.a.samlProviderId, team: w.b.teamId }),
      code: 400,
    },
    {
      name: 'a SAML provider of X by its id',
      query: 'mutation($id: ID!) { deleteSamlProvider(input: { samlProviderId: $id }) { deletedSamlProviderId } }',
      variables: (w) => ({ id: w.x.samlProviderId }),
      code: 404,
    },
    {
      name: 'an invite of X by its id',
      query: 'mutation($id: ID!) { updateInvite(input: { inviteId: $id, role: admin }) { invite { id } } }',
      variables: (w) => ({ id: w.x.inviteId }),
      code: 404,
    },
    {
      name: 'resolving a comment of X by its id',
      query: 'mutation($id: ID!) { updateComment(input: { commentId: $id, resolved: true }) { comment { id } } }',
      variables: (w) => ({ id: w.x.commentId }),
      code: 404,
    },
    {
      name: 'a change request of B for a comment on a space of A',
      query: 'mutation($space: ID!, $cr: ID!) { createComment(input: { spaceId: $space, changeRequestId: $cr, body: "Foreign" }) { comment { id } } }',
      variables: (w) => ({ space: w.a.spaceId, cr: w.b.changeRequestId }),
      code: 404,
    },
    {
      name: 'merging a change request of X by its id',
      query: 'mutation($id: ID!) { mergeChangeRequest(input: { changeRequestId: $id }) { revision } }',
      variables: (w) => ({ id: w.x.changeRequestId }),
      code: 404,
    },
    {
      name: 'importing into a change request of B through a space of A',
      query: 'mutation($space: ID!, $cr: ID!, $url: String!) { importWebsite(input: { spaceId: $space, changeRequestId: $cr, url: $url }) { revision } }',
      variables: (w) => ({ space: w.a.spaceId, cr: w.b.changeRequestId, url: w.website }),
      code: 404,
    },
    {
      name: 'a section showing a space of A on a site of B',
      query: 'mutation($site: ID!, $space: ID!) { createSiteSection(input: { siteId: $site, spaceId: $space }) { section { id } } }',
      variables: (w) => ({ site: w.b.siteId, space: w.a.spaceId }),
      code: 400,
    },
    {
      name: 'a site space of a space of B on a site of A',
      query: 'mutation($site: ID!, $space: ID!) { addSiteSpace(input: { siteId: $site, spaceId: $space }) { siteSpace { id } } }',
      variables: (w) => ({ site: w.a.siteId, space: w.b.spaceId }),
      code: 400,
    },
    {
      name: 'moving a space of A into a collection of B',
      query: 'mutation($space: ID!, $parent: ID!) { moveSpace(input: { spaceId: $space, parent: $parent }) { space { id } } }',
      variables: (w) => ({ space: w.a.spaceId, parent: w.b.collectionId }),
      code: 400,
    },
    {
      name: 'transferring a collection of A to X',
      query: 'mutation($collection: ID!, $to: ID!) { transferCollection(input: { collectionId: $collection, organization: $to }) { collection { id } } }',
      variables: (w) => ({ collection: w.a.collectionId, to: w.x.organizationId }),
      code: 400,
    },
    {
      name: 'a revision of B read through a space of A',
      query: 'query($space: ID!, $id: ID!) { revision(spaceId: $space, id: $id) { id } }',
      variables: (w) => ({ space: w.a.spaceId, id: w.b.revisionId }),
      code: 404,
    },
    {
      name: 'a custom field of X read through organization A',
      query: 'query($org: ID!, $name: String!) { customField(organizationId: $org, name: $name) { id } }',
      variables: (w) => ({ org: w.a.organizationId, name: w.x.customFieldName }),
      code: 404,
    },
  ];
  for (const { name, query, variables, code } of cases) {
    it(`refuses ${name} (${code}) and changes nothing`, async () => {
      const organizations = [w.a.organizationId, w.b.organizationId, w.x.organizationId];
      const before = await everything(organizations);
      expectGraphQLError(await t.graphql(w.admin.token, query, variables(w)), code);
      expect(await everything(organizations)).toEqual(before);
    });
  }

  it('node and nodes answer ids of X as not found, next to the ids of A they answer', async () => {
    const ids = [
      w.x.spaceId,
      w.x.collectionId,
      w.x.siteId,
      w.x.changeRequestId,
      w.x.sectionId,
      w.x.groupId,
      w.x.siteSpaceId,
      w.x.organizationId,
      w.outsider.id,
    ];
    for (const id of ids) expectGraphQLError(await t.graphql(w.admin.token, 'query($id: ID!) { node(id: $id) { id } }', { id }), 404);
    const result = await t.graphql(w.admin.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [w.a.spaceId, ...ids] });
    expect(result.data.nodes).toEqual([{ id: w.a.spaceId }, ...ids.map(() => null)]);
    expect(result.errors!.map((error) => error.extensions?.code)).toEqual(ids.map(() => 404));
  });
});
