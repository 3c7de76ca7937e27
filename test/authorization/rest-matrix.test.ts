import { beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/plugin.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { unique } from '../support/factories.ts';
import { type MatrixWorld, PRINCIPALS, type Principal, type Rule, buildMatrixWorld, content, expectedStatus, organization } from './fixtures.ts';

/**
 * Every REST operation of the route table, called by every kind of caller:
 * no token, an unknown token, the admin of another organization, a guest, and
 * a member at each role level. The table below classifies each operation (who
 * may call it, and how to build a valid call); an operation added to the route
 * table fails the first test until it is classified here.
 */

let t: TestApp;
let w: MatrixWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildMatrixWorld(t);
}, 120_000);

/** A valid call of an operation: its path parameters, body and query string. */
interface Call {
  params: Record<string, string>;
  body?: unknown;
  query?: string;
}

interface Operation {
  rule: Rule;
  /** A valid call as A's admin would make it. */
  call(w: MatrixWorld): Promise<Call> | Call;
  /** The call destroys or consumes its object (or its body must be unique): build one per caller. */
  fresh?: true;
}

const org = (w: MatrixWorld) => ({ organizationId: w.a.organizationId });
const space = (w: MatrixWorld) => ({ spaceId: w.a.spaceId });
const changeRequest = (w: MatrixWorld) => ({ spaceId: w.a.spaceId, changeRequestId: w.a.changeRequestId });
const revision = (w: MatrixWorld) => ({ spaceId: w.a.spaceId, revisionId: w.a.revisionId });
const site = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, siteId: w.a.siteId });
const team = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, teamId: w.a.teamId });
const openApiSpec = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, specSlug: w.a.openApiSpecSlug });
/** The published address of a public site of A (made once). */
let publishedSite: Promise<string> | undefined;
function publishedSiteUrl(w: MatrixWorld): Promise<string> {
  publishedSite ??= (async () => {
    const siteId = await w.a.make.site({ visibility: 'public' });
    await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${siteId}/site-spaces`, { spaceId: w.a.spaceId }, 201);
    return (await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${siteId}/publish`)).urls.published as string;
  })();
  return publishedSite;
}
/** An open change request of A's space, opened by A's editor (an author never reviews their own change request). */
async function changeRequestByEditor(w: MatrixWorld): Promise<string> {
  const response = await t.call('POST', `/v1/spaces/${w.a.spaceId}/change-requests`, { token: w.members.edit.token, body: { subject: 'To review' } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** A review of A's change request, by A's reviewer (kept for the file). */
let review: Promise<string> | undefined;
function reviewOf(w: MatrixWorld): Promise<string> {
  review ??= (async () => {
    const response = await t.call('POST', `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/reviews`, {
      token: w.members.review.token,
      body: { status: 'approved' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  })();
  return review;
}

/** The eight permission operations of spaces or collections, on A's `target` (grants of `read` to the subject and A's team: they raise no one). */
function contentPermissionOperations(kind: 'Space' | 'Collection' | 'Site', target: (w: MatrixWorld) => Record<string, string>): Record<string, Operation> {
  const path = (w: MatrixWorld) =>
    kind === 'Site'
      ? `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/permissions`
      : `/v1/${kind === 'Space' ? 'spaces' : 'collections'}/${Object.values(target(w))[0]}/permissions`;
  const granted = async (w: MatrixWorld, grantee: 'users' | 'teams') => {
    const id = grantee === 'users' ? (await w.freshMember()).id : w.a.teamId;
    await w.a.rest('POST', path(w), { role: 'read', [grantee]: [id] }, 204);
    return id;
  };
  return {
    [`inviteTo${kind}`]: { rule: content('admin'), call: (w) => ({ params: target(w), body: { role: 'read', users: [w.subject.id] } }) },
    [`listUserPermissionsIn${kind}`]: { rule: content('read'), call: (w) => ({ params: target(w) }) },
    [`updateUserPermissionIn${kind}`]: { rule: content('admin'), call: (w) => ({ params: { ...target(w), userId: w.subject.id }, body: { role: 'read' } }) },
    [`removeUserFrom${kind}`]: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...target(w), userId: await granted(w, 'users') } }) },
    [`listTeamPermissionsIn${kind}`]: { rule: content('read'), call: (w) => ({ params: target(w) }) },
    [`updateTeamPermissionIn${kind}`]: { rule: content('admin'), call: (w) => ({ params: { ...target(w), teamId: w.a.teamId }, body: { role: 'read' } }) },
    [`removeTeamFrom${kind}`]: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...target(w), teamId: await granted(w, 'teams') } }) },
    [`listPermissionsAggregateIn${kind}`]: { rule: content('read'), call: (w) => ({ params: target(w) }) },
  };
}

const edit = { changes: [{ operation: 'insert_page', title: 'Matrix page', document: {} }] };

