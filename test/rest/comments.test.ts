import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, buildTeam } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const COMMENTS = '/v1/spaces/{spaceId}/comments';
const COMMENT = '/v1/spaces/{spaceId}/comments/{commentId}';
const REPLIES = '/v1/spaces/{spaceId}/comments/{commentId}/replies';
const REPLY = '/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}';
const CR_COMMENTS = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments';
const CR_COMMENT = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}';

type Json = Record<string, any>;

/** An organization with a space whose content has a page, members at each level that matters, and REST helpers. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const call = (method: string, url: string, user: TestUser | undefined, body?: unknown) =>
    t.call(method, url, { ...(user ? { token: user.token } : {}), ...(body !== undefined ? { body } : {}) });
  const ok = async (method: string, url: string, user: TestUser, body?: unknown, status = 200): Promise<Json> => {
    const response = await call(method, url, user, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return status === 205 || status === 204 ? {} : response.json();
  };
  const spaceId = (await ok('POST', `/v1/orgs/${organizationId}/spaces`, team.admin, { title: 'Commented' }, 201)).id as string;
  const draft = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, team.admin, {}, 201);
  await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/content`, team.admin, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nHello.\n' } }],
  });
  await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/merge`, team.admin);
  const pageId = (await ok('GET', `/v1/spaces/${spaceId}/content/pages`, team.admin)).pages[0].id as string;
  const changeRequestId = (await ok('POST', `/v1/spaces/${spaceId}/change-requests`, team.admin, { subject: 'Review me' }, 201)).id as string;
  const users = {
    admin: team.admin,
    reader: await team.member('read'),
    commenter: await team.member('comment'),
    other: await team.member('comment', 'other'),
    editor: await team.member('edit'),
    guest: await team.member(null),
    outsider: (await buildTeam(t.database)).admin,
  };
  const base = `/v1/spaces/${spaceId}/comments`;
  const crBase = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`;
  const post = async (user: TestUser, body: Json, url = base) => {
    const response = await call('POST', url, user, body);
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('POST', url === base ? COMMENTS : CR_COMMENTS, 200, response.json());
    return response.json();
  };
  const comment = (user: TestUser, markdown = 'A remark', url = base) => post(user, { body: { markdown } }, url);
  /** The reactions on a target, by emoji then user (code unit order on both databases). */
  const reactionRows = async (targetId: string) =>
    (await t.database.db.commentReaction.findMany({ where: { targetId }, select: { emoji: true, userId: true } })).sort((a, b) =>
      a.emoji === b.emoji ? (a.userId < b.userId ? -1 : 1) : a.emoji < b.emoji ? -1 : 1,
    );
  return { organizationId, spaceId, pageId, changeRequestId, users, call, ok, base, crBase, post, comment, reactionRows };
}

