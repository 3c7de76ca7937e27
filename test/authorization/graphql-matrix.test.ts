import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { subscribe } from '../support/event-stream.ts';
import { unique } from '../support/factories.ts';
import { mutation } from '../support/graphql.ts';
import { type MatrixWorld, PRINCIPALS, type Principal, type Rule, buildMatrixWorld, content, expectedStatus, organization } from './fixtures.ts';

/**
 * Every field of Query, Mutation and Subscription in the built schema, called by every kind
 * of caller (test/authorization/fixtures.ts), with the outcome the same rules
 * as REST give: HTTP 401 without a valid token, else data, or one error whose
 * `extensions.code` is 403 or 404. A field added to the schema fails the first
 * tests until it is classified here.
 */

let t: TestApp;
let w: MatrixWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildMatrixWorld(t);
}, 120_000);

type Variables = Record<string, unknown>;

interface Case {
  /** What the case names, when a field has several (node of each type). */
  label?: string;
  rule: Rule;
  /** The query, and variables valid for A's admin. */
  request(w: MatrixWorld): Promise<{ query: string; variables?: Variables }> | { query: string; variables?: Variables };
  /** The call destroys or consumes its object: build one per caller. */
  fresh?: true;
}

const byId = (field: string, rule: Rule, id: (w: MatrixWorld) => string, label?: string): Case => ({
  ...(label ? { label } : {}),
  rule,
  request: (w) => ({ query: `query($id: ID!) { ${field}(id: $id) { id } }`, variables: { id: id(w) } }),
});

/** `node` and `nodes` answer each type of id as its own query does. */
const NODE_TYPES: Array<[string, Rule, (w: MatrixWorld) => string]> = [
  ['Organization', 'member', (w) => w.a.organizationId],
  ['User', content('read'), (w) => w.subject.id],
  ['Collection', content('read'), (w) => w.a.collectionId],
  ['Space', content('read'), (w) => w.a.spaceId],
  ['ChangeRequest', content('read'), (w) => w.a.changeRequestId],
  ['ChangeRequestReview', content('read'), (w) => w.reviewId],
  ['Revision', content('read'), (w) => w.a.revisionId],
  ['Comment', content('read'), (w) => w.a.commentId],
  ['CommentReply', content('read'), (w) => w.a.changeRequestCommentReplyId],
  ['CustomField', organization('read'), (w) => w.a.customFieldName],
  ['Team', organization('read'), (w) => w.a.teamId],
  ['SamlProvider', organization('admin'), (w) => w.a.samlProviderId],
  ['Webhook', organization('admin'), (w) => w.a.webhookId],
  // A link invite: anyone holding its id.
  ['Invite', 'anyone', (w) => w.a.inviteId],
  ['TranslationSettings', organization('read'), (w) => w.a.translationSettingsId],
  ['OpenAPISpec', organization('read'), (w) => w.a.openApiSpecId],
  ['OpenAPISpecVersion', organization('read'), (w) => w.a.openApiVersionId],
  ['Site', content('read'), (w) => w.a.siteId],
  ['SiteSection', content('read'), (w) => w.a.sectionId],
  ['SiteSectionGroup', content('read'), (w) => w.a.groupId],
  ['SiteSpace', content('read'), (w) => w.a.siteSpaceId],
];

/** The published address of a public site of A (made once). */
let publishedSite: Promise<string> | undefined;

