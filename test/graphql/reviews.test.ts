import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { subscribe } from '../support/event-stream.ts';
import { buildTeam } from '../support/factories.ts';
import { USER_FIELDS, connectionOf, expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

/**
 * Reviews of change requests over GraphQL: the same domain functions as REST,
 * so the same objects field for field, the same cursors as REST page tokens,
 * the same refusals (in the graph's error shape) and the same database after;
 * a submitted review reaches `spaceEvents` subscribers.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
});

/** A space with a change request opened and edited by an editor, a reviewer at `review` and a reader. */
async function setup() {
  const team = await buildTeam(t.database);
  const { admin, organization, member } = team;
  const author = await member('edit', 'author');
  const reviewer = await member('review', 'reviewer');
  const reader = await member('read', 'reader');
  const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Guide' } })).json();
  const opened = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject: 'Intro' } });
  expect(opened.statusCode, opened.body).toBe(201);
  const changeRequestId = opened.json().id as string;
  const path = `/v1/spaces/${space.id}/change-requests/${changeRequestId}`;
  const edited = await t.call('POST', `${path}/content?compat=false`, {
    token: author.token,
    body: { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.\n' } }] },
  });
  expect(edited.statusCode, edited.body).toBe(200);
  const rest = async (token: string, url: string) => {
    const response = await t.call('GET', url, { token });
    expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  return { ...team, author, reviewer, reader, space, changeRequestId, path, rest };
}

const REVIEW_FIELDS = `id object revision reviewer { ${USER_FIELDS} } requestedBy { ${USER_FIELDS} } status outdated comment { id } createdAt updatedAt urls { location }`;
const REQUEST_FIELDS = `object kind revision user { ${USER_FIELDS} } requestedBy { ${USER_FIELDS} } createdAt`;
const CONTRIBUTOR_FIELDS = `user { ${USER_FIELDS} } actionType count updatedAt`;

type Json = Record<string, any>;
/** A REST user as GraphQL selects it: every field, null where REST leaves one out. */
const user = (rest: Json) => ({ photoURL: null, ...rest });
/** A REST review as GraphQL answers it (relations as objects; the comment by its id; enum names). */
const reviewAsGraphQL = (rest: Json) => ({
  ...rest,
  status: rest.status.replace('-', '_'),
  reviewer: user(rest.reviewer),
  requestedBy: rest.requestedBy ? user(rest.requestedBy) : null,
  comment: rest.comment ? { id: rest.comment.id } : null,
});
const requestAsGraphQL = (rest: Json) => ({ ...rest, user: user(rest.user), requestedBy: user(rest.requestedBy) });
const contributorAsGraphQL = (rest: Json) => ({ ...rest, user: user(rest.user) });

const CHANGE_REQUEST = (selection: string) => `query($id: ID!) { node(id: $id) { ... on ChangeRequest { ${selection} } } }`;

describe('change request reviews over GraphQL', () => {
  it('submits reviews and lists them as REST does, field for field, with REST page tokens as cursors', async () => {
    const { reviewer, changeRequestId, path, rest } = await setup();
    const first = expectData(
      await mutate(
        t,
        reviewer.token,
        'submitChangeRequestReview',
        { changeRequestId, status: 'changes_requested', comment: 'Please add an example.' },
        `review { ${REVIEW_FIELDS} } changeRequest { id }`,
      ),
    ).submitChangeRequestReview;
    expect(first.changeRequest).toEqual({ id: changeRequestId });
    expect(first.review).toMatchObject({ status: 'changes_requested', outdated: false, reviewer: { id: reviewer.id }, requestedBy: null });
    expect(reviewAsGraphQL(await rest(reviewer.token, `${path}/reviews/${first.review.id}`))).toEqual(first.review);
    // By its id, as REST's getChangeRequestReviewById.
    const byId = expectData(
      await t.graphql(reviewer.token, `query($id: ID!) { node(id: $id) { __typename ... on ChangeRequestReview { ${REVIEW_FIELDS} } } }`, {
        id: first.review.id,
      }),
    );
    expect(byId.node).toEqual({ __typename: 'ChangeRequestReview', ...first.review });
    const comment = expectData(
      await t.graphql(reviewer.token, 'query($id: ID!) { node(id: $id) { ... on Comment { body } } }', { id: first.review.comment.id }),
    );
    expect(comment.node.body).toEqual({ markdown: 'Please add an example.' });

    const second = expectData(
      await mutate(t, reviewer.token, 'submitChangeRequestReview', { changeRequestId, status: 'approved' }, 'review { id comment { id } }'),
    ).submitChangeRequestReview.review;
    expect(second.comment).toBeNull();

    const listed = expectData(await t.graphql(reviewer.token, CHANGE_REQUEST(`reviews(first: 1) { ${connectionOf(REVIEW_FIELDS)} }`), { id: changeRequestId }))
      .node.reviews;
    const restFirstPage = await rest(reviewer.token, `${path}/reviews?limit=1`);
    expect(listed.totalCount).toBe(2);
    expect(listed.edges.map((edge: Json) => edge.node)).toEqual(restFirstPage.items.map(reviewAsGraphQL));
    expect(listed.edges[0].node).toMatchObject({ id: second.id, outdated: false });
    expect(listed.pageInfo).toMatchObject({ hasNextPage: true, endCursor: restFirstPage.next.page });
    // The cursor is the REST page token both ways.
    const restSecondPage = await rest(reviewer.token, `${path}/reviews?limit=1&page=${encodeURIComponent(listed.pageInfo.endCursor)}`);
    const secondPage = expectData(
      await t.graphql(
        reviewer.token,
        'query($id: ID!, $after: String) { node(id: $id) { ... on ChangeRequest { reviews(first: 1, after: $after) { edges { node { id outdated } } } } } }',
        {
          id: changeRequestId,
          after: restFirstPage.next.page,
        },
      ),
    ).node.reviews;
    expect(secondPage.edges.map((edge: Json) => edge.node)).toEqual([{ id: first.review.id, outdated: true }]);
    expect(restSecondPage.items.map((item: Json) => item.id)).toEqual([first.review.id]);

    const current = expectData(
      await t.graphql(reviewer.token, CHANGE_REQUEST('reviews(outdated: false) { totalCount edges { node { id } } }'), { id: changeRequestId }),
    );
    expect(current.node.reviews).toEqual({ totalCount: 1, edges: [{ node: { id: second.id } }] });
  });

  it('requests reviewers, lists them and the contributors as REST does; a requested reader may review; a withdrawn request is gone', async () => {
    const { author, reviewer, reader, changeRequestId, path, rest } = await setup();
    const requested = expectData(
      await mutate(
        t,
        author.token,
        'requestReviewersForChangeRequest',
        { changeRequestId, users: [reader.id, reader.id], subject: 'Intro, reviewed' },
        `requestedReviewers { ${REQUEST_FIELDS} } changeRequest { subject }`,
      ),
    ).requestReviewersForChangeRequest;
    expect(requested.changeRequest).toEqual({ subject: 'Intro, reviewed' });
    expect(requested.requestedReviewers).toHaveLength(1);
    expect(requested.requestedReviewers[0]).toMatchObject({
      object: 'change-request-requested-reviewer',
      kind: 'user',
      user: { id: reader.id },
      requestedBy: { id: author.id },
    });

    const restRequests = await rest(reviewer.token, `${path}/requested-reviewers`);
    const listed = expectData(
      await t.graphql(reviewer.token, CHANGE_REQUEST(`requestedReviewers(first: 10) { ${connectionOf(REQUEST_FIELDS)} }`), { id: changeRequestId }),
    ).node.requestedReviewers;
    expect(listed.totalCount).toBe(restRequests.count);
    expect(listed.edges.map((edge: Json) => edge.node)).toEqual(restRequests.items.map(requestAsGraphQL));
    expect(requested.requestedReviewers).toEqual(restRequests.items.map(requestAsGraphQL));

    // A reader who was asked may review; the review names who asked.
    const review = expectData(
      await mutate(t, reader.token, 'submitChangeRequestReview', { changeRequestId, status: 'approved' }, 'review { requestedBy { id } }'),
    );
    expect(review.submitChangeRequestReview.review.requestedBy).toEqual({ id: author.id });

    await t.call('POST', `${path}/comments`, { token: reviewer.token, body: { body: { markdown: 'Looks fine.' } } });
    const restContributors = await rest(reviewer.token, `${path}/contributors`);
    const contributors = expectData(await t.graphql(reviewer.token, CHANGE_REQUEST(`contributors { ${CONTRIBUTOR_FIELDS} }`), { id: changeRequestId })).node
      .contributors;
    expect(contributors).toEqual(restContributors.items.map(contributorAsGraphQL));
    expect(contributors.map((contributor: Json) => [contributor.user.id, contributor.actionType])).toEqual([
      [reviewer.id, 'comment'],
      [author.id, 'edit'],
    ]);

    const removed = await mutate(
      t,
      author.token,
      'removeRequestedReviewerFromChangeRequest',
      { changeRequestId, userId: reader.id },
      'removed changeRequest { id }',
    );
    expect(expectData(removed).removeRequestedReviewerFromChangeRequest).toEqual({ removed: true, changeRequest: { id: changeRequestId } });
    expect(await t.database.db.changeRequestReviewer.count({ where: { changeRequestId } })).toBe(0);
    const again = await mutate(t, author.token, 'removeRequestedReviewerFromChangeRequest', { changeRequestId, userId: reader.id }, 'removed');
    expect(expectData(again).removeRequestedReviewerFromChangeRequest).toEqual({ removed: false });
    // Withdrawn, the reader may no longer review.
    expectGraphQLError(await mutate(t, reader.token, 'submitChangeRequestReview', { changeRequestId, status: 'approved' }, 'review { id }'), 403);
  });

  it('refuses as REST does, in the graph error shape, and a refused write changes nothing', async () => {
    const { admin, author, reviewer, reader, changeRequestId, path } = await setup();
    const reviews = () => t.database.db.changeRequestReview.count({ where: { changeRequestId } });
    const submit = (token: string, input: Json) => mutate(t, token, 'submitChangeRequestReview', { changeRequestId, ...input }, 'review { id }');

    expectGraphQLError(await submit(author.token, { status: 'approved' }), 403, 'You are not allowed to review your own change request');
    expectGraphQLError(await submit(reader.token, { status: 'approved' }), 403, /review this change request/);
    expectGraphQLError(await submit(reviewer.token, { status: 'approved', comment: '   ' }), 400, /^comment/);
    expectGraphQLError(await submit(reviewer.token, { status: 'approved', changeRequestId: 'cr_missing' }), 404);
    expect(await reviews()).toBe(0);

    const request = (token: string, users: string[]) =>
      mutate(t, token, 'requestReviewersForChangeRequest', { changeRequestId, users }, 'requestedReviewers { revision }');
    expectGraphQLError(await request(reviewer.token, [author.id]), 400, `users[0]: "${author.id}" is the change request's author, who cannot review it`);
    expectGraphQLError(await request(reader.token, [reviewer.id]), 403);
    expectGraphQLError(await request(author.token, []), 400, /^users: must name at least one user/);
    expectGraphQLError(await request(author.token, ['usr_nobody']), 400, 'users[0]: no user "usr_nobody" can read this space');
    expect(await t.database.db.changeRequestReviewer.count({ where: { changeRequestId } })).toBe(0);

    // Another member's request is withdrawn by its author or an editor only; a reader may withdraw their own.
    expectData(await request(author.token, [reader.id, reviewer.id]));
    const remove = (token: string, userId: string) => mutate(t, token, 'removeRequestedReviewerFromChangeRequest', { changeRequestId, userId }, 'removed');
    expectGraphQLError(await remove(reader.token, reviewer.id), 403);
    expect(expectData(await remove(reader.token, reader.id)).removeRequestedReviewerFromChangeRequest.removed).toBe(true);
    expect(await t.database.db.changeRequestReviewer.findMany({ where: { changeRequestId }, select: { userId: true } })).toEqual([{ userId: reviewer.id }]);

    // Archived: no longer reviewed.
    const archived = await t.call('PATCH', path, { token: admin.token, body: { status: 'archived' } });
    expect(archived.statusCode, archived.body).toBe(200);
    expectGraphQLError(await submit(reviewer.token, { status: 'approved' }), 409, /is archived: it can no longer be reviewed/);
    expect(await reviews()).toBe(0);
  });

  it('is read by those who read the space only', async () => {
    const { changeRequestId, reviewer } = await setup();
    expectData(await mutate(t, reviewer.token, 'submitChangeRequestReview', { changeRequestId, status: 'approved' }, 'review { id }'));
    const outsider = await buildTeam(t.database);
    const hidden = await t.graphql(outsider.admin.token, CHANGE_REQUEST('reviews { totalCount }'), { id: changeRequestId });
    expectGraphQLError(hidden, 404);
    const review = await t.database.db.changeRequestReview.findFirstOrThrow({ where: { changeRequestId } });
    expectGraphQLError(await t.graphql(outsider.admin.token, 'query($id: ID!) { node(id: $id) { id } }', { id: review.id }), 404);
    expectGraphQLError(await t.graphql(reviewer.token, 'query($id: ID!) { node(id: $id) { id } }', { id: 'crv_missing' }), 404);
  });

  it('costs the same number of SQL statements for 6 change requests as for 2: reviews, requested reviewers and contributors are read in batches', async () => {
    const counted = await createTestApp({ responseCacheBytes: 0 });
    const spaceWith = async (changeRequests: number) => {
      const { admin, author, reviewer, reader, space } = await setup();
      for (let index = 0; index < changeRequests; index++) {
        const opened = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject: `Change ${index}` } });
        const changeRequestId = opened.json().id as string;
        const path = `/v1/spaces/${space.id}/change-requests/${changeRequestId}`;
        await t.call('POST', `${path}/content?compat=false`, {
          token: author.token,
          body: { changes: [{ operation: 'insert_page', title: `Page ${index}`, document: { markdown: 'Hello.\n' } }] },
        });
        expectData(
          await mutate(
            t,
            author.token,
            'requestReviewersForChangeRequest',
            { changeRequestId, users: [reviewer.id, reader.id] },
            'requestedReviewers { revision }',
          ),
        );
        expectData(await mutate(t, reviewer.token, 'submitChangeRequestReview', { changeRequestId, status: 'approved', comment: 'Good.' }, 'review { id }'));
        const commented = await t.call('POST', `${path}/comments`, { token: admin.token, body: { body: { markdown: 'A question.' } } });
        const replied = await t.call('POST', `${path}/comments/${commented.json().id}/replies`, {
          token: reviewer.token,
          body: { body: { markdown: 'An answer.' } },
        });
        expect(replied.statusCode, replied.body).toBe(200);
      }
      return { admin, space };
    };
    const statementsFor = async (changeRequests: number) => {
      const { admin, space } = await spaceWith(changeRequests);
      const query = `query($id: ID!) { space(id: $id) { changeRequestsConnection(first: 20) { edges { node {
        reviews(first: 5) { totalCount edges { node { status reviewer { id } requestedBy { id } comment { id } } } }
        requestedReviewers(first: 5) { totalCount edges { node { user { id } requestedBy { id } } } }
        contributors { user { id } actionType count }
      } } } } }`;
      // The viewer behind the token is read once, then kept: warmed so that only the query is counted.
      await counted.call('GET', '/v1/user', { token: admin.token });
      await counted.database.generations.barrier({ everything: true });
      const before = counted.statements();
      const data = expectData(await counted.graphql(admin.token, query, { id: space.id }));
      return { count: counted.statements() - before, nodes: data.space.changeRequestsConnection.edges.map((edge: Json) => edge.node) };
    };
    // Once first, unmeasured: what an instance reads once (its first query of a kind) is not counted below.
    await statementsFor(1);
    const small = await statementsFor(2);
    const large = await statementsFor(6);
    // With the one setup() opens.
    expect(large.nodes).toHaveLength(7);
    expect(large.nodes[0].reviews.totalCount).toBe(1);
    expect(large.nodes[0].requestedReviewers.totalCount).toBe(2);
    // The reviewer's review comment and reply, the admin's comment, the author's edit.
    expect(large.nodes[0].contributors.map((contributor: Json) => [contributor.actionType, contributor.count]).sort()).toEqual([
      ['comment', 1],
      ['comment', 2],
      ['edit', 1],
    ]);
    // Not more per change request (contributors read one by one cost 3 each); batched loads of users and
    // comments can fall into one more wave or one fewer as the database answers (PostgreSQL).
    expect(Math.abs(large.count - small.count)).toBeLessThanOrEqual(1);
    expect(large.count).toBeLessThanOrEqual(16);
  });

  it('delivers a submitted review to spaceEvents subscribers, with the review', async () => {
    const { admin, reviewer, space, changeRequestId } = await setup();
    const stream = await subscribe(
      base,
      admin.token,
      `subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { __typename ... on Event { kind actor { id } } ... on ChangeRequestEvent { changeRequest { id } review { id status reviewer { id } } } } }`,
      { spaceId: space.id },
    );
    expect(stream.status).toBe(200);
    const submitted = expectData(
      await mutate(t, reviewer.token, 'submitChangeRequestReview', { changeRequestId, status: 'changes_requested' }, 'review { id }'),
    );
    const [event] = await stream.until(1);
    expect(event!.data!.spaceEvents).toEqual({
      __typename: 'ChangeRequestEvent',
      kind: 'CHANGE_REQUEST_REVIEWED',
      actor: { id: reviewer.id },
      changeRequest: { id: changeRequestId },
      review: { id: submitted.submitChangeRequestReview.review.id, status: 'changes_requested', reviewer: { id: reviewer.id } },
    });
    stream.close();
  });
});