const REST_OPERATIONS: Record<string, Operation> = {
  // OpenAPI specs: seen by non-guest members, written by `create` members (createOpenAPISpec)
  listOpenAPISpecs: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  createOpenAPISpec: {
    rule: organization('create'),
    fresh: true,
    call: (w) => ({ params: org(w), body: { slug: `matrix-${unique().toLowerCase()}`, source: { text: '{}' } } }),
  },
  getOpenAPISpecBySlug: { rule: organization('read'), call: (w) => ({ params: openApiSpec(w) }) },
  createOrUpdateOpenAPISpecBySlug: {
    rule: organization('create'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), specSlug: await w.a.make.openApiSpec() }, body: { source: { text: '{}' } } }),
  },
  deleteOpenAPISpecBySlug: {
    rule: organization('create'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), specSlug: await w.a.make.openApiSpec() } }),
  },
  listOpenAPISpecVersions: { rule: organization('read'), call: (w) => ({ params: openApiSpec(w) }) },
  getLatestOpenAPISpecVersion: { rule: organization('read'), call: (w) => ({ params: openApiSpec(w) }) },
  getLatestOpenAPISpecVersionContent: { rule: organization('read'), call: (w) => ({ params: openApiSpec(w) }) },
  getOpenAPISpecVersionById: { rule: organization('read'), call: (w) => ({ params: { ...openApiSpec(w), versionId: w.a.openApiVersionId } }) },
  getOpenAPISpecVersionContentById: { rule: organization('read'), call: (w) => ({ params: { ...openApiSpec(w), versionId: w.a.openApiVersionId } }) },

  // Users and organizations
  getAuthenticatedUser: { rule: 'anyone', call: () => ({ params: {} }) },
  // Another member is seen through an organization whose members the caller may list: not by guests.
  getUserById: { rule: content('read'), call: (w) => ({ params: { userId: w.subject.id } }) },
  listOrganizationsForAuthenticatedUser: { rule: 'anyone', call: () => ({ params: {} }) },
  getOrganizationById: { rule: 'member', call: (w) => ({ params: org(w) }) },
  // The audit log: admins only.
  listOrganizationAuditEventActions: { rule: organization('admin'), call: (w) => ({ params: org(w) }) },
  listOrganizationAuditEvents: { rule: organization('admin'), call: (w) => ({ params: org(w) }) },
  getOrganizationAuditEvent: {
    rule: organization('admin'),
    call: async (w) => ({
      params: { ...org(w), auditEventId: (await t.database.db.auditEvent.findFirstOrThrow({ where: { organizationId: w.a.organizationId } })).id },
    }),
  },
  updateOrganizationById: { rule: organization('admin'), call: (w) => ({ params: org(w), body: { title: 'Organization A' } }) },
  getOrganizationsForEmailDomain: { rule: 'anyone', call: () => ({ params: { emailDomain: 'example.test' } }) },
  searchOrganizationContent: { rule: organization('read'), call: (w) => ({ params: org(w), query: 'query=guide' }) },

  // Members
  listMembersInOrganizationById: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  getMemberInOrganizationById: { rule: organization('read'), call: (w) => ({ params: { ...org(w), userId: w.subject.id } }) },
  updateMemberInOrganizationById: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), userId: w.subject.id }, body: { role: 'read' } }),
  },
  removeMemberFromOrganizationById: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), userId: (await w.freshMember()).id } }),
  },
  updateOrganizationMemberLastSeenAt: { rule: 'member', call: (w) => ({ params: org(w) }) },
  setUserAsSSOMemberForOrganization: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), userId: w.subject.id } }) },
  listSpacesForOrganizationMember: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), userId: w.subject.id } }) },
  listTeamsForOrganizationMember: { rule: organization('read'), call: (w) => ({ params: { ...org(w), userId: w.subject.id } }) },

  // Translation settings
  listTranslations: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  createTranslation: { rule: organization('admin'), call: (w) => ({ params: org(w), body: { title: 'Matrix languages', languages: ['de'] } }) },
  getTranslation: { rule: organization('read'), call: (w) => ({ params: { ...org(w), translationSettingsId: w.a.translationSettingsId } }) },
  updateTranslation: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), translationSettingsId: w.a.translationSettingsId }, body: { title: 'Matrix languages' } }),
  },
  deleteTranslation: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), translationSettingsId: await w.a.make.translationSettings() } }),
  },

  // Teams
  listTeamsInOrganizationById: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  createOrganizationTeam: { rule: organization('admin'), call: (w) => ({ params: org(w), body: { title: 'Matrix team', members: [w.subject.id] } }) },
  getTeamInOrganizationById: { rule: organization('read'), call: (w) => ({ params: team(w) }) },
  updateTeamInOrganizationById: { rule: organization('admin'), call: (w) => ({ params: team(w), body: { title: 'Matrix team' } }) },
  removeTeamFromOrganizationById: { rule: organization('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), teamId: await w.a.make.team() } }) },
  listTeamMembersInOrganizationById: { rule: organization('read'), call: (w) => ({ params: team(w) }) },
  updateMembersInOrganizationTeam: { rule: organization('admin'), call: (w) => ({ params: team(w), body: { add: [w.subject.id] } }) },
  addMemberToOrganizationTeamById: { rule: organization('admin'), call: (w) => ({ params: { ...team(w), userId: w.subject.id }, body: { role: 'member' } }) },
  deleteMemberFromOrganizationTeamById: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), teamId: await w.a.make.team([w.subject.id]), userId: w.subject.id } }),
  },

  // Invites: managed by admins; a link invite read by anyone holding its id; anyone joins with one
  listOrganizationInviteLinks: { rule: organization('admin'), call: (w) => ({ params: org(w) }) },
  createOrganizationInvite: { rule: organization('admin'), call: (w) => ({ params: org(w), body: { role: 'read' } }) },
  getOrganizationInviteLink: { rule: 'anyone', call: (w) => ({ params: { ...org(w), inviteId: w.a.inviteId } }) },
  updateOrganizationInviteById: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), inviteId: w.a.inviteId }, body: { role: 'read' } }) },
  deleteOrganizationInviteById: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), inviteId: await w.a.make.linkInvite() } }),
  },
  inviteUsersToOrganization: {
    rule: organization('admin'),
    call: (w) => ({ params: org(w), body: { emails: ['matrix-invitee@example.test'], role: 'read' } }),
  },
  // Into organization B (A's admin administers it), as a guest: joining changes no caller's access to A.
  joinOrganizationWithInvite: {
    rule: 'anyone',
    fresh: true,
    call: async (w) => ({ params: { organizationId: w.b.organizationId, inviteId: await w.b.make.linkInvite(null) } }),
  },

  // SAML providers: configured by admins; sign-in information for any authenticated caller
  listSAMLProvidersInOrganizationById: { rule: organization('admin'), call: (w) => ({ params: org(w) }) },
  createOrganizationSAMLProvider: { rule: organization('admin'), call: (w) => ({ params: org(w), body: { label: 'Matrix IdP' } }) },
  getOrganizationSAMLProviderById: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), samlProviderId: w.a.samlProviderId } }) },
  updateOrganizationSAMLProvider: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), samlProviderId: w.a.samlProviderId }, body: { label: 'Matrix IdP' } }),
  },
  deleteOrganizationSAMLProvider: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), samlProviderId: await w.a.make.samlProvider() } }),
  },
  listSSOProviderLoginsInOrganization: { rule: 'anyone', call: (w) => ({ params: org(w) }) },

  // Webhooks: admins only
  listWebhooksInOrganizationById: { rule: organization('admin'), call: (w) => ({ params: org(w) }) },
  createOrganizationWebhook: {
    rule: organization('admin'),
    call: (w) => ({ params: org(w), body: { url: 'http://127.0.0.1:9/matrix', events: ['comment_reply_posted'] } }),
  },
  getOrganizationWebhookById: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId } }) },
  updateOrganizationWebhook: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId }, body: { events: ['comment_reply_posted'] } }),
  },
  deleteOrganizationWebhook: { rule: organization('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), webhookId: await w.a.make.webhook() } }) },
  rotateOrganizationWebhookSecret: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId } }) },
  listOrganizationWebhookDeliveries: { rule: organization('admin'), call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId } }) },
  getOrganizationWebhookDelivery: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId, deliveryId: w.a.webhookDeliveryId } }),
  },
  redeliverOrganizationWebhookDelivery: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), webhookId: w.a.webhookId, deliveryId: w.a.webhookDeliveryId } }),
  },

  // Collections
  listCollectionsInOrganizationById: { rule: 'member', call: (w) => ({ params: org(w) }) },
  createCollection: { rule: organization('create'), call: (w) => ({ params: org(w), body: { title: 'Matrix collection' } }) },
  getCollectionById: { rule: content('read'), call: (w) => ({ params: { collectionId: w.a.collectionId } }) },
  updateCollectionById: { rule: content('admin'), call: (w) => ({ params: { collectionId: w.a.collectionId }, body: { description: 'Matrix' } }) },
  deleteCollectionById: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { collectionId: await w.a.make.collection() } }) },
  listSpacesInCollectionById: { rule: content('read'), call: (w) => ({ params: { collectionId: w.a.collectionId } }) },
  moveCollection: { rule: content('admin'), call: (w) => ({ params: { collectionId: w.a.collectionId }, body: { position: {} } }) },
  transferCollection: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { collectionId: await w.a.make.collection() }, body: { organization: w.transferTargetId } }),
  },

  // Space and collection permissions: admins of the content give roles; whoever sees it sees who has one.
  ...contentPermissionOperations('Space', (w) => ({ spaceId: w.a.spaceId })),
  ...contentPermissionOperations('Collection', (w) => ({ collectionId: w.a.collectionId })),

  // Spaces
  // Guests list what they were granted (nothing here).
  listSpacesInOrganizationById: { rule: 'member', call: (w) => ({ params: org(w) }) },
  createSpace: { rule: organization('create'), call: (w) => ({ params: org(w), body: { title: 'Matrix space' } }) },
  getSpaceById: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  updateSpaceById: { rule: content('admin'), call: (w) => ({ params: space(w), body: { title: 'Guide space' } }) },
  deleteSpaceById: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { spaceId: await w.a.make.space() } }) },
  // Needs `create` where the copy goes (the organization's top level here).
  duplicateSpace: { rule: content('create'), call: (w) => ({ params: space(w) }) },
  restoreSpace: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { spaceId: await w.a.make.deletedSpace() } }) },
  moveSpace: { rule: content('admin'), call: (w) => ({ params: space(w), body: { position: {} } }) },
  transferSpace: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: await w.a.make.space() }, body: { organization: w.transferTargetId } }),
  },
  getSpaceCustomFields: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  updateSpaceCustomFields: {
    rule: content('edit'),
    call: (w) => ({ params: space(w), body: { values: { [w.a.customFieldName]: { value: 'matrix' } } } }),
  },
  searchSpaceContent: { rule: content('read'), call: (w) => ({ params: space(w), query: 'query=guide' }) },
  listSpaceLinks: { rule: content('read'), call: (w) => ({ params: space(w) }) },

  // Space content
  getCurrentRevision: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  importContent: {
    rule: content('edit'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: await w.a.make.space() }, body: { url: w.website, source: 'website' } }),
  },
  // Git sync: queued (204) for editors; the state of a space that was synced once (the import queued here fails later: nothing answers there).
  importGitRepository: {
    rule: content('edit'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: await w.a.make.space() }, body: { url: 'http://127.0.0.1:9/none.git', ref: 'main' } }),
  },
  exportToGitRepository: {
    rule: content('edit'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: await w.a.make.space() }, body: { url: 'http://127.0.0.1:9/none.git', ref: 'main', commitMessage: 'Export' } }),
  },
  getSpaceGitInfo: {
    rule: content('read'),
    call: async (w) => {
      await w.a.rest('POST', `/v1/spaces/${w.a.spaceId}/git/import`, { url: 'http://127.0.0.1:9/none.git', ref: 'main' }, 204);
      return { params: space(w) };
    },
  },
  // A space bound to a repository: space admins only (the binding made here syncs later and fails: nothing answers there).
  getSpaceGitBinding: {
    rule: content('admin'),
    call: async (w) => {
      await w.a.rest('PUT', `/v1/spaces/${w.a.spaceId}/git/binding`, { url: 'http://127.0.0.1:9/none.git' }, 200);
      return { params: space(w) };
    },
  },
  putSpaceGitBinding: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: await w.a.make.space() }, body: { url: 'http://127.0.0.1:9/none.git', branch: 'main' } }),
  },
  deleteSpaceGitBinding: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => {
      const spaceId = await w.a.make.space();
      await w.a.rest('PUT', `/v1/spaces/${spaceId}/git/binding`, { url: 'http://127.0.0.1:9/none.git' }, 200);
      return { params: { spaceId } };
    },
  },
  syncSpaceGitBinding: {
    rule: content('admin'),
    call: async (w) => {
      await w.a.rest('PUT', `/v1/spaces/${w.a.spaceId}/git/binding`, { url: 'http://127.0.0.1:9/none.git' }, 200);
      return { params: space(w) };
    },
  },
  listPages: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  getPageById: { rule: content('read'), call: (w) => ({ params: { ...space(w), pageId: w.a.page.id } }) },
  getPageByPath: { rule: content('read'), call: (w) => ({ params: { ...space(w), pagePath: w.a.page.path } }) },
  listFiles: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  getFileById: { rule: content('read'), call: (w) => ({ params: { ...space(w), fileId: w.a.fileId } }) },
  listFileBacklinks: { rule: content('read'), call: (w) => ({ params: { ...space(w), fileId: w.a.fileId } }) },
  listPageLinks: { rule: content('read'), call: (w) => ({ params: { ...space(w), pageId: w.a.page.id } }) },
  listSpacePageMetaLinks: { rule: content('read'), call: (w) => ({ params: { ...space(w), pageId: w.a.page.id } }) },

  // Change requests
  listChangeRequestsForSpace: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  createChangeRequest: { rule: content('edit'), call: (w) => ({ params: space(w), body: { subject: 'Matrix' } }) },
  getChangeRequestById: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getChangeRequestChanges: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  // Reviews: a change request A's editor opened, so that A's admin, never its author, may review it.
  getReviewsByChangeRequestId: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getChangeRequestReviewById: {
    rule: content('read'),
    call: async (w) => ({ params: { ...changeRequest(w), reviewId: await reviewOf(w) } }),
  },
  getRequestedReviewersByChangeRequestId: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getContributorsByChangeRequestId: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  submitChangeRequestReview: {
    rule: content('review'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: w.a.spaceId, changeRequestId: await changeRequestByEditor(w) }, body: { status: 'approved' } }),
  },
  // Editors, or its author (A's admin here).
  requestReviewersForChangeRequest: {
    rule: content('edit'),
    fresh: true,
    call: (w) => ({ params: changeRequest(w), body: { users: [w.members.review.id] } }),
  },
  removeRequestedReviewerFromChangeRequest: {
    rule: content('edit'),
    fresh: true,
    call: async (w) => {
      // Requested first, so that there is one to remove (205).
      const requested = await t.call('POST', `/v1/spaces/${w.a.spaceId}/change-requests/${w.a.changeRequestId}/requested-reviewers`, {
        token: w.admin.token,
        body: { users: [w.members.review.id] },
      });
      expect(requested.statusCode, requested.body).toBeLessThan(300);
      return { params: { ...changeRequest(w), userId: w.members.review.id } };
    },
  },
  // Editors, or its author (A's admin here).
  updateChangeRequestById: { rule: content('edit'), call: (w) => ({ params: changeRequest(w), body: { subject: 'Matrix' } }) },
  mergeChangeRequest: {
    rule: content('review'),
    fresh: true,
    call: async (w) => ({ params: { spaceId: w.a.spaceId, changeRequestId: await w.a.make.changeRequest(w.a.spaceId) } }),
  },
  updateChangeRequest: { rule: content('edit'), call: (w) => ({ params: changeRequest(w) }) },
  updateChangeRequestContent: { rule: content('edit'), call: (w) => ({ params: changeRequest(w), body: edit }) },
  getChangeRequestPDF: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },

  // Change request content (the change request started from the space content: same page and file)
  getRevisionOfChangeRequestById: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  importContentInChangeRequest: {
    rule: content('edit'),
    fresh: true,
    call: async (w) => ({
      params: { spaceId: w.a.spaceId, changeRequestId: await w.a.make.changeRequest(w.a.spaceId) },
      body: { url: w.website, source: 'website' },
    }),
  },
  listPagesInChangeRequest: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getPageInChangeRequestById: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), pageId: w.a.page.id } }) },
  getPageInChangeRequestByPath: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), pagePath: w.a.page.path } }) },
  listFilesInChangeRequestById: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getFileInChangeRequestById: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), fileId: w.a.fileId } }) },
  listFileBacklinksInChangeRequest: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), fileId: w.a.fileId } }) },
  listPageLinksInChangeRequest: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), pageId: w.a.page.id } }) },
  listChangeRequestPageMetaLinks: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), pageId: w.a.page.id } }) },

  // A revision of the space by id (its content when the fixtures were built, with the same page and file)
  getRevisionById: { rule: content('read'), call: (w) => ({ params: revision(w) }) },
  listPagesInRevisionById: { rule: content('read'), call: (w) => ({ params: revision(w) }) },
  getPageInRevisionById: { rule: content('read'), call: (w) => ({ params: { ...revision(w), pageId: w.a.page.id } }) },
  getPageInRevisionByPath: { rule: content('read'), call: (w) => ({ params: { ...revision(w), pagePath: w.a.page.path } }) },
  getPageDocumentInRevisionById: { rule: content('read'), call: (w) => ({ params: { ...revision(w), pageId: w.a.page.id }, query: 'evaluated=true' }) },
  listRevisionPageMetaLinks: { rule: content('read'), call: (w) => ({ params: { ...revision(w), pageId: w.a.page.id } }) },
  listFilesInRevisionById: { rule: content('read'), call: (w) => ({ params: revision(w) }) },
  getFileInRevisionById: { rule: content('read'), call: (w) => ({ params: { ...revision(w), fileId: w.a.fileId } }) },
  listFileBacklinksInRevision: { rule: content('read'), call: (w) => ({ params: { ...revision(w), fileId: w.a.fileId } }) },
  listPageLinksInRevision: { rule: content('read'), call: (w) => ({ params: { ...revision(w), pageId: w.a.page.id } }) },
  getRevisionSemanticChanges: { rule: content('read'), call: (w) => ({ params: revision(w), query: 'limit=5' }) },

  // Comments: readers read them, `comment` posts, replies, reacts and resolves, admins delete any (authors their own)
  listCommentsInSpace: { rule: content('read'), call: (w) => ({ params: space(w), query: 'status=open&order=asc' }) },
  postCommentInSpace: { rule: content('comment'), call: (w) => ({ params: space(w), body: { body: { markdown: 'Matrix' }, page: w.a.page.id } }) },
  getCommentInSpace: { rule: content('read'), call: (w) => ({ params: { ...space(w), commentId: w.a.commentId } }) },
  updateCommentInSpace: {
    rule: content('comment'),
    call: (w) => ({ params: { ...space(w), commentId: w.a.commentId }, body: { resolved: true, addedReactions: ['👍'] } }),
  },
  deleteCommentInSpace: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...space(w), commentId: await w.a.make.comment(w.a.spaceId) } }),
  },
  listCommentRepliesInSpace: { rule: content('read'), call: (w) => ({ params: { ...space(w), commentId: w.a.commentId } }) },
  postCommentReplyInSpace: {
    rule: content('comment'),
    call: (w) => ({ params: { ...space(w), commentId: w.a.commentId }, body: { body: { markdown: 'Matrix' } } }),
  },
  getCommentReplyInSpace: { rule: content('read'), call: (w) => ({ params: { ...space(w), commentId: w.a.commentId, commentReplyId: w.a.commentReplyId } }) },
  updateCommentReplyInSpace: {
    rule: content('comment'),
    call: (w) => ({ params: { ...space(w), commentId: w.a.commentId, commentReplyId: w.a.commentReplyId }, body: { addedReactions: ['🎉'] } }),
  },
  deleteCommentReplyInSpace: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...space(w), commentId: w.a.commentId, commentReplyId: await w.a.make.commentReply(w.a.spaceId, w.a.commentId) } }),
  },
  listCommentsInChangeRequest: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  postCommentInChangeRequest: { rule: content('comment'), call: (w) => ({ params: changeRequest(w), body: { body: { markdown: 'Matrix' } } }) },
  getCommentInChangeRequest: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId } }) },
  updateCommentInChangeRequest: {
    rule: content('comment'),
    call: (w) => ({ params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId }, body: { resolved: false } }),
  },
  deleteCommentInChangeRequest: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...changeRequest(w), commentId: await w.a.make.comment(w.a.spaceId, w.a.changeRequestId) } }),
  },
  listCommentRepliesInChangeRequest: { rule: content('read'), call: (w) => ({ params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId } }) },
  postCommentReplyInChangeRequest: {
    rule: content('comment'),
    call: (w) => ({ params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId }, body: { body: { markdown: 'Matrix' } }, query: 'format=document' }),
  },
  getCommentReplyInChangeRequest: {
    rule: content('read'),
    call: (w) => ({ params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId, commentReplyId: w.a.changeRequestCommentReplyId } }),
  },
  updateCommentReplyInChangeRequest: {
    rule: content('comment'),
    call: (w) => ({
      params: { ...changeRequest(w), commentId: w.a.changeRequestCommentId, commentReplyId: w.a.changeRequestCommentReplyId },
      body: { removedReactions: ['🎉'] },
    }),
  },

  deleteCommentReplyInChangeRequest: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({
      params: {
        ...changeRequest(w),
        commentId: w.a.changeRequestCommentId,
        commentReplyId: await w.a.make.commentReply(w.a.spaceId, w.a.changeRequestCommentId, w.a.changeRequestId),
      },
    }),
  },

  // Custom fields: read by non-guest members, managed by admins
  listCustomFields: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  createCustomField: {
    rule: organization('admin'),
    fresh: true,
    call: (w) => ({ params: org(w), body: { name: `matrix_${unique()}`, type: 'text' } }),
  },
  getCustomField: { rule: organization('read'), call: (w) => ({ params: { ...org(w), fieldName: w.a.customFieldName } }) },
  updateCustomField: {
    rule: organization('admin'),
    call: (w) => ({ params: { ...org(w), fieldName: w.a.customFieldName }, body: { description: 'Matrix' } }),
  },
  deleteCustomField: {
    rule: organization('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...org(w), fieldName: await w.a.make.customField() } }),
  },

  // Sites: seen by non-guest members (guests cannot see them: 404), configured by admins
  // Guests list the sites granted to them (none here).
  listSites: { rule: 'member', call: (w) => ({ params: org(w) }) },
  ...contentPermissionOperations('Site', (w) => ({ organizationId: w.a.organizationId, siteId: w.a.siteId })),
  createSite: { rule: organization('create'), call: (w) => ({ params: org(w), body: { title: 'Matrix site' } }) },
  getSiteById: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  updateSiteById: { rule: content('admin'), call: (w) => ({ params: site(w), body: { title: 'Matrix site' } }) },
  deleteSiteById: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  publishSite: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  unpublishSite: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  getSiteAdaptiveSchema: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  updateSiteAdaptiveSchema: { rule: content('admin'), call: (w) => ({ params: site(w), body: { jsonSchema: w.adaptiveSchema } }) },
  getSitePublishingAuthById: { rule: content('admin'), call: (w) => ({ params: site(w) }) },
  regenerateSitePublishingAuthById: { rule: content('admin'), call: (w) => ({ params: site(w) }) },
  updateSitePublishingAuthById: { rule: content('admin'), call: (w) => ({ params: site(w), body: { backend: 'custom' } }) },
  getSitePublishingPreviewById: { rule: content('admin'), call: (w) => ({ params: site(w) }) },
  // URL lookups of published sites: open to anyone, without a token too (what an anonymous visitor may know).
  resolvePublishedContentByUrl: { rule: 'public', call: async (w) => ({ params: {}, body: { url: await publishedSiteUrl(w) } }) },
  getPublishedContentByUrl: { rule: 'public', call: async (w) => ({ params: {}, query: `url=${encodeURIComponent(await publishedSiteUrl(w))}` }) },
  // Unpublished: only members who see the site (published sites are for their audience, asserted below).
  getPublishedContentSite: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  listSiteShareLinks: { rule: content('admin'), call: (w) => ({ params: site(w) }) },
  createSiteShareLink: { rule: content('admin'), call: (w) => ({ params: site(w), body: { name: 'Matrix' } }) },
  updateSiteShareLinkById: {
    rule: content('admin'),
    call: (w) => ({ params: { ...site(w), shareLinkId: w.a.shareLinkId }, body: { name: 'Matrix' } }),
  },
  deleteSiteShareLinkById: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...site(w), shareLinkId: await w.a.make.shareLink(w.a.siteId) } }),
  },
  listSiteSections: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  addSectionToSite: { rule: content('admin'), call: (w) => ({ params: site(w), body: { spaceId: w.a.spaceId } }) },
  updateSiteSectionById: {
    rule: content('admin'),
    call: (w) => ({ params: { ...site(w), siteSectionId: w.a.sectionId }, body: { title: 'Matrix section' } }),
  },
  deleteSiteSectionById: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...site(w), siteSectionId: await w.a.make.section(w.a.siteId, w.a.spaceId) } }),
  },
  moveSiteSection: { rule: content('admin'), call: (w) => ({ params: { ...site(w), siteSectionId: w.a.sectionId }, body: {} }) },
  listSiteSectionGroups: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  addSectionGroupToSite: { rule: content('admin'), call: (w) => ({ params: site(w), body: { title: 'Matrix group' } }) },
  updateSiteSectionGroupById: {
    rule: content('admin'),
    call: (w) => ({ params: { ...site(w), siteSectionGroupId: w.a.groupId }, body: { title: 'Matrix group' } }),
  },
  deleteSiteSectionGroupById: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...site(w), siteSectionGroupId: await w.a.make.group(w.a.siteId) } }),
  },
  addSectionToSectionGroup: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({
      params: { ...site(w), siteSectionGroupId: w.a.groupId },
      body: { sectionId: await w.a.make.section(w.a.siteId, w.a.spaceId) },
    }),
  },
  removeSectionFromSectionGroup: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => {
      const sectionId = await w.a.make.section(w.a.siteId, w.a.spaceId);
      return { params: { ...site(w), siteSectionGroupId: await w.a.make.group(w.a.siteId, [sectionId]), siteSectionId: sectionId } };
    },
  },
  moveSiteSectionGroup: { rule: content('admin'), call: (w) => ({ params: { ...site(w), siteSectionGroupId: w.a.groupId }, body: {} }) },
  listSiteSpaces: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  addSpaceToSite: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: site(w), body: { spaceId: await w.a.make.space(), sectionId: w.a.sectionId } }),
  },
  updateSiteSpaceById: {
    rule: content('admin'),
    call: (w) => ({ params: { ...site(w), siteSpaceId: w.a.siteSpaceId }, body: { path: 'matrix' } }),
  },
  deleteSiteSpaceById: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => ({ params: { ...site(w), siteSpaceId: await w.a.make.siteSpace(w.a.siteId, await w.a.make.space(), w.a.sectionId) } }),
  },
  moveSiteSpace: { rule: content('admin'), call: (w) => ({ params: { ...site(w), siteSpaceId: w.a.siteSpaceId }, body: {} }) },
  duplicateSiteSpace: { rule: content('admin'), fresh: true, call: (w) => ({ params: { ...site(w), siteSpaceId: w.a.siteSpaceId }, body: {} }) },

  // Site redirects: read by members who see the site, changed by admins
  listSiteRedirects: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  createSiteRedirect: {
    rule: content('admin'),
    fresh: true,
    call: (w) => ({ params: site(w), body: { source: `/m-${unique()}`, destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId } } }),
  },
  bulkUpsertSiteRedirects: {
    rule: content('admin'),
    call: (w) => ({ params: site(w), body: { redirects: [{ source: '/matrix-bulk', destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId } }] } }),
  },
  updateSiteRedirectById: {
    rule: content('admin'),
    call: async (w) => ({ params: { ...site(w), siteRedirectId: await matrixRedirect(w) }, body: { permanent: true } }),
  },
  deleteSiteRedirectById: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...site(w), siteRedirectId: await matrixRedirect(w) } }) },
  getSiteRedirectBySource: {
    rule: content('read'),
    call: async (w) => {
      const source = `/m-${unique()}`;
      await matrixRedirect(w, source);
      return { params: site(w), query: `source=${encodeURIComponent(source)}` };
    },
  },

  // Site structure and customization: read by members who see the site, changed by admins
  getSiteStructure: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  sortSiteStructure: {
    rule: content('admin'),
    call: (w) => ({ params: site(w), body: { item: { type: 'site-space', id: w.a.siteSpaceId }, position: {} } }),
  },
  searchSiteContent: { rule: content('read'), call: (w) => ({ params: site(w), body: { query: 'guide', scope: { mode: 'all' } } }) },
  getSiteCustomizationById: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  updateSiteCustomizationById: {
    rule: content('admin'),
    call: async (w) => ({ params: site(w), body: await w.a.rest('GET', `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/customization`) }),
  },
  getSiteSpaceCustomizationById: { rule: content('read'), call: (w) => ({ params: { ...site(w), siteSpaceId: w.a.siteSpaceId } }) },
  overrideSiteSpaceCustomizationById: {
    rule: content('admin'),
    call: (w) => ({ params: { ...site(w), siteSpaceId: w.a.siteSpaceId }, body: { title: 'Matrix variant' } }),
  },
  deleteSiteSpaceCustomizationById: {
    rule: content('admin'),
    fresh: true,
    call: async (w) => {
      const siteSpaceId = await w.a.make.siteSpace(w.a.siteId, await w.a.make.space(), w.a.sectionId);
      await w.a.rest('PATCH', `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/site-spaces/${siteSpaceId}/customization`, { title: 'Matrix' });
      return { params: { ...site(w), siteSpaceId } };
    },
  },

  // Custom hostnames: the admins of the organization of the site
  getCustomHostname: { rule: content('admin'), call: async (w) => ({ params: { hostname: await matrixHostname(w) } }) },
  removeCustomHostname: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { hostname: await matrixHostname(w) } }) },
};