const QUERIES: Record<string, Case[]> = {
  user: [{ rule: 'anyone', request: () => ({ query: '{ user { id } }' }) }],
  viewer: [{ rule: 'anyone', request: () => ({ query: '{ viewer { user { id } organizations(first: 5) { totalCount } } }' }) }],
  organization: [byId('organization', 'member', (w) => w.a.organizationId)],
  organizationsForEmailDomain: [{ rule: 'anyone', request: () => ({ query: '{ organizationsForEmailDomain(emailDomain: "example.test") { id } }' }) }],
  member: [
    {
      rule: organization('read'),
      request: (w) => ({
        query: 'query($org: ID!, $user: ID!) { member(organizationId: $org, userId: $user) { id } }',
        variables: { org: w.a.organizationId, user: w.subject.id },
      }),
    },
  ],
  customField: [
    {
      rule: organization('read'),
      request: (w) => ({
        query: 'query($org: ID!, $name: String!) { customField(organizationId: $org, name: $name) { id } }',
        variables: { org: w.a.organizationId, name: w.a.customFieldName },
      }),
    },
  ],
  // Sign-in information: any authenticated caller.
  ssoProviders: [
    {
      rule: 'anyone',
      request: (w) => ({ query: 'query($org: ID!) { ssoProviders(organizationId: $org) { id } }', variables: { org: w.a.organizationId } }),
    },
  ],
  collection: [byId('collection', content('read'), (w) => w.a.collectionId)],
  space: [byId('space', content('read'), (w) => w.a.spaceId)],
  revision: [
    {
      rule: content('read'),
      request: (w) => ({
        query: 'query($space: ID!, $id: ID!) { revision(spaceId: $space, id: $id) { id } }',
        variables: { space: w.a.spaceId, id: w.a.revisionId },
      }),
    },
  ],
  site: [byId('site', content('read'), (w) => w.a.siteId)],
  // Unpublished: only members who see the site.
  publishedSite: [
    {
      rule: content('read'),
      request: (w) => ({ query: 'query($id: ID!) { publishedSite(siteId: $id) { site { id } } }', variables: { id: w.a.siteId } }),
    },
  ],
  // A published public site: anyone with a token resolves its URL (GraphQL needs a token; REST answers without one).
  publishedContentByUrl: [
    {
      rule: 'anyone',
      request: async (w) => {
        publishedSite ??= (async () => {
          const siteId = await w.a.make.site({ visibility: 'public' });
          await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${siteId}/site-spaces`, { spaceId: w.a.spaceId }, 201);
          return (await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${siteId}/publish`)).urls.published as string;
        })();
        return {
          query: 'query($url: String!) { publishedContentByUrl(url: $url) { ... on PublishedUrlContent { site } } }',
          variables: { url: await publishedSite },
        };
      },
    },
  ],
  node: NODE_TYPES.map(([type, rule, id]) => ({
    label: type,
    rule,
    request: async (w) => ({ query: 'query($id: ID!) { node(id: $id) { id } }', variables: { id: await nodeId(w, type, id(w)) } }),
  })),
  nodes: NODE_TYPES.map(([type, rule, id]) => ({
    label: type,
    rule,
    request: async (w) => ({ query: 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', variables: { ids: [await nodeId(w, type, id(w))] } }),
  })),
};

/** The node id of an object (custom fields are named in REST: their id is read from the database). */
async function nodeId(w: MatrixWorld, type: string, id: string): Promise<string> {
  if (type !== 'CustomField') return id;
  const field = await t.database.db.customField.findUniqueOrThrow({
    where: { organizationId_name: { organizationId: w.a.organizationId, name: id } },
  });
  return field.id;
}

interface MutationCase {
  rule: Rule;
  /** The payload selected. */
  selection: string;
  /** A valid input for A's admin. */
  input(w: MatrixWorld): Promise<Variables> | Variables;
  /** The mutation destroys or consumes its object: build one per caller. */
  fresh?: true;
}

const m = (rule: Rule, selection: string, input: MutationCase['input'], fresh?: true): MutationCase => ({
  rule,
  selection,
  input,
  ...(fresh ? { fresh } : {}),
});

const orgInput = (w: MatrixWorld) => ({ organizationId: w.a.organizationId });
const siteInput = (w: MatrixWorld) => ({ siteId: w.a.siteId });
/** A redirect of A's site, made over REST. */
async function matrixRedirect(w: MatrixWorld): Promise<string> {
  const body = { source: `/m-${unique()}`, destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId } };
  return (await w.a.rest('POST', `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/redirects`, body, 201)).id;
}

