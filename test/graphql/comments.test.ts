import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { type TestUser, buildTeam } from '../support/factories.ts';
import { expectData, expectGraphQLError, expectUnauthenticated, mutate } from '../support/graphql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Json = Record<string, any>;

// Test users have no photo: REST leaves photoURL out where GraphQL answers null.
const USER = 'id object displayName email urls { location }';
const REACTIONS = `reactions { emoji count users { user { ${USER} } reactedAt } }`;
const COMMENT_FIELDS = `
  id object postedBy { ${USER} } postedAt editedAt body ${REACTIONS} replies repliers { user { ${USER} } count updatedAt }
  target { space { id } changeRequest { id } revision page { id title emoji icon path createdAt updatedAt outdated } node { id preview } }
  urls { location } permissions { view edit reply delete } status resolvedAt resolvedBy { ${USER} }`;
const REPLY_FIELDS = `id object postedBy { ${USER} } postedAt editedAt body ${REACTIONS} urls { location } permissions { view edit reply delete }`;

/** A space with a page and a change request, members at the levels that matter, and a REST caller. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const rest = async (method: string, url: string, user: TestUser = team.admin, body?: unknown) => {
    const response = await t.call(method, url, { token: user.token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 205 ? undefined : response.json();
  };
  const spaceId = (await rest('POST', `/v1/orgs/${organizationId}/spaces`, team.admin, { title: 'Commented' })).id as string;
  const draft = await rest('POST', `/v1/spaces/${spaceId}/change-requests`, team.admin, {});
  await rest('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/content`, team.admin, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n' } }],
  });
  await rest('POST', `/v1/spaces/${spaceId}/change-requests/${draft.id}/merge`, team.admin);
  const pageId = (await rest('GET', `/v1/spaces/${spaceId}/content/pages`)).pages[0].id as string;
  const changeRequestId = (await rest('POST', `/v1/spaces/${spaceId}/change-requests`, team.admin, { subject: 'CR' })).id as string;
  const users = {
    admin: team.admin,
    reader: await team.member('read'),
    commenter: await team.member('comment'),
    other: await team.member('comment', 'other'),
    guest: await team.member(null),
  };
  return { organizationId, spaceId, pageId, changeRequestId, users, rest };
}

async function run(user: TestUser, name: string, input: Record<string, unknown>, selection: string) {
  return expectData(await mutate(t, user.token, name, input, selection))[name];
}

/** GraphQL's comment as REST's JSON: relations become ids, absent values are left out. */
function asRest(comment: Json) {
  const { target, editedAt, resolvedAt, resolvedBy, status, ...rest } = comment;
  return {
    ...rest,
    ...(editedAt ? { editedAt } : {}),
    target: {
      space: target.space.id,
      revision: target.revision,
      ...(target.changeRequest ? { changeRequest: target.changeRequest.id } : {}),
      // REST leaves out what a page lacks (emoji, icon; all but id when the page is gone).
      ...(target.page ? { page: Object.fromEntries(Object.entries(target.page).filter(([, value]) => value !== null)) } : {}),
      ...(target.node ? { node: target.node } : {}),
    },
    status,
    ...(status === 'resolved' ? { resolvedAt, resolvedBy } : {}),
  };
}

function replyAsRest(reply: Json) {
  const { editedAt, ...rest } = reply;
  return { ...rest, ...(editedAt ? { editedAt } : {}) };
}