/** A redirect of A's site (from `source`), as A's admin creates it. */
async function matrixRedirect(w: MatrixWorld, source = `/m-${unique()}`): Promise<string> {
  const body = { source, destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId } };
  return (await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/redirects`, body, 201)).id;
}

/** A new site of A with a custom hostname: the hostname. */
async function matrixHostname(w: MatrixWorld): Promise<string> {
  const hostname = `h-${unique()}.matrix.example.com`;
  const siteId = await w.a.make.site();
  await w.a.rest('PATCH', `/v1/orgs/${w.a.organizationId}/sites/${siteId}`, { hostname });
  return hostname;
}

/** The URL of a route with its parameters filled in (each must be given, and is URL-encoded). */
function urlOf(path: string, { params, query }: Call): string {
  const url = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return query ? `${url}?${query}` : url;
}

describe('the REST authorization matrix', () => {
  it('classifies every operation of the route table, and only those', () => {
    expect(Object.keys(REST_OPERATIONS).sort()).toEqual(restRoutes.map((route) => route.operationId).sort());
  });

  for (const route of restRoutes) {
    const operation = REST_OPERATIONS[route.operationId];
    if (!operation) continue;
    it(`${route.operationId}: ${route.method} ${route.path}`, async () => {
      const expected: Partial<Record<Principal, number>> = {};
      const actual: Partial<Record<Principal, number>> = {};
      const shared = operation.fresh ? undefined : await operation.call(w);
      // Callers from the least to the most powerful: a success may only come after the refusals it must not affect.
      for (const principal of PRINCIPALS) {
        const call = shared ?? (await operation.call(w));
        const response = await t.call(route.method, urlOf(route.path, call), {
          ...(w.tokens[principal] ? { token: w.tokens[principal] } : {}),
          ...(call.body !== undefined ? { body: call.body } : {}),
        });
        expected[principal] = expectedStatus(operation.rule, principal, route.status);
        actual[principal] = response.statusCode;
        // A refusal is an error of the contract's shape, with the same code.
        if (response.statusCode >= 400) expect(response.json().error?.code, response.body).toBe(response.statusCode);
      }
      expect(actual).toEqual(expected);
    });
  }
});

describe('what the classification does not show', () => {
  it('a published public site is open to any authenticated caller, and to no one without a token', async () => {
    const siteId = await w.a.make.site({ visibility: 'public' });
    await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${siteId}/publish`);
    const url = `/v1/orgs/${w.a.organizationId}/sites/${siteId}/published`;
    for (const principal of PRINCIPALS) {
      const response = await t.call('GET', url, w.tokens[principal] ? { token: w.tokens[principal] } : {});
      expect(response.statusCode, `${principal}: ${response.body}`).toBe(w.tokens[principal] && principal !== 'unknown token' ? 200 : 401);
    }
  });

  it('grants: a guest reaches exactly what it is given, a collection grant reaches below, a team grant reaches its members', async () => {
    const org = `/v1/orgs/${w.a.organizationId}`;
    const guest = await w.freshMember();
    await w.a.rest('PATCH', `${org}/members/${guest.id}`, { role: null });
    const status = async (method: string, url: string, user: { token: string }, body?: unknown) =>
      (await t.call(method, url, { token: user.token, ...(body !== undefined ? { body } : {}) })).statusCode;
    const administered = await w.a.make.space();
    const parent = await w.a.make.collection();
    const below = await w.a.rest('POST', `${org}/spaces`, { title: 'Below', parent }, 201);
    await w.a.rest('POST', `/v1/spaces/${administered}/permissions`, { role: 'admin', users: [guest.id] }, 204);
    await w.a.rest('POST', `/v1/collections/${parent}/permissions`, { role: 'edit', users: [guest.id] }, 204);
    // Admin of one space: it renames it and gives roles there, and reads no other space.
    expect(await status('PATCH', `/v1/spaces/${administered}`, guest, { title: 'Renamed by a guest' })).toBe(200);
    expect(await status('PATCH', `/v1/spaces/${administered}/permissions/users/${w.subject.id}`, guest, { role: 'comment' })).toBe(204);
    expect(await status('GET', `/v1/spaces/${w.a.spaceId}`, guest)).toBe(404);
    // Editor below the collection: it opens change requests there, and administers nothing.
    expect(await status('POST', `/v1/spaces/${below.id}/change-requests`, guest, { subject: 'From a guest' })).toBe(201);
    expect(await status('PATCH', `/v1/spaces/${below.id}`, guest, { title: 'No' })).toBe(403);
    expect(await status('POST', `/v1/collections/${parent}/permissions`, guest, { role: 'read', users: [w.subject.id] })).toBe(403);
    // It lists the collections its grants reach (the granted one and those below), and no other; a search of all content stays closed to it.
    const inner = await w.a.rest('POST', `${org}/collections`, { title: 'Inner', parent }, 201);
    const listed = await t.call('GET', `${org}/collections`, { token: guest.token });
    expect(listed.statusCode).toBe(200);
    expect(
      listed
        .json()
        .items.map((item: { id: string }) => item.id)
        .sort(),
    ).toEqual([parent, inner.id].sort());
    const topmost = await t.call('GET', `${org}/collections?nested=false`, { token: guest.token });
    expect(topmost.json().items.map((item: { id: string }) => item.id)).toEqual([parent]);
    expect(await status('GET', `${org}/search?query=below`, guest)).toBe(403);
    // A read member in a team given admin on a space administers it; out of the team, it no longer does.
    const reader = await w.freshMember();
    const team = await w.a.rest('PUT', `${org}/teams`, { title: 'Granted', members: [reader.id] }, 201);
    await w.a.rest('PATCH', `/v1/spaces/${administered}/permissions/teams/${team.id}`, { role: 'admin' }, 204);
    expect(await status('PATCH', `/v1/spaces/${administered}`, reader, { title: 'Renamed by a team' })).toBe(200);
    await w.a.rest('DELETE', `${org}/teams/${team.id}/members/${reader.id}`, undefined, 204);
    expect(await status('PATCH', `/v1/spaces/${administered}`, reader, { title: 'No' })).toBe(403);
  });

  it('a guest reads its own membership, lists its own spaces and leaves the organization', async () => {
    const leaving = await w.freshMember();
    await w.a.rest('PATCH', `/v1/orgs/${w.a.organizationId}/members/${leaving.id}`, { role: null });
    const base = `/v1/orgs/${w.a.organizationId}/members/${leaving.id}`;
    expect((await t.call('GET', base, { token: leaving.token })).statusCode).toBe(200);
    expect((await t.call('GET', `${base}/spaces`, { token: leaving.token })).statusCode).toBe(200);
    expect((await t.call('DELETE', base, { token: leaving.token })).statusCode).toBe(204);
    expect((await t.call('GET', `/v1/orgs/${w.a.organizationId}`, { token: leaving.token })).statusCode).toBe(404);
  });
});