const MUTATIONS: Record<string, MutationCase> = {
  updateOrganization: m(organization('admin'), 'organization { id }', (w) => ({ ...orgInput(w), title: 'Organization A' })),
  pingOrganization: m('member', 'docsVisitorClaims', orgInput),
  updateMember: m(organization('admin'), 'member { id }', (w) => ({ ...orgInput(w), userId: w.subject.id, role: 'read' })),
  setMemberSso: m(organization('admin'), 'member { id }', (w) => ({ ...orgInput(w), userId: w.subject.id })),
  removeMember: m(organization('admin'), 'removedUserId', async (w) => ({ ...orgInput(w), userId: (await w.freshMember()).id }), true),

  createTranslationSettings: m(organization('admin'), 'translationSettings { id }', (w) => ({ ...orgInput(w), title: 'Matrix languages', languages: ['fr'] })),
  updateTranslationSettings: m(organization('admin'), 'translationSettings { id }', (w) => ({
    translationSettingsId: w.a.translationSettingsId,
    title: 'Matrix languages',
  })),
  deleteTranslationSettings: m(organization('admin'), 'deletedId', async (w) => ({ translationSettingsId: await w.a.make.translationSettings() }), true),

  createSamlProvider: m(organization('admin'), 'samlProvider { id }', (w) => ({ ...orgInput(w), label: 'Matrix IdP' })),
  updateSamlProvider: m(organization('admin'), 'samlProvider { id }', (w) => ({ samlProviderId: w.a.samlProviderId, label: 'Matrix IdP' })),
  deleteSamlProvider: m(organization('admin'), 'deletedSamlProviderId', async (w) => ({ samlProviderId: await w.a.make.samlProvider() }), true),
  createWebhook: m(organization('admin'), 'webhook { id } secret', (w) => ({
    ...orgInput(w),
    url: 'http://127.0.0.1:9/matrix',
    events: ['comment_reply_posted'],
  })),
  updateWebhook: m(organization('admin'), 'webhook { id }', (w) => ({ webhookId: w.a.webhookId, events: ['comment_reply_posted'] })),
  rotateWebhookSecret: m(organization('admin'), 'webhook { id } secret', (w) => ({ webhookId: w.a.webhookId })),
  deleteWebhook: m(organization('admin'), 'deletedWebhookId', async (w) => ({ webhookId: await w.a.make.webhook() }), true),
  redeliverWebhookDelivery: m(organization('admin'), 'delivery { id }', (w) => ({ webhookId: w.a.webhookId, deliveryId: w.a.webhookDeliveryId })),
  // A space bound to a repository: space admins (the syncs queued here fail later: nothing answers there).
  bindSpaceToGitRepository: m(
    content('admin'),
    'gitBinding { id } hookSecret',
    async (w) => ({ spaceId: await w.a.make.space(), url: 'http://127.0.0.1:9/none.git' }),
    true,
  ),
  syncSpaceGitBinding: m(content('admin'), 'gitBinding { id }', async (w) => {
    await w.a.rest('PUT', `/v1/spaces/${w.a.spaceId}/git/binding`, { url: 'http://127.0.0.1:9/none.git' }, 200);
    return { spaceId: w.a.spaceId };
  }),
  unbindSpaceFromGitRepository: m(
    content('admin'),
    'spaceId',
    async (w) => {
      const spaceId = await w.a.make.space();
      await w.a.rest('PUT', `/v1/spaces/${spaceId}/git/binding`, { url: 'http://127.0.0.1:9/none.git' }, 200);
      return { spaceId };
    },
    true,
  ),
  // Site redirects: changed by admins, as over REST.
  createSiteRedirect: m(
    content('admin'),
    'siteRedirect { id }',
    (w) => ({ ...siteInput(w), source: `/m-${unique()}`, destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId } }),
    true,
  ),
  updateSiteRedirect: m(content('admin'), 'siteRedirect { id }', async (w) => ({ ...siteInput(w), siteRedirectId: await matrixRedirect(w), permanent: true })),
  deleteSiteRedirect: m(content('admin'), 'deletedId', async (w) => ({ ...siteInput(w), siteRedirectId: await matrixRedirect(w) }), true),
  createInvite: m(organization('admin'), 'invite { id }', (w) => ({ ...orgInput(w), role: 'read' })),
  updateInvite: m(organization('admin'), 'invite { id }', (w) => ({ inviteId: w.a.inviteId, role: 'read' })),
  deleteInvite: m(organization('admin'), 'deletedInviteId', async (w) => ({ inviteId: await w.a.make.linkInvite() }), true),
  inviteUsers: m(organization('admin'), 'invited', (w) => ({ ...orgInput(w), emails: ['matrix-invitee@example.test'], role: 'read' })),
  // Into organization B (A's admin administers it), as a guest: joining changes no caller's access to A.
  joinOrganization: m('anyone', 'organization { id }', async (w) => ({ inviteId: await w.b.make.linkInvite(null) }), true),

  createOpenAPISpec: m(
    organization('create'),
    'openAPISpec { id }',
    (w) => ({ ...orgInput(w), slug: `matrix-${unique().toLowerCase()}`, source: { text: '{}' } }),
    true,
  ),
  createOrUpdateOpenAPISpec: m(
    organization('create'),
    'openAPISpec { id }',
    async (w) => ({ ...orgInput(w), slug: await w.a.make.openApiSpec(), source: { text: '{}' } }),
    true,
  ),
  deleteOpenAPISpec: m(
    organization('create'),
    'deletedOpenAPISpecId',
    async (w) => ({ specId: (await w.a.rest('GET', `/v1/orgs/${w.a.organizationId}/openapi/${await w.a.make.openApiSpec()}`)).id }),
    true,
  ),

  createTeam: m(organization('admin'), 'team { id }', (w) => ({ ...orgInput(w), title: 'Matrix team', members: [w.subject.id] })),
  updateTeam: m(organization('admin'), 'team { id }', (w) => ({ teamId: w.a.teamId, title: 'Matrix team' })),
  deleteTeam: m(organization('admin'), 'deletedTeamId', async (w) => ({ teamId: await w.a.make.team() }), true),
  updateTeamMembers: m(organization('admin'), 'team { id }', (w) => ({ teamId: w.a.teamId, add: [w.subject.id] })),
  setTeamMember: m(organization('admin'), 'team { id }', (w) => ({ teamId: w.a.teamId, userId: w.subject.id, role: 'owner' })),
  removeTeamMember: m(organization('admin'), 'team { id }', async (w) => ({ teamId: await w.a.make.team([w.subject.id]), userId: w.subject.id }), true),

  createCollection: m(organization('create'), 'collection { id }', (w) => ({ ...orgInput(w), title: 'Matrix collection' })),
  updateCollection: m(content('admin'), 'collection { id }', (w) => ({ collectionId: w.a.collectionId, description: 'Matrix' })),
  deleteCollection: m(content('admin'), 'deletedCollectionId', async (w) => ({ collectionId: await w.a.make.collection() }), true),
  moveCollection: m(content('admin'), 'collection { id }', (w) => ({ collectionId: w.a.collectionId, position: {} })),
  transferCollection: m(
    content('admin'),
    'collection { id }',
    async (w) => ({ collectionId: await w.a.make.collection(), organization: w.transferTargetId }),
    true,
  ),

  createSpace: m(organization('create'), 'space { id }', (w) => ({ ...orgInput(w), title: 'Matrix space' })),
  updateSpace: m(content('admin'), 'space { id }', (w) => ({ spaceId: w.a.spaceId, title: 'Guide space' })),
  // Grants of `read` to the subject and A's team: they raise no caller.
  inviteToSpace: m(content('admin'), 'space { id }', (w) => ({ spaceId: w.a.spaceId, role: 'read', users: [w.subject.id] })),
  setSpaceUserPermission: m(content('admin'), 'space { id }', (w) => ({ spaceId: w.a.spaceId, userId: w.subject.id, role: 'read' })),
  setSpaceTeamPermission: m(content('admin'), 'space { id }', (w) => ({ spaceId: w.a.spaceId, teamId: w.a.teamId, role: 'read' })),
  inviteToCollection: m(content('admin'), 'collection { id }', (w) => ({ collectionId: w.a.collectionId, role: 'read', teams: [w.a.teamId] })),
  setCollectionUserPermission: m(content('admin'), 'collection { id }', (w) => ({ collectionId: w.a.collectionId, userId: w.subject.id, role: 'read' })),
  setCollectionTeamPermission: m(content('admin'), 'collection { id }', (w) => ({ collectionId: w.a.collectionId, teamId: w.a.teamId, role: null })),
  inviteToSite: m(content('admin'), 'site { id }', (w) => ({ siteId: w.a.siteId, role: 'read', users: [w.subject.id] })),
  setSiteUserPermission: m(content('admin'), 'site { id }', (w) => ({ siteId: w.a.siteId, userId: w.subject.id, role: 'read' })),
  setSiteTeamPermission: m(content('admin'), 'site { id }', (w) => ({ siteId: w.a.siteId, teamId: w.a.teamId, role: null })),
  deleteSpace: m(content('admin'), 'space { id }', async (w) => ({ spaceId: await w.a.make.space() }), true),
  restoreSpace: m(content('admin'), 'space { id }', async (w) => ({ spaceId: await w.a.make.deletedSpace() }), true),
  duplicateSpace: m(content('create'), 'space { id }', (w) => ({ spaceId: w.a.spaceId })),
  moveSpace: m(content('admin'), 'space { id }', (w) => ({ spaceId: w.a.spaceId, position: {} })),
  transferSpace: m(content('admin'), 'space { id }', async (w) => ({ spaceId: await w.a.make.space(), organization: w.transferTargetId }), true),
  updateSpaceCustomFields: m(content('edit'), 'space { id }', (w) => ({
    spaceId: w.a.spaceId,
    values: [{ name: w.a.customFieldName, value: 'matrix' }],
  })),

  createCustomField: m(organization('admin'), 'customField { id }', (w) => ({ ...orgInput(w), name: `matrix_${unique()}`, type: 'text' }), true),
  updateCustomField: m(organization('admin'), 'customField { id }', (w) => ({ ...orgInput(w), name: w.a.customFieldName, description: 'Matrix' })),
  deleteCustomField: m(organization('admin'), 'deletedName', async (w) => ({ ...orgInput(w), name: await w.a.make.customField() }), true),

  createChangeRequest: m(content('edit'), 'changeRequest { id }', (w) => ({ spaceId: w.a.spaceId, subject: 'Matrix' })),
  updateChangeRequest: m(content('edit'), 'changeRequest { id }', (w) => ({ changeRequestId: w.a.changeRequestId, subject: 'Matrix' })),
  mergeChangeRequest: m(content('review'), 'revision', async (w) => ({ changeRequestId: await w.a.make.changeRequest(w.a.spaceId) }), true),
  updateChangeRequestFromSpace: m(content('edit'), 'revision', (w) => ({ changeRequestId: w.a.changeRequestId })),
  updateChangeRequestContent: m(content('edit'), 'changes { pageId }', (w) => ({
    changeRequestId: w.a.changeRequestId,
    changes: [{ operation: 'insert_page', title: 'Matrix page', document: {} }],
  })),
  importWebsite: m(content('edit'), 'revision', async (w) => ({ spaceId: await w.a.make.space(), url: w.website }), true),
  submitChangeRequestReview: m(content('review'), 'review { id }', (w) => ({ changeRequestId: w.reviewableChangeRequestId, status: 'approved' })),
  requestReviewersForChangeRequest: m(content('edit'), 'requestedReviewers { revision }', (w) => ({
    changeRequestId: w.a.changeRequestId,
    users: [w.subject.id],
  })),
  removeRequestedReviewerFromChangeRequest: m(content('edit'), 'removed', (w) => ({ changeRequestId: w.a.changeRequestId, userId: w.subject.id })),
  importGitRepository: m(content('edit'), 'gitSync { url }', async (w) => ({ spaceId: await w.a.make.space(), url: w.website, ref: 'main' }), true),
  exportToGitRepository: m(
    content('edit'),
    'gitSync { url }',
    async (w) => ({
      spaceId: await w.a.make.space(),
      url: w.website,
      ref: 'main',
      commitMessage: 'Matrix',
    }),
    true,
  ),

  createComment: m(content('comment'), 'comment { id }', (w) => ({ spaceId: w.a.spaceId, changeRequestId: w.a.changeRequestId, body: 'Matrix' })),
  updateComment: m(content('comment'), 'comment { id }', (w) => ({ commentId: w.a.commentId, resolved: true, addedReactions: ['👀'] })),
  deleteComment: m(content('admin'), 'deletedCommentId', async (w) => ({ commentId: await w.a.make.comment(w.a.spaceId) }), true),
  createCommentReply: m(content('comment'), 'reply { id }', (w) => ({ commentId: w.a.changeRequestCommentId, body: 'Matrix' })),
  updateCommentReply: m(content('comment'), 'reply { id }', (w) => ({ replyId: w.a.commentReplyId, addedReactions: ['👀'] })),
  deleteCommentReply: m(content('admin'), 'deletedReplyId', async (w) => ({ replyId: await w.a.make.commentReply(w.a.spaceId, w.a.commentId) }), true),

  createSite: m(organization('create'), 'site { id }', (w) => ({ ...orgInput(w), title: 'Matrix site' })),
  updateSite: m(content('admin'), 'site { id }', (w) => ({ ...siteInput(w), title: 'Matrix site' })),
  deleteSite: m(content('admin'), 'deletedId', async (w) => ({ siteId: await w.a.make.site() }), true),
  publishSite: m(content('admin'), 'site { id }', async (w) => ({ siteId: await w.a.make.site() }), true),
  unpublishSite: m(content('admin'), 'site { id }', async (w) => ({ siteId: await w.a.make.site() }), true),
  updateSiteAdaptiveSchema: m(content('admin'), 'adaptiveSchema { updatedAt }', (w) => ({ ...siteInput(w), jsonSchema: w.adaptiveSchema })),
  createShareLink: m(content('admin'), 'shareLink { id }', (w) => ({ ...siteInput(w), name: 'Matrix' })),
  updateShareLink: m(content('admin'), 'shareLink { id }', (w) => ({ shareLinkId: w.a.shareLinkId, name: 'Matrix' })),
  deleteShareLink: m(content('admin'), 'deletedId', async (w) => ({ shareLinkId: await w.a.make.shareLink(w.a.siteId) }), true),
  createSiteSection: m(content('admin'), 'section { id }', (w) => ({ ...siteInput(w), spaceId: w.a.spaceId })),
  updateSiteSection: m(content('admin'), 'section { id }', (w) => ({ sectionId: w.a.sectionId, title: 'Matrix section' })),
  deleteSiteSection: m(content('admin'), 'deletedId', async (w) => ({ sectionId: await w.a.make.section(w.a.siteId, w.a.spaceId) }), true),
  moveSiteSection: m(content('admin'), 'section { id }', (w) => ({ sectionId: w.a.sectionId })),
  createSiteSectionGroup: m(content('admin'), 'sectionGroup { id }', (w) => ({ ...siteInput(w), title: 'Matrix group' })),
  updateSiteSectionGroup: m(content('admin'), 'sectionGroup { id }', (w) => ({ sectionGroupId: w.a.groupId, title: 'Matrix group' })),
  deleteSiteSectionGroup: m(content('admin'), 'deletedId', async (w) => ({ sectionGroupId: await w.a.make.group(w.a.siteId) }), true),
  moveSiteSectionGroup: m(content('admin'), 'sectionGroup { id }', (w) => ({ sectionGroupId: w.a.groupId })),
  addSectionToGroup: m(
    content('admin'),
    'sectionGroup { id }',
    async (w) => ({ sectionGroupId: w.a.groupId, sectionId: await w.a.make.section(w.a.siteId, w.a.spaceId) }),
    true,
  ),
  removeSectionFromGroup: m(
    content('admin'),
    'sectionGroup { id }',
    async (w) => {
      const sectionId = await w.a.make.section(w.a.siteId, w.a.spaceId);
      return { sectionGroupId: await w.a.make.group(w.a.siteId, [sectionId]), sectionId };
    },
    true,
  ),
  addSiteSpace: m(content('admin'), 'siteSpace { id }', async (w) => ({ ...siteInput(w), spaceId: await w.a.make.space(), sectionId: w.a.sectionId }), true),
  updateSiteSpace: m(content('admin'), 'siteSpace { id }', (w) => ({ siteSpaceId: w.a.siteSpaceId, path: 'matrix' })),
  duplicateSiteSpace: m(content('admin'), 'siteSpace { id }', (w) => ({ siteSpaceId: w.a.siteSpaceId }), true),
  deleteSiteSpace: m(
    content('admin'),
    'deletedId',
    async (w) => ({ siteSpaceId: await w.a.make.siteSpace(w.a.siteId, await w.a.make.space(), w.a.sectionId) }),
    true,
  ),
  moveSiteSpace: m(content('admin'), 'siteSpace { id }', (w) => ({ siteSpaceId: w.a.siteSpaceId })),
};