describe('space comments', () => {
  it('posts, reads and lists comments through the official client, matching the official schemas', async () => {
    const { spaceId, pageId, users, base } = await setup();
    const { data: posted } = await official(users.commenter).spaces.postCommentInSpace(spaceId, {
      body: { markdown: 'Is this **right**?' },
      page: pageId,
      node: 'node-1',
    });
    expectMatchesSchema('POST', COMMENTS, 200, posted);
    expect(posted).toMatchObject({
      object: 'comment',
      id: expect.stringMatching(/^cmt_/),
      postedBy: { id: users.commenter.id },
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: 'Is this **right**?' },
      target: { space: spaceId, page: { id: pageId }, node: { id: 'node-1' }, revision: expect.any(String) },
      urls: { location: expect.stringContaining(`/v1/spaces/${spaceId}/comments/${posted.id}`) },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
    });
    expect(posted).not.toHaveProperty('editedAt');
    expect(posted).not.toHaveProperty('resolvedAt');
    expect(posted.target).not.toHaveProperty('changeRequest');

    const { data: got } = await official(users.reader).spaces.getCommentInSpace(spaceId, posted.id);
    expectMatchesSchema('GET', COMMENT, 200, got);
    // The reader may see it, not change it.
    expect(got).toEqual({ ...posted, permissions: { view: true, edit: false, reply: false, delete: false } });

    const { data: asDocument } = await official(users.reader).spaces.getCommentInSpace(spaceId, posted.id, { format: 'document' as never });
    expectMatchesSchema('GET', COMMENT, 200, asDocument);
    expect(asDocument.body).toMatchObject({ document: { object: 'document', nodes: expect.any(Array) } });

    const { data: listed } = await official(users.reader).spaces.listCommentsInSpace(spaceId);
    expectMatchesSchema('GET', COMMENTS, 200, listed);
    expect(listed.items.map((item: Json) => item.id)).toEqual([posted.id]);
    expect(listed.count).toBe(1);
    expect((await t.call('GET', base, { token: users.reader.token })).json().items[0]).toEqual(got);
  });

  it('describes the page and the block it is attached to, and says when they changed (REST and GraphQL)', async () => {
    const { spaceId, pageId, users, base, ok, post } = await setup();
    const page = await ok('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=document`, users.admin);
    const paragraph = page.document.nodes.find((node: Json) => node.type === 'paragraph');
    expect(paragraph.key).toEqual(expect.any(String));
    const posted = await post(users.commenter, { body: { markdown: 'About this line' }, page: pageId, node: paragraph.key });
    const described = { id: pageId, title: 'Guide', path: 'guide', outdated: false, createdAt: expect.any(String), updatedAt: expect.any(String) };
    expect(posted.target).toMatchObject({ page: described, node: { id: paragraph.key, preview: 'Hello.' } });
    const graphqlTarget = async () =>
      (
        await t.graphql(
          users.admin.token,
          'query($id: ID!) { node(id: $id) { ... on Comment { target { page { id title path outdated } node { id preview } } } } }',
          { id: posted.id },
        )
      ).data!.node.target;
    expect(await graphqlTarget()).toEqual({
      page: { id: pageId, title: 'Guide', path: 'guide', outdated: false },
      node: { id: paragraph.key, preview: 'Hello.' },
    });

    // The page is edited after the comment, around the block: outdated, the block still found by its key.
    t.clock.advance(60_000);
    const edit = async (markdown: string) => {
      const draft = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, users.admin, {}, 201);
      await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/content`, users.admin, {
        changes: [{ operation: 'update_page', page: pageId, document: { markdown } }],
      });
      await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/merge`, users.admin);
    };
    await edit('# Guide\n\nA new first line.\n\nHello.\n');
    const afterEdit = await ok('GET', `${base}/${posted.id}`, users.reader);
    expect(afterEdit.target).toMatchObject({ page: { ...described, outdated: true }, node: { id: paragraph.key, preview: 'Hello.' } });

    // The block itself is rewritten: its key names nothing any more.
    await edit('# Guide\n\nHello, world.\n');
    expect((await ok('GET', `${base}/${posted.id}`, users.reader)).target.node).toEqual({ id: paragraph.key, preview: '' });
    expect((await graphqlTarget()).node).toEqual({ id: paragraph.key, preview: '' });

    // The page is deleted: only its id is left, outdated.
    const draft = await ok('POST', `/v1/spaces/${spaceId}/change-requests`, users.admin, {}, 201);
    await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/content`, users.admin, { changes: [{ operation: 'delete_page', page: pageId }] });
    await ok('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/merge`, users.admin);
    const gone = await ok('GET', `${base}/${posted.id}`, users.reader);
    expectMatchesSchema('GET', COMMENT, 200, gone);
    expect(gone.target.page).toEqual({ id: pageId, outdated: true });
    expect((await graphqlTarget()).page).toEqual({ id: pageId, title: null, path: null, outdated: true });
  });

  it('lists newest first by default, oldest first with order=asc, by status and page, page by page', async () => {
    const { pageId, users, base, call, comment, post } = await setup();
    const first = await comment(users.commenter, 'first');
    const second = await post(users.commenter, { body: { markdown: 'second' }, page: pageId });
    const third = await comment(users.admin, 'third');
    await call('PUT', `${base}/${second.id}`, users.commenter, { resolved: true });
    const ids = async (query: string) => {
      const response = await call('GET', `${base}?${query}`, users.reader);
      expect(response.statusCode, response.body).toBe(200);
      expectMatchesSchema('GET', COMMENTS, 200, response.json());
      return response.json().items.map((item: Json) => item.id);
    };
    expect(await ids('')).toEqual([third.id, second.id, first.id]);
    expect(await ids('order=asc')).toEqual([first.id, second.id, third.id]);
    expect(await ids('status=open')).toEqual([third.id, first.id]);
    expect(await ids('status=resolved')).toEqual([second.id]);
    expect(await ids('status=all&order=desc')).toEqual([third.id, second.id, first.id]);
    expect(await ids(`targetPage=${pageId}`)).toEqual([second.id]);
    const page1 = (await call('GET', `${base}?limit=2&order=asc`, users.reader)).json();
    expect(page1.items.map((item: Json) => item.id)).toEqual([first.id, second.id]);
    expect(page1.count).toBe(3);
    const page2 = (await call('GET', `${base}?limit=2&order=asc&page=${encodeURIComponent(page1.next.page)}`, users.reader)).json();
    expect(page2.items.map((item: Json) => item.id)).toEqual([third.id]);
    expect(page2.next).toBeUndefined();
    expectError(await call('GET', `${base}?order=up`, users.reader), 400, /^order: /);
    expectError(await call('GET', `${base}?status=closed`, users.reader), 400, /^status: /);
    expectError(await call('GET', `${base}?format=html`, users.reader), 400, /^format: /);
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const { spaceId, users, base, call, comment } = await setup();
    const count = () => t.database.db.comment.count({ where: { spaceId } });
    expectError(await call('POST', base, users.commenter, {}), 400, 'body: is required');
    expectError(await call('POST', base, users.commenter, { body: { markdown: '  ' } }), 400, /^body\.markdown: must not be empty/);
    expectError(
      await call('POST', base, users.commenter, { body: { document: { object: 'document', nodes: [] } } }),
      400,
      /^body\.document: structured documents are not accepted as input/,
    );
    expectError(await call('POST', base, users.commenter, { body: 'text' }), 400, 'body: must be {"markdown": "…"}');
    expectError(await call('POST', base, users.commenter, { body: { markdown: 'x' }, page: 'nope' }), 400, 'page: no page "nope" in this space');
    expectError(await call('POST', base, users.commenter, { body: { markdown: 'x' }, color: 'red' }), 400, 'body: unknown field "color"');
    expectError(await call('POST', base, users.commenter, { body: { markdown: 'x'.repeat(100_001) } }), 400, /^body\.markdown: /);
    expect(await count()).toBe(0);
    const posted = await comment(users.commenter);
    const url = `${base}/${posted.id}`;
    expectError(await call('PUT', url, users.commenter, { addedReactions: ['🙂', 'smile'] }), 400, /^addedReactions\.1: must be an emoji/);
    expectError(await call('PUT', url, users.commenter, { resolved: 'yes' }), 400, /^resolved: /);
    expectError(await call('PUT', url, users.commenter, { body: { markdown: '' } }), 400, /^body\.markdown: /);
    const row = await t.database.db.comment.findUniqueOrThrow({ where: { id: posted.id } });
    expect(row).toMatchObject({ body: 'A remark', status: 'open', editedAt: null });
    expect(await t.database.db.commentReaction.count({ where: { commentId: posted.id } })).toBe(0);
    expectError(await call('POST', `${url}/replies`, users.commenter, { body: {} }), 400, 'body.markdown: is required');
    expect(await t.database.db.commentReply.count({ where: { commentId: posted.id } })).toBe(0);
  });

  it('follows the state table: resolving sets status, resolvedAt and resolvedBy; reopening clears them', async () => {
    const { spaceId, users, base, call, comment } = await setup();
    const posted = await comment(users.admin);
    const url = `${base}/${posted.id}`;
    const { data: resolved } = await official(users.commenter).spaces.updateCommentInSpace(spaceId, posted.id, { resolved: true });
    expectMatchesSchema('PUT', COMMENT, 200, resolved);
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String), resolvedBy: { id: users.commenter.id } });
    // Resolving again changes nothing: the first resolution stands.
    const again = (await call('PUT', url, users.admin, { resolved: true })).json();
    expect(again).toMatchObject({ status: 'resolved', resolvedAt: (resolved as Json).resolvedAt, resolvedBy: { id: users.commenter.id } });
    expect(again).not.toHaveProperty('editedAt');
    const reopened = (await call('PUT', url, users.other, { resolved: false })).json();
    expectMatchesSchema('PUT', COMMENT, 200, reopened);
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(reopened).not.toHaveProperty('resolvedBy');
    expect(await t.database.db.comment.findUniqueOrThrow({ where: { id: posted.id } })).toMatchObject({
      status: 'open',
      resolvedAt: null,
      resolvedById: null,
    });
    // Readers may not resolve.
    expectError(await call('PUT', url, users.reader, { resolved: true }), 403);
    // Editing the body (its author) sets editedAt and keeps the status.
    const edited = (await call('PUT', url, users.admin, { body: { markdown: 'Reworded' } })).json();
    expect(edited).toMatchObject({ body: { markdown: 'Reworded' }, editedAt: expect.any(String), status: 'open' });
  });

  it('counts open comments on the space (not those of its change requests) and on each change request', async () => {
    const { organizationId, spaceId, changeRequestId, users, base, crBase, call, comment } = await setup();
    const spaceComments = async () => (await call('GET', `/v1/spaces/${spaceId}`, users.reader)).json().comments;
    const crComments = async () => (await call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, users.reader)).json().comments;
    expect(await spaceComments()).toBe(0);
    const a = await comment(users.commenter);
    await comment(users.commenter);
    const inChangeRequest = await comment(users.commenter, 'In the change request', crBase);
    expect(await spaceComments()).toBe(2);
    expect(await crComments()).toBe(1);
    await call('PUT', `${base}/${a.id}`, users.commenter, { resolved: true });
    await call('PUT', `${crBase}/${inChangeRequest.id}`, users.commenter, { resolved: true });
    expect(await spaceComments()).toBe(1);
    expect(await crComments()).toBe(0);
    // Listings count each space and change request exactly too.
    const spaces = (await call('GET', `/v1/orgs/${organizationId}/spaces`, users.reader)).json().items;
    expect(spaces.find((space: Json) => space.id === spaceId).comments).toBe(1);
    const other = (await call('POST', `/v1/orgs/${organizationId}/spaces`, users.admin, { title: 'Quiet' })).json();
    const listed = (await call('GET', `/v1/orgs/${organizationId}/spaces`, users.reader)).json().items;
    expect(listed.find((space: Json) => space.id === other.id).comments).toBe(0);
    const changeRequests = (await call('GET', `/v1/spaces/${spaceId}/change-requests`, users.reader)).json().items;
    expect(changeRequests.find((cr: Json) => cr.id === changeRequestId).comments).toBe(0);
    await call('PUT', `${crBase}/${inChangeRequest.id}`, users.commenter, { resolved: false });
    expect(await crComments()).toBe(1);
  });

  it('gives each level exactly its permissions, and hides comments from guests and outsiders', async () => {
    const { spaceId, users, base, call, comment } = await setup();
    const byCommenter = await comment(users.commenter);
    const url = `${base}/${byCommenter.id}`;
    const permissions = async (user: TestUser) => (await call('GET', url, user)).json().permissions;
    expect(await permissions(users.commenter)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(await permissions(users.other)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await permissions(users.editor)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await permissions(users.reader)).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(await permissions(users.admin)).toEqual({ view: true, edit: false, reply: true, delete: true });
    // Readers read but may not post; others may not edit a comment that is not theirs.
    expectError(await call('POST', base, users.reader, { body: { markdown: 'x' } }), 403);
    expectError(await call('PUT', url, users.other, { body: { markdown: 'Not mine' } }), 403);
    expectError(await call('DELETE', url, users.other), 403);
    expectError(await call('POST', `${url}/replies`, users.reader, { body: { markdown: 'x' } }), 403);
    // Guests and members of other organizations do not see the space, nor its comments.
    for (const user of [users.guest, users.outsider]) {
      expectError(await call('GET', base, user), 404);
      expectError(await call('GET', url, user), 404);
      expectError(await call('POST', base, user, { body: { markdown: 'x' } }), 404);
      expectError(await call('PUT', url, user, { resolved: true }), 404);
      expectError(await call('DELETE', url, user), 404);
    }
    expectError(await call('GET', base, undefined), 401);
    await expectOfficialError(official(users.outsider).spaces.getCommentInSpace(spaceId, byCommenter.id), 404);
    expectError(await call('GET', `${base}/cmt_missing`, users.reader), 404);
    expect(await t.database.db.comment.findUniqueOrThrow({ where: { id: byCommenter.id } })).toMatchObject({ body: 'A remark', status: 'open' });
  });

  it('deletes a comment with its replies and reactions (205): its author, or an admin', async () => {
    const { spaceId, users, base, call, ok, comment } = await setup();
    const mine = await comment(users.commenter);
    const theirs = await comment(users.other);
    const reply = await ok('POST', `${base}/${mine.id}/replies`, users.other, { body: { markdown: 'Agreed' } });
    await ok('PUT', `${base}/${mine.id}`, users.other, { addedReactions: ['👍'] });
    await ok('PUT', `${base}/${mine.id}/replies/${reply.id}`, users.commenter, { addedReactions: ['👍'] });
    await ok('DELETE', `${base}/${mine.id}`, users.commenter, undefined, 205);
    expect(await t.database.db.comment.count({ where: { id: mine.id } })).toBe(0);
    expect(await t.database.db.commentReply.count({ where: { commentId: mine.id } })).toBe(0);
    expect(await t.database.db.commentReaction.count({ where: { commentId: mine.id } })).toBe(0);
    expectError(await call('GET', `${base}/${mine.id}`, users.commenter), 404);
    expectError(await call('GET', `${base}/${mine.id}/replies/${reply.id}`, users.commenter), 404);
    await official(users.admin).spaces.deleteCommentInSpace(spaceId, theirs.id);
    expect(await t.database.db.comment.count({ where: { spaceId } })).toBe(0);
  });
});

