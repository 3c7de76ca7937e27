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
const site = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, siteId: w.a.siteId });
const team = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, teamId: w.a.teamId });
const openApiSpec = (w: MatrixWorld) => ({ organizationId: w.a.organizationId, specSlug: w.a.openApiSpecSlug });
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

  // Collections
  listCollectionsInOrganizationById: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
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

  // Spaces
  listSpacesInOrganizationById: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
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
  listPages: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  getPageById: { rule: content('read'), call: (w) => ({ params: { ...space(w), pageId: w.a.page.id } }) },
  getPageByPath: { rule: content('read'), call: (w) => ({ params: { ...space(w), pagePath: w.a.page.path } }) },
  listFiles: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  getFileById: { rule: content('read'), call: (w) => ({ params: { ...space(w), fileId: w.a.fileId } }) },
  listFileBacklinks: { rule: content('read'), call: (w) => ({ params: { ...space(w), fileId: w.a.fileId } }) },
  listPageLinks: { rule: content('read'), call: (w) => ({ params: { ...space(w), pageId: w.a.page.id } }) },

  // Change requests
  listChangeRequestsForSpace: { rule: content('read'), call: (w) => ({ params: space(w) }) },
  createChangeRequest: { rule: content('edit'), call: (w) => ({ params: space(w), body: { subject: 'Matrix' } }) },
  getChangeRequestById: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
  getChangeRequestChanges: { rule: content('read'), call: (w) => ({ params: changeRequest(w) }) },
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
  listSites: { rule: organization('read'), call: (w) => ({ params: org(w) }) },
  createSite: { rule: organization('create'), call: (w) => ({ params: org(w), body: { title: 'Matrix site' } }) },
  getSiteById: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  updateSiteById: { rule: content('admin'), call: (w) => ({ params: site(w), body: { title: 'Matrix site' } }) },
  deleteSiteById: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  publishSite: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  unpublishSite: { rule: content('admin'), fresh: true, call: async (w) => ({ params: { ...org(w), siteId: await w.a.make.site() } }) },
  getSiteAdaptiveSchema: { rule: content('read'), call: (w) => ({ params: site(w) }) },
  updateSiteAdaptiveSchema: { rule: content('admin'), call: (w) => ({ params: site(w), body: { jsonSchema: w.adaptiveSchema } }) },
  getSitePublishingAuthById: { rule: content('admin'), call: (w) => ({ params: site(w) }) },
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
};

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