/** Subscriptions: who may follow what, with the rules of reading it (test/graphql/subscriptions.test.ts for what then arrives). */
const SUBSCRIPTIONS: Record<string, Case> = {
  spaceEvents: {
    rule: content('read'),
    request: (w) => ({ query: 'subscription($id: ID!) { spaceEvents(spaceId: $id) { __typename } }', variables: { id: w.a.spaceId } }),
  },
  changeRequestEvents: {
    rule: content('read'),
    request: (w) => ({ query: 'subscription($id: ID!) { changeRequestEvents(changeRequestId: $id) { __typename } }', variables: { id: w.a.changeRequestId } }),
  },
  organizationEvents: {
    rule: 'member',
    request: (w) => ({ query: 'subscription($id: ID!) { organizationEvents(organizationId: $id) { __typename } }', variables: { id: w.a.organizationId } }),
  },
};

/** A subscription's outcome: 401 before any stream, the code of the error that ends it at once, or 200 for a stream left open. */
async function streamOutcome(principal: Principal, query: string, variables?: Variables): Promise<number | string> {
  const stream = await subscribe(await t.listen(), w.tokens[principal], query, variables);
  try {
    if (stream.status !== 200) return stream.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!stream.ended) return stream.results.length === 0 ? 200 : `events before any write: ${JSON.stringify(stream.results)}`;
    const codes = [...new Set(stream.results.flatMap((result) => result.errors ?? []).map((error) => error.extensions?.code))];
    return codes.length === 1 && typeof codes[0] === 'number' ? codes[0] : JSON.stringify(stream.results);
  } finally {
    stream.close();
  }
}

