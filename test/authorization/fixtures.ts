import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import { ROLES, type Role, atLeast } from '../../src/domain/access.ts';
import type { TestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { type TestUser, addMember, buildTeam, unique } from '../support/factories.ts';
import { adaptiveSchema } from '../support/sites.ts';

/**
 * The organizations, callers and content the authorization matrices act on
 * (REST and GraphQL alike), and the rules they expect.
 *
 * Organization A holds one member at each role level and a guest, and content
 * of every kind, built by A's admin over REST. "Other organization" is the
 * admin of an organization the caller has nothing to do with in A. The
 * transfer target is an organization that only A's admin administers.
 */

/** Everyone who calls, from no credential at all up to A's admin. */
export const PRINCIPALS = ['no token', 'unknown token', 'other organization', 'guest', ...[...ROLES].reverse()] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * Who may call an operation:
 * - `anyone`: every valid token, members of other organizations included;
 * - `member`: every member of the organization, guests included;
 * - `{ minimum, guest }`: members at this level and above; below it 403, and a
 *   guest `guest` (404 where guests cannot see the object at all — content and
 *   sites —, 403 where the organization is visible but the action is not).
 * - `public`: anyone, without a token too (an invalid token is still a 401);
 * Members of other organizations get 404: what lies outside one's
 * organizations does not exist for one.
 */
export type Rule = 'anyone' | 'member' | 'public' | { minimum: Role; guest: 403 | 404 };

/** Needs `minimum` on content (spaces, collections, sites) guests cannot see. */
export const content = (minimum: Role): Rule => ({ minimum, guest: 404 });
/** Needs `minimum` in an organization guests can see. */
export const organization = (minimum: Role): Rule => ({ minimum, guest: 403 });

/** The status `principal` must get: `success` when allowed. */
export function expectedStatus(rule: Rule, principal: Principal, success: number): number {
  if (rule === 'public') return principal === 'unknown token' ? 401 : success;
  if (principal === 'no token' || principal === 'unknown token') return 401;
  if (principal === 'other organization') return rule === 'anyone' ? success : 404;
  if (rule === 'anyone' || rule === 'member') return success;
  if (principal === 'guest') return rule.guest;
  return atLeast(principal, rule.minimum) ? success : 403;
}

/** One page of HTML served on 127.0.0.1, for the website imports. */
async function websiteToImport(): Promise<string> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Imported</title></head><body><p>Imported page.</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Json = Record<string, any>;

/** An organization's content, built by its admin over REST: ids to aim the operations at. */
async function buildContent(t: TestApp, organizationId: string, admin: TestUser) {
  const rest = async (method: string, url: string, body?: unknown, status = 200): Promise<any> => {
    const response = await t.call(method, url, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${response.body}`).toBe(status);
    return status === 204 || status === 205 ? undefined : response.json();
  };
  const org = `/v1/orgs/${organizationId}`;

  const space = async (body: Json = {}): Promise<string> => (await rest('POST', `${org}/spaces`, { title: 'Space', ...body }, 201)).id;
  const collection = async (body: Json = {}): Promise<string> => (await rest('POST', `${org}/collections`, { title: 'Collection', ...body }, 201)).id;
  const deletedSpace = async () => {
    const id = await space();
    await rest('DELETE', `/v1/spaces/${id}`, undefined, 205);
    return id;
  };
  /** An open change request of `spaceId` with one page of its own. */
  const changeRequest = async (spaceId: string) => {
    const created = await rest('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Matrix' }, 201);
    await rest('POST', `/v1/spaces/${spaceId}/change-requests/${created.id}/content`, {
      changes: [{ operation: 'insert_page', title: `Draft ${unique()}`, document: { markdown: 'Draft.\n' } }],
    });
    return created.id as string;
  };
  const customField = async (name = `field_${unique()}`) => {
    await rest('POST', `${org}/custom-fields`, { name, type: 'text' }, 201);
    return name;
  };
  const site = async (body: Json = {}): Promise<string> => (await rest('POST', `${org}/sites`, { title: 'Matrix site', ...body }, 201)).id;
  const siteUrl = (siteId: string, rest = '') => `${org}/sites/${siteId}${rest}`;
  const section = async (siteId: string, spaceId: string): Promise<string> => (await rest('POST', siteUrl(siteId, '/sections'), { spaceId }, 201)).id;
  const group = async (siteId: string, sections: string[] = []): Promise<string> =>
    (await rest('POST', siteUrl(siteId, '/section-groups'), { title: 'Group', sections }, 201)).id;
  const siteSpace = async (siteId: string, spaceId: string, sectionId?: string): Promise<string> =>
    (await rest('POST', siteUrl(siteId, '/site-spaces'), { spaceId, ...(sectionId ? { sectionId } : {}) }, 201)).id;
  const shareLink = async (siteId: string): Promise<string> => (await rest('POST', siteUrl(siteId, '/share-links'), { name: 'Link' }, 201)).id;
  const team = async (members: string[] = []): Promise<string> => (await rest('PUT', `${org}/teams`, { title: 'Matrix team', members }, 201)).id;
  const linkInvite = async (role: string | null = 'read'): Promise<string> => (await rest('POST', `${org}/link-invites`, { role }, 201)).id;
  const samlProvider = async (): Promise<string> => (await rest('POST', `${org}/saml`, { label: 'Matrix IdP' }, 201)).id;
  const commentsOf = (spaceId: string, changeRequestId?: string) =>
    `/v1/spaces/${spaceId}${changeRequestId ? `/change-requests/${changeRequestId}` : ''}/comments`;
  /** A comment by the admin on a space's content, or in one of its change requests. */
  const comment = async (spaceId: string, changeRequestId?: string): Promise<string> =>
    (await rest('POST', commentsOf(spaceId, changeRequestId), { body: { markdown: 'Matrix comment' } })).id;
  const commentReply = async (spaceId: string, commentId: string, changeRequestId?: string): Promise<string> =>
    (await rest('POST', `${commentsOf(spaceId, changeRequestId)}/${commentId}/replies`, { body: { markdown: 'Matrix reply' } })).id;

  // A space whose live content has a page and a file (merged from a change request).
  const spaceId = await space({ title: 'Guide space' });
  const first = await rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}, 201);
  await rest('POST', `/v1/spaces/${spaceId}/change-requests/${first.id}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nRead the [manual](https://example.test/manual).\n' } },
      { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] },
    ],
  });
  await rest('POST', `/v1/spaces/${spaceId}/change-requests/${first.id}/merge`);
  const pages = (await rest('GET', `/v1/spaces/${spaceId}/content/pages`)).pages;
  const page = { id: pages[0].id as string, path: pages[0].path as string };
  const fileId = (await rest('GET', `/v1/spaces/${spaceId}/content/files`)).items[0].id as string;
  const changeRequestId = await changeRequest(spaceId);

  const collectionId = await collection();
  const spaceInCollection = await space({ parent: collectionId });
  const customFieldName = await customField();

  // A site with two sections, one in a group, and a site space in the first section.
  const siteId = await site();
  const sectionId = await section(siteId, spaceId);
  const groupedSectionId = await section(siteId, spaceInCollection);
  const groupId = await group(siteId, [groupedSectionId]);
  const siteSpaceId = await siteSpace(siteId, spaceInCollection, sectionId);
  const shareLinkId = await shareLink(siteId);
  const revisionId = (await rest('GET', `/v1/spaces/${spaceId}`)).revision as string;
  const teamId = await team();
  const translationSettings = async (): Promise<string> =>
    (await rest('POST', `${org}/translations`, { title: 'Matrix languages', languages: ['fr'] }, 201)).id;
  const translationSettingsId = await translationSettings();
  const inviteId = await linkInvite();
  const samlProviderId = await samlProvider();
  /** A webhook (its receiver never answers: port 9), and a delivery of it written as the outbox writes one. */
  const webhook = async (): Promise<string> =>
    (await rest('POST', `${org}/webhooks`, { url: 'http://127.0.0.1:9/matrix', events: ['comment_reply_posted'] }, 201)).id;
  const webhookId = await webhook();
  const webhookDeliveryId = `whd_matrix${unique()}`;
  await t.database.db.webhookDelivery.create({
    data: {
      id: webhookDeliveryId,
      organizationId,
      subscriptionId: webhookId,
      messageId: `msg_matrix${unique()}`,
      eventType: 'comment_reply_posted',
      payload: JSON.stringify({ type: 'comment_reply_posted', timestamp: new Date().toISOString(), data: { organizationId } }),
      status: 'failed',
      nextAttemptAt: new Date(),
    },
  });
  const commentId = await comment(spaceId);
  const commentReplyId = await commentReply(spaceId, commentId);
  const changeRequestCommentId = await comment(spaceId, changeRequestId);
  const changeRequestCommentReplyId = await commentReply(spaceId, changeRequestCommentId, changeRequestId);
  /** An OpenAPI spec given as text (its processing fetches nothing); its slug. */
  const openApiSpec = async (slug = `matrix-${unique().toLowerCase()}`): Promise<string> => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Matrix', version: '1' },
      paths: { '/ping': { get: { responses: { '204': { description: 'Pong' } } } } },
    });
    return (await rest('PUT', `${org}/openapi/${slug}`, { source: { text } })).slug;
  };
  const openApiSpecSlug = await openApiSpec('matrix-spec');
  // Processed in the background: its first version.
  let openApiSpecRow = await rest('GET', `${org}/openapi/${openApiSpecSlug}`);
  await vi.waitUntil(async () => (openApiSpecRow = await rest('GET', `${org}/openapi/${openApiSpecSlug}`)).lastVersion, { timeout: 20_000, interval: 50 });
  const openApiSpecId = openApiSpecRow.id as string;
  const openApiVersionId = openApiSpecRow.lastVersion as string;

  return {
    organizationId,
    rest,
    /** Builders of fresh objects, for the operations that destroy or consume theirs. */
    make: {
      space,
      collection,
      deletedSpace,
      changeRequest,
      customField,
      site,
      section,
      group,
      siteSpace,
      shareLink,
      team,
      linkInvite,
      samlProvider,
      webhook,
      comment,
      commentReply,
      translationSettings,
      openApiSpec,
    },
    spaceId,
    page,
    fileId,
    revisionId,
    changeRequestId,
    collectionId,
    spaceInCollection,
    customFieldName,
    siteId,
    sectionId,
    groupedSectionId,
    groupId,
    siteSpaceId,
    shareLinkId,
    teamId,
    translationSettingsId,
    inviteId,
    samlProviderId,
    webhookId,
    webhookDeliveryId,
    commentId,
    commentReplyId,
    changeRequestCommentId,
    changeRequestCommentReplyId,
    openApiSpecSlug,
    openApiSpecId,
    openApiVersionId,
  };
}