describe('reactions', () => {
  it('keeps reactions exact and idempotent per user, grouped by emoji with their users', async () => {
    const { users, base, call, comment, reactionRows } = await setup();
    const posted = await comment(users.admin);
    const url = `${base}/${posted.id}`;
    const put = async (user: TestUser, body: Json) => {
      const response = await call('PUT', url, user, body);
      expect(response.statusCode, response.body).toBe(200);
      expectMatchesSchema('PUT', COMMENT, 200, response.json());
      return response.json();
    };
    await put(users.commenter, { addedReactions: ['👍', '👍', '🎉'] });
    await put(users.commenter, { addedReactions: ['👍'] });
    // Hex code points name the same emoji.
    const both = await put(users.other, { addedReactions: ['1f44d'] });
    expect(both.reactions).toEqual([
      { emoji: '🎉', count: 1, users: [{ user: expect.objectContaining({ id: users.commenter.id }), reactedAt: expect.any(String) }] },
      {
        emoji: '👍',
        count: 2,
        users: [
          { user: expect.objectContaining({ id: users.commenter.id }), reactedAt: expect.any(String) },
          { user: expect.objectContaining({ id: users.other.id }), reactedAt: expect.any(String) },
        ],
      },
    ]);
    // Removing twice, or removing what was never added, is harmless; a reaction both added and removed is removed.
    await put(users.commenter, { removedReactions: ['🎉', '🚀'] });
    const after = await put(users.commenter, { removedReactions: ['🎉'], addedReactions: ['🚀'] });
    expect(after.reactions.map((r: Json) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🚀', 1],
    ]);
    const removedWins = await put(users.other, { addedReactions: ['👀'], removedReactions: ['👀'] });
    expect(removedWins.reactions.map((r: Json) => r.emoji)).not.toContain('👀');
    expect(await reactionRows(posted.id)).toEqual(
      [
        { emoji: '👍', userId: users.commenter.id },
        { emoji: '👍', userId: users.other.id },
        { emoji: '🚀', userId: users.commenter.id },
      ].sort((a, b) => (a.emoji === b.emoji ? (a.userId < b.userId ? -1 : 1) : a.emoji < b.emoji ? -1 : 1)),
    );
    // Readers may not react.
    expectError(await call('PUT', url, users.reader, { addedReactions: ['👍'] }), 403);
  });

  it('counts exactly under concurrent reactions by many users (and repeated ones by the same user)', async () => {
    const { users, base, call, comment, reactionRows } = await setup();
    const posted = await comment(users.admin);
    const url = `${base}/${posted.id}`;
    const reactors: TestUser[] = [users.commenter, users.other, users.editor, users.admin];
    const calls = [
      ...reactors.map((user) => call('PUT', url, user, { addedReactions: ['🔥'] })),
      ...reactors.map((user) => call('PUT', url, user, { addedReactions: ['🔥', '✅'] })),
      ...Array.from({ length: 4 }, () => call('PUT', url, users.commenter, { addedReactions: ['🔥'] })),
    ];
    const responses = await Promise.all(calls);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const final = (await call('GET', url, users.reader)).json();
    expect(final.reactions.find((r: Json) => r.emoji === '🔥')).toMatchObject({ count: 4 });
    expect(final.reactions.find((r: Json) => r.emoji === '✅')).toMatchObject({ count: 4 });
    expect(final.reactions.find((r: Json) => r.emoji === '🔥').users).toHaveLength(4);
    expect(await reactionRows(posted.id)).toHaveLength(8);
    // Concurrent removals leave none.
    await Promise.all(reactors.map((user) => call('PUT', url, user, { removedReactions: ['🔥'] })));
    expect((await call('GET', url, users.reader)).json().reactions.map((r: Json) => [r.emoji, r.count])).toEqual([['✅', 4]]);
  });
});