/** What a caller got: 401 (refused before execution), the one error code of the answer, or 200 with its data. */
async function outcome(principal: Principal, query: string, variables?: Variables): Promise<number | string> {
  const token = w.tokens[principal];
  const response = await t.call('POST', '/graphql', { ...(token ? { token } : {}), body: { query, variables } });
  const body = response.json();
  if (response.statusCode === 401) return 401;
  if (body.errors) {
    const codes = [...new Set(body.errors.map((error: { extensions?: { code?: number } }) => error.extensions?.code))];
    // One kind of refusal per answer; anything else is reported as it is.
    return codes.length === 1 && typeof codes[0] === 'number' ? (codes[0] as number) : JSON.stringify(body.errors);
  }
  expect(response.statusCode, response.body).toBe(200);
  // A success answers the field: a null there without an error would hide a refusal.
  const answered = Object.values(body.data ?? {}).every((value) => value !== null && !(Array.isArray(value) && value.includes(null)));
  return answered ? 200 : `no data: ${response.body}`;
}

async function runCase(name: string, kase: Case) {
  const expected: Partial<Record<Principal, number | string>> = {};
  const actual: Partial<Record<Principal, number | string>> = {};
  const shared = kase.fresh ? undefined : await kase.request(w);
  for (const principal of PRINCIPALS) {
    const { query, variables } = shared ?? (await kase.request(w));
    expected[principal] = expectedStatus(kase.rule, principal, 200);
    actual[principal] = await outcome(principal, query, variables);
  }
  expect(actual, name).toEqual(expected);
}