describe('comments over GraphQL', () => {
  it('writes comments and replies with mutations, and answers them as REST does', async () => {
    const { spaceId, pageId, changeRequestId, users, rest } = await setup();
    const created = await run(
      users.commenter,
      'createComment',
      { spaceId, body: 'Is this **right**?', page: pageId, node: 'n1' },
      `comment { ${COMMENT_FIELDS} }`,
    );
    const commentId = created.comment.id as string;
    expect(created.comment).toMatchObject({ object: 'comment', status: 'open', body: { markdown: 'Is this **right**?' }, replies: 0 });
    const reply = await run(users.other, 'createCommentReply', { commentId, body: 'Yes' }, `reply { ${REPLY_FIELDS} }`);
    const replyId = reply.reply.id as string;
    await run(users.other, 'updateComment', { commentId, resolved: true, addedReactions: ['👍', '1f389'] }, 'comment { id }');
    await run(users.commenter, 'updateComment', { commentId, addedReactions: ['👍'], body: 'Is this right?' }, 'comment { id }');
    const updatedReply = await run(users.other, 'updateCommentReply', { replyId, body: 'Yes!', addedReactions: ['🚀'] }, `reply { ${REPLY_FIELDS} }`);
    expect(updatedReply.reply).toMatchObject({ body: { markdown: 'Yes!' }, editedAt: expect.any(String), reactions: [{ emoji: '🚀', count: 1 }] });

    // Parity with REST, as each viewer sees it.
    for (const viewer of [users.reader, users.commenter, users.admin]) {
      const data = expectData(
        await t.graphql(
          viewer.token,
          `query($space: ID!, $comment: ID!) {
            space(id: $space) { comments commentsConnection(first: 10) { totalCount edges { node { ${COMMENT_FIELDS}
              repliesConnection(first: 10) { totalCount edges { node { ${REPLY_FIELDS} } } } } } } }
            node(id: $comment) { ... on Comment { id } }
          }`,
          { space: spaceId, comment: commentId },
        ),
      );
      expect(data.node.id).toBe(commentId);
      const restComments = (await rest('GET', `/v1/spaces/${spaceId}/comments`, viewer)).items;
      const nodes = data.space.commentsConnection.edges.map((edge: Json) => edge.node);
      expect(nodes.map(({ repliesConnection: _, ...node }: Json) => asRest(node))).toEqual(restComments);
      expect(data.space.comments).toBe((await rest('GET', `/v1/spaces/${spaceId}`, viewer)).comments);
      const restReplies = (await rest('GET', `/v1/spaces/${spaceId}/comments/${commentId}/replies`, viewer)).items;
      expect(nodes[0].repliesConnection.edges.map((edge: Json) => replyAsRest(edge.node))).toEqual(restReplies);
      expect(nodes[0].repliesConnection.totalCount).toBe(1);
    }
    const comment = (await rest('GET', `/v1/spaces/${spaceId}/comments/${commentId}`, users.reader)) as Json;
    expect(comment).toMatchObject({ status: 'resolved', resolvedBy: { id: users.other.id }, editedAt: expect.any(String) });
    expect(comment.reactions.map((r: Json) => [r.emoji, r.count])).toEqual([
      ['🎉', 1],
      ['👍', 2],
    ]);

    // Change request comments, and the change request's count.
    const inCr = await run(users.commenter, 'createComment', { spaceId, changeRequestId, body: 'In the CR' }, 'comment { id target { changeRequest { id } } }');
    expect(inCr.comment.target.changeRequest.id).toBe(changeRequestId);
    const crData = expectData(
      await t.graphql(
        users.reader.token,
        `query($id: ID!) { node(id: $id) { ... on ChangeRequest { comments commentsConnection(first: 5, status: open, order: asc) { edges { node { id body(format: document) } } } } } }`,
        { id: changeRequestId },
      ),
    );
    expect(crData.node.comments).toBe(1);
    expect(crData.node.commentsConnection.edges.map((edge: Json) => edge.node.id)).toEqual([inCr.comment.id]);
    expect(crData.node.commentsConnection.edges[0].node.body).toMatchObject({ document: { object: 'document' } });

    // Delete: the author's own, removing its replies.
    const deleted = await run(users.commenter, 'deleteComment', { commentId }, 'deletedCommentId');
    expect(deleted.deletedCommentId).toBe(commentId);
    expect(await t.database.db.commentReply.count({ where: { id: replyId } })).toBe(0);
  });

  it('refuses what REST refuses, with the same codes and messages, writing nothing', async () => {
    const { spaceId, users } = await setup();
    const { comment } = await run(users.commenter, 'createComment', { spaceId, body: 'Mine' }, 'comment { id }');
    expectGraphQLError(await mutate(t, users.reader.token, 'createComment', { spaceId, body: 'x' }, 'comment { id }'), 403);
    expectGraphQLError(await mutate(t, users.guest.token, 'createComment', { spaceId, body: 'x' }, 'comment { id }'), 404);
    expectGraphQLError(
      await mutate(t, users.commenter.token, 'createComment', { spaceId, body: ' ' }, 'comment { id }'),
      400,
      /^body\.markdown: must not be empty/,
    );
    expectGraphQLError(
      await mutate(t, users.commenter.token, 'createComment', { spaceId, body: 'x', page: 'nope' }, 'comment { id }'),
      400,
      'page: no page "nope" in this space',
    );
    expectGraphQLError(
      await mutate(t, users.commenter.token, 'updateComment', { commentId: comment.id, addedReactions: ['nope'] }, 'comment { id }'),
      400,
      /^addedReactions\.0: must be an emoji/,
    );
    expectGraphQLError(await mutate(t, users.other.token, 'updateComment', { commentId: comment.id, body: 'Not mine' }, 'comment { id }'), 403);
    expectGraphQLError(await mutate(t, users.other.token, 'deleteComment', { commentId: comment.id }, 'deletedCommentId'), 403);
    expectGraphQLError(await mutate(t, users.guest.token, 'deleteComment', { commentId: comment.id }, 'deletedCommentId'), 404);
    expectGraphQLError(await t.graphql(users.guest.token, 'query($id: ID!) { node(id: $id) { id } }', { id: comment.id }), 404);
    const outsider = (await buildTeam(t.database)).admin;
    expectGraphQLError(await t.graphql(outsider.token, 'query($id: ID!) { node(id: $id) { id } }', { id: comment.id }), 404);
    await expectUnauthenticated(t, 'query($id: ID!) { node(id: $id) { id } }', { id: comment.id });
    expect(await t.database.db.comment.findMany({ where: { spaceId }, select: { id: true, body: true, status: true } })).toEqual([
      { id: comment.id, body: 'Mine', status: 'open' },
    ]);
    expect(await t.database.db.commentReaction.count({ where: { commentId: comment.id } })).toBe(0);
  });

  it('reads comment counts and connections of many spaces in a bounded number of statements', async () => {
    const { organizationId, users, rest } = await setup();
    const statementsFor = async () => {
      // This instance's own writes are heard back first (PostgreSQL), not counted below.
      await t.database.generations.barrier();
      const before = t.statements();
      const data = expectData(
        await t.graphql(
          users.admin.token,
          `query($org: ID!) { organization(id: $org) { spaces(first: 50) { edges { node { id comments
            commentsConnection(first: 5) { totalCount edges { node { id replies ${REACTIONS} permissions { edit } postedBy { id }
              repliesConnection(first: 5) { edges { node { id reactions { count } } } } } } }
            changeRequestsConnection(first: 5) { edges { node { comments } } } } } } } }`,
          { org: organizationId },
        ),
      );
      return { count: t.statements() - before, data };
    };
    const addSpace = async (comments: number) => {
      const space = await rest('POST', `/v1/orgs/${organizationId}/spaces`, users.admin, { title: 'S' });
      await rest('POST', `/v1/spaces/${space.id}/change-requests`, users.admin, {});
      for (let i = 0; i < comments; i++) {
        const comment = await rest('POST', `/v1/spaces/${space.id}/comments`, users.commenter, { body: { markdown: `c${i}` } });
        await rest('PUT', `/v1/spaces/${space.id}/comments/${comment.id}`, users.other, { addedReactions: ['👍'] });
        await rest('POST', `/v1/spaces/${space.id}/comments/${comment.id}/replies`, users.other, { body: { markdown: 'r' } });
      }
    };
    await addSpace(1);
    const small = await statementsFor();
    for (let i = 0; i < 4; i++) await addSpace(2);
    const large = await statementsFor();
    expect(large.data.organization.spaces.edges.length).toBeGreaterThan(small.data.organization.spaces.edges.length);
    expect(large.count).toBe(small.count);
  });
});