export type Content = Awaited<ReturnType<typeof buildContent>>;

/**
 * Organization A with its members and content; organization B, which A's
 * admin also administers (ids of another organization the caller may use
 * elsewhere); organization X of the outsider; and the transfer target.
 */
export async function buildMatrixWorld(t: TestApp) {
  const a = await buildTeam(t.database);
  const members = { admin: a.admin } as Record<Role, TestUser> & { guest: TestUser };
  for (const role of ROLES) if (role !== 'admin') members[role] = await a.member(role);
  members.guest = await a.member(null);
  // The member the member operations act on (never one of the callers: callers may act on themselves).
  const subject = await a.member('read', 'subject');

  const x = await buildTeam(t.database);
  const b = await buildTeam(t.database);
  await addMember(t.database, b.organization.id, a.admin, 'admin');
  const transferTarget = await buildTeam(t.database);
  await addMember(t.database, transferTarget.organization.id, a.admin, 'admin');

  const tokens: Record<Principal, string | undefined> = {
    'no token': undefined,
    'unknown token': 'dgw_not_a_token',
    'other organization': x.admin.token,
    guest: members.guest.token,
    read: members.read.token,
    comment: members.comment.token,
    edit: members.edit.token,
    review: members.review.token,
    create: members.create.token,
    admin: members.admin.token,
  };

  const contentOfA = await buildContent(t, a.organization.id, a.admin);
  // Opened by the edit member: the others may review it (its author never may).
  const opened = await t.call('POST', `/v1/spaces/${contentOfA.spaceId}/change-requests`, { token: members.edit.token, body: { subject: 'To review' } });
  expect(opened.statusCode, opened.body).toBe(201);
  const reviewed = await t.call('POST', `/v1/spaces/${contentOfA.spaceId}/change-requests/${opened.json().id}/reviews`, {
    token: a.admin.token,
    body: { status: 'approved' },
  });
  expect(reviewed.statusCode, reviewed.body).toBe(201);

  return {
    a: contentOfA,
    /** A change request of A's space opened by its edit member, for reviews. */
    reviewableChangeRequestId: opened.json().id as string,
    /** A review of it, by A's admin. */
    reviewId: reviewed.json().id as string,
    b: await buildContent(t, b.organization.id, a.admin),
    x: await buildContent(t, x.organization.id, x.admin),
    admin: a.admin,
    members,
    subject,
    /** Another read member of A, for operations that remove theirs. */
    freshMember: () => a.member('read', 'leaving'),
    outsider: x.admin,
    transferTargetId: transferTarget.organization.id,
    tokens,
    website: await websiteToImport(),
    adaptiveSchema: adaptiveSchema({ plan: 'string' }),
  };
}

export type MatrixWorld = Awaited<ReturnType<typeof buildMatrixWorld>>;
