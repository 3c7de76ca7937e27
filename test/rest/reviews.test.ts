import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const CR = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}';

/** A space with a change request (opened and edited by an editor), and reviewers at `review` and `read`. */
async function setup(mergeRules?: unknown) {
  const team = await buildTeam(t.database);
  const { admin, organization, member } = team;
  const author = await member('edit', 'author');
  const reviewer = await member('review', 'reviewer');
  const reader = await member('read', 'reader');
  const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Guide' } })).json();
  if (mergeRules) {
    const patched = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { mergeRules } });
    expect(patched.statusCode, patched.body).toBe(200);
  }
  const opened = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject: 'Intro' } });
  expect(opened.statusCode, opened.body).toBe(201);
  const changeRequest = opened.json();
  const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
    token: author.token,
    body: { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.\n' } }] },
  });
  expect(edited.statusCode, edited.body).toBe(200);
  const path = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const merge = (token = admin.token) => t.call('POST', `${path}/merge`, { token });
  const review = (token: string, body: unknown) => t.call('POST', `${path}/reviews`, { token, body });
  return { ...team, author, reviewer, reader, space, changeRequest, path, merge, review };
}

describe('change request reviews', () => {
  it('submits, lists and gets reviews; a newer review outdates the reviewer’s earlier one', async () => {
    const { reviewer, path, review, changeRequest } = await setup();
    const first = await review(reviewer.token, { status: 'changes-requested', comment: { markdown: 'Please add an example.' } });
    expect(first.statusCode, first.body).toBe(201);
    expectMatchesSchema('POST', `${CR}/reviews`, 201, first.json());
    expect(first.json()).toMatchObject({
      object: 'change-request-review',
      status: 'changes-requested',
      outdated: false,
      reviewer: { id: reviewer.id },
      revision: expect.any(String),
      comment: { object: 'comment', body: { markdown: 'Please add an example.' } },
    });
    expect(first.headers.location).toBe(first.json().urls.location);
    const second = await review(reviewer.token, { status: 'approved' });
    expect(second.statusCode, second.body).toBe(201);

    const listed = await t.call('GET', `${path}/reviews`, { token: reviewer.token });
    expectMatchesSchema('GET', `${CR}/reviews`, 200, listed.json());
    expect(listed.json()).toMatchObject({
      count: 2,
      items: [
        { id: second.json().id, outdated: false },
        { id: first.json().id, outdated: true },
      ],
    });
    const current = await t.call('GET', `${path}/reviews?outdated=false`, { token: reviewer.token });
    expect(current.json().items.map((item: { id: string }) => item.id)).toEqual([second.json().id]);
    const got = await t.call('GET', `${path}/reviews/${first.json().id}?format=document`, { token: reviewer.token });
    expectMatchesSchema('GET', `${CR}/reviews/{reviewId}`, 200, got.json());
    expect(got.json().comment.body.document).toMatchObject({ object: 'document' });
    expect((await t.call('GET', `${path}/reviews/crv_missing`, { token: reviewer.token })).statusCode).toBe(404);
    // The review's comment is one of the change request's comments.
    const comments = await t.call('GET', `${path}/comments`, { token: reviewer.token });
    expect(comments.json().items.map((item: { id: string }) => item.id)).toEqual([first.json().comment.id]);
    expect(await t.database.db.changeRequestReview.count({ where: { changeRequestId: changeRequest.id } })).toBe(2);
  });

  it('refuses the author, readers not requested, bad statuses and closed change requests, changing nothing', async () => {
    const { author, reader, reviewer, review, changeRequest, path, admin } = await setup();
    const own = await review(author.token, { status: 'approved' });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toMatch(/your own change request/);
    expect((await review(reader.token, { status: 'approved' })).statusCode).toBe(403);
    const bad = await review(reviewer.token, { status: 'lgtm' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^status: must be approved or changes-requested/);
    const empty = await review(reviewer.token, { status: 'approved', comment: { markdown: ' ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toMatch(/^comment: /);
    const stranger = await buildUser(t.database);
    expect((await review(stranger.token, { status: 'approved' })).statusCode).toBe(404);
    await t.call('PATCH', path, { token: admin.token, body: { status: 'archived' } });
    const archived = await review(reviewer.token, { status: 'approved' });
    expect(archived.statusCode).toBe(409);
    expect(archived.json().error.message).toMatch(/archived/);
    expect(await t.database.db.changeRequestReview.count({ where: { changeRequestId: changeRequest.id } })).toBe(0);
    expect(await t.database.db.comment.count({ where: { changeRequestId: changeRequest.id } })).toBe(0);
  });

  it('requests reviewers, who may then review; removing answers 205, then 204', async () => {
    const { author, reader, reviewer, path, review, admin } = await setup();
    const requested = await t.call('POST', `${path}/requested-reviewers`, {
      token: author.token,
      body: { users: [reader.id, reviewer.id], subject: 'Intro page' },
    });
    expect(requested.statusCode, requested.body).toBe(200);
    expectMatchesSchema('POST', `${CR}/requested-reviewers`, 200, requested.json());
    expect(
      requested
        .json()
        .users.map((entry: { user: { id: string } }) => entry.user.id)
        .sort(),
    ).toEqual([reader.id, reviewer.id].sort());
    expect(requested.json().users[0]).toMatchObject({ object: 'change-request-requested-reviewer', kind: 'user', requestedBy: { id: author.id } });
    expect((await t.call('GET', path, { token: author.token })).json().subject).toBe('Intro page');

    const listed = await t.call('GET', `${path}/requested-reviewers`, { token: reader.token });
    expectMatchesSchema('GET', `${CR}/requested-reviewers`, 200, listed.json());
    expect(listed.json().count).toBe(2);
    // A reader who was asked may review, and the review says who asked.
    const byReader = await review(reader.token, { status: 'approved' });
    expect(byReader.statusCode, byReader.body).toBe(201);
    expect(byReader.json().requestedBy).toMatchObject({ id: author.id });

    // Asking again outdates what the reviewer said.
    await t.call('POST', `${path}/requested-reviewers`, { token: author.token, body: { users: [reader.id] } });
    expect((await t.call('GET', `${path}/reviews/${byReader.json().id}`, { token: reader.token })).json().outdated).toBe(true);

    for (const [body, message] of [
      [{ users: [] }, /^users: must name at least one user/],
      [{ users: [author.id] }, /^users\[0\]: .* author/],
      [{ users: ['usr_nobody'] }, /^users\[0\]: no user "usr_nobody" can read this space/],
    ] as const) {
      const response = await t.call('POST', `${path}/requested-reviewers`, { token: admin.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect((await t.call('POST', `${path}/requested-reviewers`, { token: reader.token, body: { users: [reviewer.id] } })).statusCode).toBe(403);

    const removed = await t.call('DELETE', `${path}/requested-reviewers/${reviewer.id}`, { token: author.token });
    expect(removed.statusCode).toBe(205);
    expect((await t.call('DELETE', `${path}/requested-reviewers/${reviewer.id}`, { token: author.token })).statusCode).toBe(204);
    expect((await t.call('GET', `${path}/requested-reviewers`, { token: reader.token })).json().count).toBe(1);
  });

  it('lists contributors: editors and commenters', async () => {
    const { author, reviewer, path } = await setup();
    await t.call('POST', `${path}/comments`, { token: reviewer.token, body: { body: { markdown: 'Nice.' } } });
    const response = await t.call('GET', `${path}/contributors`, { token: reviewer.token });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('GET', `${CR}/contributors`, 200, response.json());
    const items = response.json().items as Array<{ user: { id: string }; actionType: string; count: number }>;
    expect(items.map((item) => [item.user.id, item.actionType, item.count]).sort()).toEqual(
      [
        [author.id, 'edit', 1],
        [reviewer.id, 'comment', 1],
      ].sort(),
    );
  });

  it('works with the official client', async () => {
    const { space, changeRequest, reviewer, author } = await setup();
    const { data: requested } = await official(author).spaces.requestReviewersForChangeRequest(space.id, changeRequest.id, { users: [reviewer.id] });
    expect(requested.users).toHaveLength(1);
    const client = official(reviewer);
    const { data: submitted } = await client.spaces.submitChangeRequestReview(space.id, changeRequest.id, {
      status: 'approved' as never,
      comment: {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Ship it.', marks: [] }] }] }],
      } as never,
    });
    expectMatchesSchema('POST', `${CR}/reviews`, 201, submitted);
    expect(submitted.comment).toMatchObject({ body: { markdown: 'Ship it.\n' } });
    const { data: reviews } = await client.spaces.getReviewsByChangeRequestId(space.id, changeRequest.id, { outdated: false });
    expectMatchesSchema('GET', `${CR}/reviews`, 200, reviews);
    expect(reviews.items.map((item) => item.id)).toEqual([submitted.id]);
    const { data: one } = await client.spaces.getChangeRequestReviewById(space.id, changeRequest.id, submitted.id);
    expectMatchesSchema('GET', `${CR}/reviews/{reviewId}`, 200, one);
    const { data: reviewers } = await client.spaces.getRequestedReviewersByChangeRequestId(space.id, changeRequest.id);
    expectMatchesSchema('GET', `${CR}/requested-reviewers`, 200, reviewers);
    const { data: contributors } = await client.spaces.getContributorsByChangeRequestId(space.id, changeRequest.id);
    expectMatchesSchema('GET', `${CR}/contributors`, 200, contributors);
    const removed = await official(author).spaces.removeRequestedReviewerFromChangeRequest(space.id, changeRequest.id, reviewer.id);
    expect(removed.status).toBe(205);
    await expectOfficialError(client.spaces.getChangeRequestReviewById(space.id, changeRequest.id, 'crv_missing'), 404);
  });
});

describe('merge rules', () => {
  const approvalRequired = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] };

  it('refuses a merge that lacks the approval its rules require, naming the rule and changing nothing; allows it once approved', async () => {
    const { space, changeRequest, merge, review, reviewer } = await setup(approvalRequired);
    const before = await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } });
    const refused = await merge();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/^merge rule require_at_least_one_approved_review: change request #1 needs at least one approved review/);
    // Changes requested is no approval.
    await review(reviewer.token, { status: 'changes-requested' });
    expect((await merge()).statusCode).toBe(409);
    const after = await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } });
    expect(after.revisionId).toBe(before.revisionId);
    expect(await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).toMatchObject({ status: 'open', mergedAt: null });
    expect(await t.database.db.revision.count({ where: { spaceId: space.id, type: 'merge' } })).toBe(0);

    expect((await review(reviewer.token, { status: 'approved' })).statusCode).toBe(201);
    const merged = await merge();
    expect(merged.statusCode, merged.body).toBe(200);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(merged.json().revision);
  });

  it('inherits the organization’s rules, and lets the users of allow_bypass merge', async () => {
    const { organization, admin, merge } = await setup();
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: [admin.id] }] };
    const patched = await t.call('PATCH', `/v1/orgs/${organization.id}`, {
      token: admin.token,
      body: { mergeRules: { type: 'rules', rules: rules.rules.slice(0, 1) } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const refused = await merge();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/^merge rule require_at_least_one_review: /);
    await t.call('PATCH', `/v1/orgs/${organization.id}`, { token: admin.token, body: { mergeRules: rules } });
    expect((await merge()).statusCode).toBe(200);
  });

  it('requires the named reviewers and the author when the rules say so', async () => {
    const { reviewer, reader, admin, author, review, merge, path } = await setup({
      type: 'rules',
      rules: [{ rule: 'require_author_to_merge' }, { rule: 'require_specific_reviewers', users: [] }],
    });
    const notAuthor = await merge(admin.token);
    expect(notAuthor.statusCode).toBe(409);
    expect(notAuthor.json().error.message).toMatch(/^merge rule require_author_to_merge: only the author/);
    await t.call('PATCH', path.replace(/\/change-requests\/.*/, ''), {
      token: admin.token,
      body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id, reader.id] }] } },
    });
    await review(reviewer.token, { status: 'approved' });
    const missing = await merge(author.token);
    expect(missing.statusCode).toBe(403);
    const stillMissing = await merge(admin.token);
    expect(stillMissing.statusCode).toBe(409);
    expect(stillMissing.json().error.message).toContain(reader.id);
  });
});