describe('statement counts', () => {
  it('lists comments and replies in the same number of statements whatever their number', async () => {
    const { users, base, call, ok, comment } = await setup();
    const statements = async (url: string) => {
      // This instance's own writes are heard back first (PostgreSQL), not counted below.
      await t.database.generations.barrier();
      const before = t.statements();
      const response = await call('GET', url, users.admin);
      expect(response.statusCode, response.body).toBe(200);
      return t.statements() - before;
    };
    const addComment = async () => {
      const posted = await comment(users.commenter);
      await ok('PUT', `${base}/${posted.id}`, users.other, { addedReactions: ['👍'] });
      const reply = await ok('POST', `${base}/${posted.id}/replies`, users.other, { body: { markdown: 'r' } });
      await ok('PUT', `${base}/${posted.id}/replies/${reply.id}`, users.commenter, { addedReactions: ['👀'] });
      return posted.id as string;
    };
    const first = await addComment();
    const one = await statements(`${base}?limit=50`);
    const oneReply = await statements(`${base}/${first}/replies`);
    for (let i = 0; i < 5; i++) await addComment();
    // The same people (users are read in batches: authors, then reactors and repliers not read yet).
    await ok('POST', `${base}/${first}/replies`, users.other, { body: { markdown: 'more' } });
    // Each listing follows a write, so the response cache misses: this counts the work of one listing.
    expect(await statements(`${base}?limit=50`)).toBe(one);
    expect(await statements(`${base}/${first}/replies`)).toBe(oneReply);
  });
});