describe('the GraphQL authorization matrix', () => {
  it('classifies every field of Query, and only those', () => {
    expect(Object.keys(QUERIES).sort()).toEqual(Object.keys(schema.getQueryType()!.getFields()).sort());
  });

  it('classifies every mutation, and only those', () => {
    expect(Object.keys(MUTATIONS).sort()).toEqual(Object.keys(schema.getMutationType()!.getFields()).sort());
  });

  it('classifies every subscription, and only those', () => {
    expect(Object.keys(SUBSCRIPTIONS).sort()).toEqual(Object.keys(schema.getSubscriptionType()!.getFields()).sort());
  });

  for (const [field, kase] of Object.entries(SUBSCRIPTIONS)) {
    it(`Subscription.${field}`, async () => {
      const { query, variables } = await kase.request(w);
      const expected: Partial<Record<Principal, number | string>> = {};
      const actual: Partial<Record<Principal, number | string>> = {};
      for (const principal of PRINCIPALS) {
        expected[principal] = expectedStatus(kase.rule, principal, 200);
        actual[principal] = await streamOutcome(principal, query, variables);
      }
      expect(actual, `Subscription.${field}`).toEqual(expected);
    });
  }

  for (const [field, cases] of Object.entries(QUERIES)) {
    for (const kase of cases) {
      const name = `Query.${field}${kase.label ? ` (${kase.label})` : ''}`;
      it(name, () => runCase(name, kase));
    }
  }

  for (const [field, { selection, input, ...kase }] of Object.entries(MUTATIONS)) {
    const request = async (w: MatrixWorld) => ({ query: mutation(field, selection), variables: { input: await input(w) } });
    it(`Mutation.${field}`, () => runCase(`Mutation.${field}`, { ...kase, request }));
  }
});