describe('replies', () => {
  it('lists, posts (with format), reads and updates replies through the official client', async () => {
    const { spaceId, users, base, call, comment } = await setup();
    const posted = await comment(users.admin);
    const { data: reply } = await official(users.commenter).spaces.postCommentReplyInSpace(spaceId, posted.id, { body: { markdown: 'Reply **one**' } });
    expectMatchesSchema('POST', REPLIES, 200, reply);
    expect(reply).toMatchObject({
      object: 'comment-reply',
      id: expect.stringMatching(/^rpl_/),
      postedBy: { id: users.commenter.id },
      reactions: [],
      body: { markdown: 'Reply **one**' },
      urls: { location: expect.stringContaining(`/v1/spaces/${spaceId}/comments/${posted.id}/replies/${reply.id}`) },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const asDocument = await call('POST', `${base}/${posted.id}/replies?format=document`, users.other, { body: { markdown: 'Reply two' } });
    expect(asDocument.statusCode, asDocument.body).toBe(200);
    expectMatchesSchema('POST', REPLIES, 200, asDocument.json());
    expect(asDocument.json().body).toMatchObject({ document: { object: 'document' } });

    const { data: listed } = await official(users.reader).spaces.listCommentRepliesInSpace(spaceId, posted.id);
    expectMatchesSchema('GET', REPLIES, 200, listed);
    expect(listed.items.map((item: Json) => item.id)).toEqual([reply.id, asDocument.json().id]);
    expect(listed.items[0]!.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const page = (await call('GET', `${base}/${posted.id}/replies?limit=1`, users.reader)).json();
    expect(page.items.map((item: Json) => item.id)).toEqual([reply.id]);
    expect(page.next.page).toEqual(expect.any(String));

    const { data: got } = await official(users.reader).spaces.getCommentReplyInSpace(spaceId, posted.id, reply.id);
    expectMatchesSchema('GET', REPLY, 200, got);
    expect(got.body).toEqual({ markdown: 'Reply **one**' });

    const { data: updated } = await official(users.commenter).spaces.updateCommentReplyInSpace(spaceId, posted.id, reply.id, {
      body: { markdown: 'Reply one, reworded' },
      addedReactions: ['👍'],
    });
    expectMatchesSchema('PUT', REPLY, 200, updated);
    expect(updated).toMatchObject({ body: { markdown: 'Reply one, reworded' }, editedAt: expect.any(String), reactions: [{ emoji: '👍', count: 1 }] });
    // Others react but may not edit it.
    expectError(await call('PUT', `${base}/${posted.id}/replies/${reply.id}`, users.other, { body: { markdown: 'x' } }), 403);
    const reacted = (await call('PUT', `${base}/${posted.id}/replies/${reply.id}`, users.other, { addedReactions: ['👍'] })).json();
    expect(reacted.reactions).toMatchObject([{ emoji: '👍', count: 2 }]);
    // The comment counts its replies and who wrote them.
    const withReplies = (await call('GET', `${base}/${posted.id}`, users.reader)).json();
    expect(withReplies.replies).toBe(2);
    expect(withReplies.repliers.map((r: Json) => [r.user.id, r.count]).sort()).toEqual(
      [
        [users.commenter.id, 1],
        [users.other.id, 1],
      ].sort(),
    );
    expectError(await call('GET', `${base}/${posted.id}/replies/rpl_missing`, users.reader), 404);

    // Bad updates name the field and change nothing.
    const replyUrl = `${base}/${posted.id}/replies/${reply.id}`;
    const before = await t.database.db.commentReply.findUniqueOrThrow({ where: { id: reply.id } });
    const reactionsBefore = await t.database.db.commentReaction.count({ where: { targetId: reply.id } });
    expectError(await call('PUT', replyUrl, users.commenter, { body: { markdown: 'x'.repeat(100_001) } }), 400, /^body\.markdown: /);
    expectError(await call('PUT', replyUrl, users.commenter, { body: {} }), 400, 'body.markdown: is required');
    expectError(await call('PUT', replyUrl, users.commenter, { addedReactions: ['not an emoji'] }), 400, /^addedReactions\.0: /);
    expectError(await call('PUT', replyUrl, users.commenter, { resolved: true }), 400, 'body: unknown field "resolved"');
    expectError(await call('PUT', replyUrl, users.commenter, []), 400);
    expect(await t.database.db.commentReply.findUniqueOrThrow({ where: { id: reply.id } })).toEqual(before);
    expect(await t.database.db.commentReaction.count({ where: { targetId: reply.id } })).toBe(reactionsBefore);
  });
});

describe('deleting replies', () => {
  it('deletes a reply with its reactions (205): its author or an admin, over REST, the official client and GraphQL; others get 403 and nothing changes', async () => {
    const { spaceId, changeRequestId, users, base, crBase, call, ok, comment } = await setup();
    const posted = await comment(users.admin);
    const reply = await ok('POST', `${base}/${posted.id}/replies`, users.commenter, { body: { markdown: 'Mine' } });
    const kept = await ok('POST', `${base}/${posted.id}/replies`, users.other, { body: { markdown: 'Theirs' } });
    await ok('PUT', `${base}/${posted.id}/replies/${reply.id}`, users.other, { addedReactions: ['👍'] });
    const replyUrl = `${base}/${posted.id}/replies/${reply.id}`;

    // Neither another commenter, a reader nor an outsider; the reply stays with its reaction.
    expectError(await call('DELETE', replyUrl, users.other), 403);
    expectError(await call('DELETE', replyUrl, users.reader), 403);
    expectError(await call('DELETE', replyUrl, users.outsider), 404);
    expectError(await call('DELETE', `${base}/${posted.id}/replies/rpl_missing`, users.admin), 404);
    expect(await t.database.db.commentReaction.count({ where: { targetId: reply.id } })).toBe(1);

    const deleted = await call('DELETE', replyUrl, users.commenter);
    expect(deleted.statusCode, deleted.body).toBe(205);
    expect(deleted.body).toBe('');
    expect(await t.database.db.commentReply.count({ where: { id: reply.id } })).toBe(0);
    expect(await t.database.db.commentReaction.count({ where: { targetId: reply.id } })).toBe(0);
    expectError(await call('GET', replyUrl, users.reader), 404);
    expectError(await call('DELETE', replyUrl, users.commenter), 404);
    const counted = (await call('GET', `${base}/${posted.id}`, users.reader)).json();
    expect(counted.replies).toBe(1);
    expect(counted.repliers.map((r: Json) => r.user.id)).toEqual([users.other.id]);

    // An admin deletes anyone's, through the official client too.
    await official(users.admin).spaces.deleteCommentReplyInSpace(spaceId, posted.id, kept.id);
    expect(await t.database.db.commentReply.count({ where: { commentId: posted.id } })).toBe(0);

    // In a change request, and over GraphQL.
    const onRequest = await comment(users.admin, 'On the request', crBase);
    const crReply = await ok('POST', `${crBase}/${onRequest.id}/replies`, users.commenter, { body: { markdown: 'Here' } });
    const other = await ok('POST', `${crBase}/${onRequest.id}/replies`, users.commenter, { body: { markdown: 'There' } });
    // A reply is not found under another comment.
    expectError(await call('DELETE', `${base}/${posted.id}/replies/${crReply.id}`, users.admin), 404);
    await official(users.commenter).spaces.deleteCommentReplyInChangeRequest(spaceId, changeRequestId, onRequest.id, crReply.id);
    const mutation = 'mutation($id: ID!) { deleteCommentReply(input: { replyId: $id }) { deletedReplyId } }';
    const refused = await t.graphql(users.other.token, mutation, { id: other.id });
    expect(refused.errors?.[0]?.extensions?.code).toBe(403);
    const viaGraph = await t.graphql(users.admin.token, mutation, { id: other.id });
    expect(viaGraph).toMatchObject({ data: { deleteCommentReply: { deletedReplyId: other.id } } });
    expect(viaGraph.errors).toBeUndefined();
    expect(await t.database.db.commentReply.count({ where: { commentId: onRequest.id } })).toBe(0);
  });
});

describe('change request comments', () => {
  it('keeps comments of a change request apart from the space, for change requests of that space only', async () => {
    const { organizationId, spaceId, changeRequestId, users, base, crBase, call, comment } = await setup();
    const { data: posted } = await official(users.commenter).spaces.postCommentInChangeRequest(spaceId, changeRequestId, { body: { markdown: 'Typo here' } });
    expectMatchesSchema('POST', CR_COMMENTS, 200, posted);
    expect(posted.target).toMatchObject({ space: spaceId, changeRequest: changeRequestId });
    expect(posted.urls.location).toContain(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments/${posted.id}`);
    const onSpace = await comment(users.commenter);

    const { data: listed } = await official(users.reader).spaces.listCommentsInChangeRequest(spaceId, changeRequestId);
    expectMatchesSchema('GET', CR_COMMENTS, 200, listed);
    expect(listed.items.map((item: Json) => item.id)).toEqual([posted.id]);
    expect((await call('GET', base, users.reader)).json().items.map((item: Json) => item.id)).toEqual([onSpace.id]);
    // Each comment exists only where it was posted.
    expectError(await call('GET', `${base}/${posted.id}`, users.reader), 404);
    expectError(await call('GET', `${crBase}/${onSpace.id}`, users.reader), 404);

    const { data: resolved } = await official(users.commenter).spaces.updateCommentInChangeRequest(spaceId, changeRequestId, posted.id, { resolved: true });
    expectMatchesSchema('PUT', CR_COMMENT, 200, resolved);
    expect(resolved.status).toBe('resolved');
    const { data: reply } = await official(users.other).spaces.postCommentReplyInChangeRequest(spaceId, changeRequestId, posted.id, {
      body: { markdown: 'Fixed' },
    });
    expectMatchesSchema('POST', `${CR_COMMENT}/replies`, 200, reply);
    const { data: replies } = await official(users.reader).spaces.listCommentRepliesInChangeRequest(spaceId, changeRequestId, posted.id);
    expectMatchesSchema('GET', `${CR_COMMENT}/replies`, 200, replies);
    expect(replies.items.map((item: Json) => item.id)).toEqual([reply.id]);
    const { data: gotReply } = await official(users.reader).spaces.getCommentReplyInChangeRequest(spaceId, changeRequestId, posted.id, reply.id);
    expectMatchesSchema('GET', `${CR_COMMENT}/replies/{commentReplyId}`, 200, gotReply);
    expect(gotReply.body).toEqual({ markdown: 'Fixed' });
    const updatedReply = await call('PUT', `${crBase}/${posted.id}/replies/${reply.id}`, users.other, { body: { markdown: 'Fixed, twice' } });
    expect(updatedReply.statusCode).toBe(200);
    expectMatchesSchema('PUT', `${CR_COMMENT}/replies/{commentReplyId}`, 200, updatedReply.json());
    const { data: gotComment } = await official(users.reader).spaces.getCommentInChangeRequest(spaceId, changeRequestId, posted.id);
    expectMatchesSchema('GET', CR_COMMENT, 200, gotComment);
    expect(gotComment.replies).toBe(1);

    // A change request of another space is not found under this one.
    const otherSpace = (await call('POST', `/v1/orgs/${organizationId}/spaces`, users.admin, { title: 'Other' })).json().id;
    const foreign = (await call('POST', `/v1/spaces/${otherSpace}/change-requests`, users.admin, {})).json().id;
    expectError(await call('GET', `/v1/spaces/${spaceId}/change-requests/${foreign}/comments`, users.reader), 404);
    expectError(await call('POST', `/v1/spaces/${spaceId}/change-requests/${foreign}/comments`, users.commenter, { body: { markdown: 'x' } }), 404);
    expect(await t.database.db.comment.count({ where: { changeRequestId: foreign } })).toBe(0);

    const deleted = await call('DELETE', `${crBase}/${posted.id}`, users.admin);
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect(await t.database.db.comment.count({ where: { id: posted.id } })).toBe(0);
    expect(await t.database.db.commentReply.count({ where: { id: reply.id } })).toBe(0);
  });
});

describe('in a deleted space', () => {
  it('refuses every comment write with a 409, deleting a comment and updating the change request included, and changes nothing', async () => {
    const { spaceId, changeRequestId, users, call, ok, base, crBase, comment } = await setup();
    const remark = await comment(users.commenter);
    const onRequest = await comment(users.commenter, 'On the request', crBase);
    await ok('DELETE', `/v1/spaces/${spaceId}`, users.admin, undefined, 205);
    const before = {
      comments: await t.database.db.comment.findMany({ where: { spaceId }, orderBy: { id: 'asc' } }),
      changeRequest: await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } }),
    };
    for (const [method, url, body] of [
      ['DELETE', `${base}/${remark.id}`, undefined],
      ['DELETE', `${crBase}/${onRequest.id}`, undefined],
      ['PUT', `${base}/${remark.id}`, { body: { markdown: 'Edited' } }],
      ['POST', `${base}/${remark.id}/replies`, { body: { markdown: 'Reply' } }],
      ['PATCH', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, { subject: 'Renamed', status: 'archived' }],
    ] as const) {
      expectError(await call(method, url, users.admin, body), 409, `space "${spaceId}" is deleted: restore it first`);
    }
    expect(await t.database.db.comment.findMany({ where: { spaceId }, orderBy: { id: 'asc' } })).toEqual(before.comments);
    expect(await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } })).toEqual(before.changeRequest);
  });
});
