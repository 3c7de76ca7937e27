import http from 'node:http';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { emitEvent } from '../../src/domain/events/emit.ts';
import { inTransaction } from '../../src/domain/transaction.ts';
import { hashApiToken } from '../../src/lib/tokens.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { createTestApp, TEST_URLS, type TestApp } from '../support/app.ts';
import { type Subscription, subscribe } from '../support/event-stream.ts';
import { buildOrganization, buildTeam, buildUser, addMember, unique } from '../support/factories.ts';

/**
 * Live updates: GraphQL subscriptions over Server-Sent Events against a
 * listening server, with the writes made over REST and GraphQL. Each event
 * arrives once, after its write committed, to subscribers that may read it
 * at that moment; limits and shutdown end streams in the error shape.
 */

const SPACE_EVENTS = `subscription($spaceId: ID!) {
  spaceEvents(spaceId: $spaceId) {
    __typename
    ... on Event { id kind at actor { id } }
    ... on SpaceContentEvent { space { id } revision { id } changeRequest { id status } }
    ... on ChangeRequestEvent { changeRequest { id status subject } revision { id } }
    ... on CommentEvent { commentId comment { id status } }
    ... on CommentReplyEvent { commentId replyId reply { id } }
  }
}`;

const kindsOf = (results: Array<{ data?: any }>) => results.map((result) => result.data?.spaceEvents?.kind ?? result.data?.organizationEvents?.kind);

describe('GraphQL subscriptions over Server-Sent Events', () => {
  let t: TestApp;
  let base: string;
  let team: Awaited<ReturnType<typeof buildTeam>>;
  const newSpace = async (title = `Live ${unique()}`) => {
    const response = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const openChangeRequest = async (spaceId: string, subject = 'Live edits') => {
    const response = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: team.admin.token, body: { subject } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const postComment = async (spaceId: string, markdown: string, token = team.admin.token) => {
    const response = await t.call('POST', `/v1/spaces/${spaceId}/comments`, { token, body: { body: { markdown } } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ events: { limits: { maxPerToken: 3, maxQueuedEvents: 4, endGraceMs: 3_000 } } });
    base = await t.listen();
    team = await buildTeam(t.database);
  });

  it('delivers each event of a space once, after its write committed, in order, whichever contract made it', async () => {
    const spaceId = await newSpace();
    const stream = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    // Sent as it is: no encoding a client would have to undo (Yoga's own `none` is not passed on).
    expect(stream.headers.get('content-encoding')).toBeNull();

    const changeRequestId = await openChangeRequest(spaceId);
    // Over GraphQL: the same service, the same event.
    const renamed = await t.graphql(
      team.admin.token,
      'mutation($id: ID!) { updateChangeRequest(input: { changeRequestId: $id, subject: "Renamed live" }) { changeRequest { subject } } }',
      { id: changeRequestId },
    );
    expect(renamed.errors).toBeUndefined();
    const cr = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    const edited = await t.call('POST', `${cr}/content`, {
      token: team.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Live page', document: { markdown: 'Hello.\n' } }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const commentId = (await t.call('POST', `${cr}/comments`, { token: team.admin.token, body: { body: { markdown: 'Looks good' } } })).json().id;
    expect((await t.call('PUT', `${cr}/comments/${commentId}`, { token: team.admin.token, body: { body: { markdown: 'Looks great' } } })).statusCode).toBe(200);
    expect((await t.call('PUT', `${cr}/comments/${commentId}`, { token: team.admin.token, body: { resolved: true } })).statusCode).toBe(200);
    const replyId = (await t.call('POST', `${cr}/comments/${commentId}/replies`, { token: team.admin.token, body: { body: { markdown: 'Thanks' } } })).json()
      .id;
    expect(
      (await t.call('PUT', `${cr}/comments/${commentId}/replies/${replyId}`, { token: team.admin.token, body: { body: { markdown: 'Thanks!' } } })).statusCode,
    ).toBe(200);
    // Read once it is heard, as below: a reply deleted by then is a null with a 404.
    await stream.until(8);
    expect((await t.call('DELETE', `${cr}/comments/${commentId}/replies/${replyId}`, { token: team.admin.token })).statusCode).toBe(205);
    expect(await t.database.db.commentReply.count({ where: { id: replyId } })).toBe(0);
    expect((await t.call('PATCH', cr, { token: team.admin.token, body: { status: 'archived' } })).statusCode).toBe(200);
    expect((await t.call('PATCH', cr, { token: team.admin.token, body: { status: 'open' } })).statusCode).toBe(200);
    const merged = await t.call('POST', `${cr}/merge`, { token: team.admin.token });
    expect(merged.statusCode, merged.body).toBe(200);
    const spaceCommentId = await postComment(spaceId, 'On the live content');
    // Read once it is heard: an event's objects are read when it is delivered (a comment deleted by then is a null with a 404).
    await stream.until(14);
    expect((await t.call('DELETE', `/v1/spaces/${spaceId}/comments/${spaceCommentId}`, { token: team.admin.token })).statusCode).toBe(205);

    const results = await stream.until(15);
    expect(results.filter((result) => result.errors !== undefined)).toEqual([]);
    expect(kindsOf(results)).toEqual([
      'CHANGE_REQUEST_OPENED',
      'CHANGE_REQUEST_UPDATED',
      'CHANGE_REQUEST_CONTENT_UPDATED',
      'COMMENT_POSTED',
      'COMMENT_UPDATED',
      'COMMENT_RESOLVED',
      'REPLY_POSTED',
      'REPLY_UPDATED',
      'REPLY_DELETED',
      'CHANGE_REQUEST_ARCHIVED',
      'CHANGE_REQUEST_REOPENED',
      'CHANGE_REQUEST_MERGED',
      'SPACE_CONTENT_UPDATED',
      'COMMENT_POSTED',
      'COMMENT_DELETED',
    ]);
    const events = results.map((result) => result.data!.spaceEvents);
    // Each names its objects, read as they are when the event is delivered.
    expect(events[0]).toMatchObject({ __typename: 'ChangeRequestEvent', actor: { id: team.admin.id }, changeRequest: { id: changeRequestId } });
    expect(events[1].changeRequest.subject).toBe('Renamed live');
    const revisionOfEdit = (await t.database.db.revision.findFirst({ where: { changeRequestId, type: 'edits' }, orderBy: { createdAt: 'desc' } }))!;
    expect(events[2].revision).toEqual({ id: revisionOfEdit.id });
    expect(events[3]).toMatchObject({ __typename: 'CommentEvent', commentId, comment: { id: commentId } });
    expect(events[5].comment).toEqual({ id: commentId, status: 'resolved' });
    expect(events[6]).toMatchObject({ __typename: 'CommentReplyEvent', commentId, replyId, reply: { id: replyId } });
    expect(events[8]).toMatchObject({ __typename: 'CommentReplyEvent', kind: 'REPLY_DELETED', commentId, replyId, reply: null });
    expect(events[11]).toMatchObject({ changeRequest: { id: changeRequestId, status: 'merged' }, revision: { id: merged.json().revision } });
    expect(events[12]).toEqual(
      expect.objectContaining({
        __typename: 'SpaceContentEvent',
        space: { id: spaceId },
        revision: { id: merged.json().revision },
        changeRequest: { id: changeRequestId, status: 'merged' },
      }),
    );
    expect(events[14]).toMatchObject({ __typename: 'CommentEvent', commentId: spaceCommentId, comment: null });
    // Once each: ids unique, and nothing more arrives.
    expect(new Set(events.map((event) => event.id)).size).toBe(15);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.results).toHaveLength(15);
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } })).status).toBe('merged');
    stream.close();
  });

  it('streams a subscription asked for without Accept: text/event-stream too, and a shutdown does not wait on it', async () => {
    const own = await createTestApp();
    const spaceId = (await own.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Any accept' } })).json().id;
    const stream = await subscribe(await own.listen(), team.admin.token, SPACE_EVENTS, { spaceId }, { accept: '*/*' });
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const commentId = (await own.call('POST', `/v1/spaces/${spaceId}/comments`, { token: team.admin.token, body: { body: { markdown: 'Any' } } })).json().id;
    expect((await stream.until(1))[0]!.data!.spaceEvents).toMatchObject({ kind: 'COMMENT_POSTED', commentId });
    // Not counted as a request in flight, which the drain would wait for (10 s at most): it ends it at once.
    const started = performance.now();
    const closing = own.app.close();
    await stream.closed();
    expect(performance.now() - started).toBeLessThan(5_000);
    await closing;
    expect(stream.results.at(-1)).toMatchObject({ errors: [{ extensions: { code: 503 } }] });
  });

  it('refuses bad variables and unstorable text as queries do: one 400, then the end', async () => {
    const missing = await subscribe(base, team.admin.token, SPACE_EVENTS, {});
    await missing.closed();
    expect(missing.results).toEqual([
      {
        errors: [
          expect.objectContaining({
            message: expect.stringMatching(/Variable "\$spaceId" of required type "ID!" was not provided/),
            extensions: { code: 400 },
          }),
        ],
      },
    ]);
    // In the body: refused before any stream, as every request's.
    expect((await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId: 'spc_\u0000' })).status).toBe(400);
    // In the document: refused as a query's would be.
    const unclean = await subscribe(base, team.admin.token, 'subscription { spaceEvents(spaceId: "spc_\\u0000") { __typename } }');
    await unclean.closed();
    expect(unclean.results).toEqual([
      { errors: [expect.objectContaining({ message: expect.stringMatching(/^a string in the document/), extensions: { code: 400 } })] },
    ]);
  });

  it('answers an Accept it cannot serve with 406 in the error shape, and keeps no stream for it', async () => {
    const spaceId = await newSpace();
    const openStreams = async () => Number(/^docs_gateway_subscription_streams (\d+)$/m.exec((await t.call('GET', '/metrics')).body)?.[1]);
    const openBefore = await openStreams();
    // More refusals than the token may hold streams (3 here): none of them holds one.
    for (const accept of ['application/graphql-response+json', 'multipart/mixed', 'application/json', 'application/graphql-response+json']) {
      // Over a real connection, which stays open after the answer (keep-alive).
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { accept, authorization: `Bearer ${team.admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: SPACE_EVENTS, variables: { spaceId } }),
      });
      expect(response.status, accept).toBe(406);
      expect((await response.json()).errors[0]).toEqual({ message: expect.stringContaining('text/event-stream for subscriptions'), extensions: { code: 406 } });
    }
    // None more (streams of earlier tests may still be closing).
    expect(await openStreams()).toBeLessThanOrEqual(openBefore);
    // The token still has its allowance: a stream it opens now hears the space.
    const stream = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    await postComment(spaceId, 'Still heard');
    expect(kindsOf(await stream.until(1))).toEqual(['COMMENT_POSTED']);
  });

  it('never announces a write that rolled back', async () => {
    const spaceId = await newSpace();
    const stream = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    const ctx = createContext({
      database: t.database,
      viewer: { user: await t.database.db.user.findUniqueOrThrow({ where: { id: team.admin.id } }) },
      clock: t.clock,
      urls: TEST_URLS,
      events: t.app.events,
    });
    const ghost = `cmt_ghost${unique()}`;
    await expect(
      inTransaction(ctx, 'recorded-by-work', async (tx) => {
        await tx.db.comment.create({
          data: { id: ghost, organizationId: team.organization.id, spaceId, postedById: team.admin.id, body: 'never', postedAt: new Date(), status: 'open' },
        });
        emitEvent(tx, { kind: 'comment.posted', organizationId: team.organization.id, spaceId, subjectId: ghost });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await t.database.db.comment.findUnique({ where: { id: ghost } })).toBeNull();
    // A change request that is merged cannot change status: refused inside its transaction, announced nowhere.
    const changeRequestId = await openChangeRequest(spaceId);
    expect((await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, { token: team.admin.token })).statusCode).toBe(200);
    expect(
      (await t.call('PATCH', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, { token: team.admin.token, body: { status: 'archived' } })).statusCode,
    ).toBe(409);
    const commentId = await postComment(spaceId, 'After');

    const results = await stream.until(4);
    expect(kindsOf(results)).toEqual(['CHANGE_REQUEST_OPENED', 'CHANGE_REQUEST_MERGED', 'SPACE_CONTENT_UPDATED', 'COMMENT_POSTED']);
    expect(results[3]!.data!.spaceEvents.commentId).toBe(commentId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.results).toHaveLength(4);
    stream.close();
  });

  it('ends the stream with an error at once when the subscriber may no longer read, and tells outsiders nothing', async () => {
    const spaceId = await newSpace();
    const reader = await team.member('read');
    const stream = await subscribe(base, reader.token, SPACE_EVENTS, { spaceId });
    await postComment(spaceId, 'Seen by the reader');
    expect(kindsOf(await stream.until(1))).toEqual(['COMMENT_POSTED']);

    // Removed from the organization: the stream ends at once, without waiting for an event.
    expect((await t.call('DELETE', `/v1/orgs/${team.organization.id}/members/${reader.id}`, { token: team.admin.token })).statusCode).toBe(204);
    await stream.closed();
    expect(stream.results).toHaveLength(2);
    expect(stream.results[1]).toMatchObject({ data: null, errors: [{ extensions: { code: 404 } }] });

    // A role lowered to guest (who reads no content): ended at once too.
    const lowered = await team.member('read');
    const loweredStream = await subscribe(base, lowered.token, SPACE_EVENTS, { spaceId });
    const patched = await t.call('PATCH', `/v1/orgs/${team.organization.id}/members/${lowered.id}`, { token: team.admin.token, body: { role: null } });
    expect(patched.statusCode, patched.body).toBe(200);
    await loweredStream.closed();
    expect(loweredStream.results).toEqual([expect.objectContaining({ data: null, errors: [expect.objectContaining({ extensions: { code: 404 } })] })]);

    // Its token revoked (here by hand in the database, as any write path may): ended at once, with a 401.
    const revoked = await team.member('read');
    const revokedStream = await subscribe(base, revoked.token, SPACE_EVENTS, { spaceId });
    expect((await t.database.db.apiToken.deleteMany({ where: { tokenHash: hashApiToken(revoked.token) } })).count).toBe(1);
    await revokedStream.closed();
    expect(revokedStream.results).toEqual([
      {
        data: null,
        errors: [expect.objectContaining({ message: expect.stringMatching(/token of this subscription is no longer valid/), extensions: { code: 401 } })],
      },
    ]);

    // Someone of another organization: refused at once, in the error shape, and the stream completes.
    const outsider = await addMember(t.database, (await buildOrganization(t.database)).id, await buildUser(t.database, 'outsider'), 'admin');
    const refused = await subscribe(base, outsider.token, SPACE_EVENTS, { spaceId });
    await refused.closed();
    expect(refused.results).toEqual([
      expect.objectContaining({ errors: [expect.objectContaining({ message: `Space "${spaceId}" was not found`, extensions: { code: 404 } })] }),
    ]);
    // No token: 401 before any stream.
    const anonymous = await subscribe(base, undefined, SPACE_EVENTS, { spaceId });
    expect(anonymous.status).toBe(401);
  });

  it('answers an outsider following a change request as for one that does not exist, without its space', async () => {
    const spaceId = await newSpace();
    const changeRequestId = await openChangeRequest(spaceId, 'Not for outsiders');
    const unknownId = `cr_${changeRequestId.slice(3).split('').reverse().join('')}`;
    const outsider = await addMember(t.database, (await buildOrganization(t.database)).id, await buildUser(t.database, 'outsider'), 'admin');
    const query = 'subscription($id: ID!) { changeRequestEvents(changeRequestId: $id) { ... on Event { kind } } }';
    const answers = [];
    for (const id of [changeRequestId, unknownId]) {
      const stream = await subscribe(base, outsider.token, query, { id });
      await stream.closed();
      answers.push({ status: stream.status, results: JSON.stringify(stream.results).replaceAll(id, '<id>') });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.results).not.toContain(spaceId);
    expect(JSON.parse(answers[0]!.results)).toEqual([
      expect.objectContaining({ errors: [expect.objectContaining({ message: 'Change request "<id>" was not found', extensions: { code: 404 } })] }),
    ]);
  });

  it('gives organization events to members, each only if they may see its object', async () => {
    const ORGANIZATION_EVENTS = `subscription($organizationId: ID!) {
      organizationEvents(organizationId: $organizationId) {
        ... on Event { kind }
        ... on SpaceLifecycleEvent { space { id title } }
        ... on SitePublicationEvent { site { id published } }
        ... on SiteDeletedEvent { siteId }
      }
    }`;
    const guest = await team.member(null);
    const admin = await subscribe(base, team.admin.token, ORGANIZATION_EVENTS, { organizationId: team.organization.id });
    const guestStream = await subscribe(base, guest.token, ORGANIZATION_EVENTS, { organizationId: team.organization.id });
    const spaceId = await newSpace('Announced');
    const ok = async (method: string, url: string, status = 200, body: unknown = {}) => {
      const response = await t.call(method, url, { token: team.admin.token, body });
      expect(response.statusCode, response.body).toBe(status);
    };
    await ok('POST', `/v1/spaces/${spaceId}/move`, 200, { parent: null });
    await ok('DELETE', `/v1/spaces/${spaceId}`, 205);
    await ok('POST', `/v1/spaces/${spaceId}/restore`);
    // Each event reads its space when delivered: renamed only once those four are out.
    await admin.until(4);
    await ok('PATCH', `/v1/spaces/${spaceId}`, 200, { title: 'Announced, renamed' });
    // An empty update changes nothing and announces nothing.
    await ok('PATCH', `/v1/spaces/${spaceId}`, 200, {});
    const site = await t.call('POST', `/v1/orgs/${team.organization.id}/sites`, { token: team.admin.token, body: { title: 'Live site' } });
    expect(site.statusCode, site.body).toBe(201);
    await ok('POST', `/v1/orgs/${team.organization.id}/sites/${site.json().id}/publish`);
    await ok('POST', `/v1/orgs/${team.organization.id}/sites/${site.json().id}/unpublish`);
    await admin.until(7);
    await ok('DELETE', `/v1/orgs/${team.organization.id}/sites/${site.json().id}`, 205);
    expect(await t.database.db.site.count({ where: { id: site.json().id } })).toBe(0);

    const results = await admin.until(8);
    const announced = { id: spaceId, title: 'Announced' };
    expect(results.map((result) => result.data!.organizationEvents)).toEqual([
      { kind: 'SPACE_CREATED', space: announced },
      { kind: 'SPACE_MOVED', space: announced },
      { kind: 'SPACE_DELETED', space: announced },
      { kind: 'SPACE_RESTORED', space: announced },
      { kind: 'SPACE_UPDATED', space: { id: spaceId, title: 'Announced, renamed' } },
      // Read when delivered: the site is unpublished by then.
      { kind: 'SITE_PUBLISHED', site: { id: site.json().id, published: expect.any(Boolean) } },
      { kind: 'SITE_UNPUBLISHED', site: { id: site.json().id, published: false } },
      { kind: 'SITE_DELETED', siteId: site.json().id },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(admin.results).toHaveLength(8);
    // A guest sees none of these spaces or sites: nothing reached it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(guestStream.results).toEqual([]);
    expect(guestStream.ended).toBe(false);
    admin.close();
    guestStream.close();
  });

  it('tells an organization a space left it (its admins, and members who can still read it), and the other one that it arrived', async () => {
    const EVENTS = `subscription($organizationId: ID!) {
      organizationEvents(organizationId: $organizationId) {
        ... on Event { kind }
        ... on SpaceLifecycleEvent { space { id } }
        ... on SpaceTransferredOutEvent { spaceId toOrganizationId destinationSpace { id } }
      }
    }`;
    const destination = await buildOrganization(t.database, 'Destination');
    await addMember(t.database, destination.id, team.admin, 'admin');
    const reader = await team.member('read');
    const inBoth = await addMember(t.database, destination.id, await team.member('read'), 'read');
    const source = await subscribe(base, team.admin.token, EVENTS, { organizationId: team.organization.id });
    const readerStream = await subscribe(base, reader.token, EVENTS, { organizationId: team.organization.id });
    const inBothStream = await subscribe(base, inBoth.token, EVENTS, { organizationId: team.organization.id });
    const arrivals = await subscribe(base, team.admin.token, EVENTS, { organizationId: destination.id });
    try {
      const spaceId = await newSpace('Leaving');
      const collection = await t.call('POST', `/v1/orgs/${team.organization.id}/collections`, { token: team.admin.token, body: { title: 'Leaving too' } });
      expect(collection.statusCode, collection.body).toBe(201);
      const inCollection = await newSpace('Leaving inside');
      const moved = await t.call('POST', `/v1/spaces/${inCollection}/move`, { token: team.admin.token, body: { parent: collection.json().id } });
      expect(moved.statusCode, moved.body).toBe(200);
      const transferred = await t.call('POST', `/v1/spaces/${spaceId}/transfer`, { token: team.admin.token, body: { organization: destination.id } });
      expect(transferred.statusCode, transferred.body).toBe(200);
      const collectionMoved = await t.call('POST', `/v1/collections/${collection.json().id}/transfer`, {
        token: team.admin.token,
        body: { organization: destination.id },
      });
      expect(collectionMoved.statusCode, collectionMoved.body).toBe(200);

      const left = (spaceId: string) => ({ kind: 'SPACE_TRANSFERRED_OUT', spaceId, toOrganizationId: destination.id, destinationSpace: { id: spaceId } });
      // Created, moved into the collection, then gone: read as they are when delivered.
      expect((await source.until(5)).map((result) => result.data!.organizationEvents)).toEqual([
        { kind: 'SPACE_CREATED', space: { id: spaceId } },
        { kind: 'SPACE_CREATED', space: { id: inCollection } },
        { kind: 'SPACE_MOVED', space: { id: inCollection } },
        left(spaceId),
        left(inCollection),
      ]);
      expect((await arrivals.until(2)).map((result) => result.data!.organizationEvents)).toEqual([
        { kind: 'SPACE_MOVED', space: { id: spaceId } },
        { kind: 'SPACE_MOVED', space: { id: inCollection } },
      ]);
      const departures = (stream: typeof source) =>
        stream.results.map((result) => result.data!.organizationEvents).filter((event) => event.kind === 'SPACE_TRANSFERRED_OUT');
      // A member of both organizations still reads them: it hears they left.
      await vi.waitUntil(() => departures(inBothStream).length >= 2, { timeout: 10_000, interval: 10 });
      expect(departures(inBothStream)).toEqual([left(spaceId), left(inCollection)]);
      // The reader is not in the destination: it cannot read the spaces any more, and hears nothing of their departure.
      expect(departures(readerStream)).toEqual([]);
      expect(source.results).toHaveLength(5);
      expect(arrivals.results).toHaveLength(2);
    } finally {
      for (const stream of [source, readerStream, inBothStream, arrivals]) stream.close();
    }
  });

  it('tells the followers of a space that it was deleted or restored, also when its collection was deleted, each time once', async () => {
    const collection = await t.call('POST', `/v1/orgs/${team.organization.id}/collections`, { token: team.admin.token, body: { title: 'Shelf' } });
    expect(collection.statusCode, collection.body).toBe(201);
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, {
      token: team.admin.token,
      body: { title: 'On the shelf', parent: collection.json().id },
    });
    const spaceId = created.json().id;
    const query = `subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { ... on Event { kind } ... on SpaceLifecycleEvent { space { id } } } }`;
    const stream = await subscribe(base, team.admin.token, query, { spaceId });
    // Two deletions at once: one of them deletes, one event.
    const deletions = await Promise.all([1, 2].map(() => t.call('DELETE', `/v1/spaces/${spaceId}`, { token: team.admin.token })));
    expect(deletions.map((response) => response.statusCode)).toEqual([205, 205]);
    expect((await t.call('POST', `/v1/spaces/${spaceId}/restore`, { token: team.admin.token })).statusCode).toBe(200);
    // The space and its collection deleted at once: one of them deletes the space, one event.
    const both = await Promise.all([
      t.call('DELETE', `/v1/spaces/${spaceId}`, { token: team.admin.token }),
      t.call('DELETE', `/v1/collections/${collection.json().id}`, { token: team.admin.token }),
    ]);
    expect(both.map((response) => response.statusCode)).toEqual([205, 205]);
    const results = await stream.until(3);
    expect(results.map((result) => result.data!.spaceEvents)).toEqual([
      { kind: 'SPACE_DELETED', space: { id: spaceId } },
      { kind: 'SPACE_RESTORED', space: { id: spaceId } },
      { kind: 'SPACE_DELETED', space: { id: spaceId } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.results).toHaveLength(3);
    stream.close();
  });

  it('announces a comment resolved once, however many requests resolve it at once', async () => {
    const spaceId = await newSpace();
    const stream = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    const commentId = await postComment(spaceId, 'Resolve me');
    const answers = await Promise.all(
      [1, 2, 3].map(() => t.call('PUT', `/v1/spaces/${spaceId}/comments/${commentId}`, { token: team.admin.token, body: { resolved: true } })),
    );
    expect(answers.map((answer) => [answer.statusCode, answer.json().status])).toEqual(Array(3).fill([200, 'resolved']));
    expect(kindsOf(await stream.until(2))).toEqual(['COMMENT_POSTED', 'COMMENT_RESOLVED']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.results).toHaveLength(2);
    stream.close();
  });

  it('announces a comment deleted once when requests delete it at once, and no update that changes nothing', async () => {
    const spaceId = await newSpace();
    const changeRequestId = await openChangeRequest(spaceId, 'As it is');
    const stream = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    const commentId = await postComment(spaceId, 'Delete me');
    const deletions = await Promise.all([1, 2, 3].map(() => t.call('DELETE', `/v1/spaces/${spaceId}/comments/${commentId}`, { token: team.admin.token })));
    expect(deletions.map((response) => response.statusCode)).toEqual(Array(3).fill(205));
    expect(await t.database.db.comment.count({ where: { id: commentId } })).toBe(0);
    // The subject it already has, then a new one: only the second is a change.
    for (const subject of ['As it is', 'Renamed']) {
      const updated = await t.call('PATCH', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, { token: team.admin.token, body: { subject } });
      expect(updated.statusCode, updated.body).toBe(200);
    }
    expect(kindsOf(await stream.until(3))).toEqual(['COMMENT_POSTED', 'COMMENT_DELETED', 'CHANGE_REQUEST_UPDATED']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.results).toHaveLength(3);
  });

  it('announces OpenAPI specs processed and jobs finished to the organization, as they end', async () => {
    const query = `subscription($organizationId: ID!) {
      organizationEvents(organizationId: $organizationId) {
        ... on Event { kind actor { id } }
        ... on OpenAPISpecProcessedEvent { spec { slug processingState } result }
        ... on JobFinishedEvent { job outcome space { id } changeRequest { id } }
      }
    }`;
    const stream = await subscribe(base, team.admin.token, query, { organizationId: team.organization.id });
    const slug = `live-${unique()}`;
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Live', version: '1' }, paths: {} });
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/openapi`, { token: team.admin.token, body: { slug, source: { text } } });
    expect(created.statusCode, created.body).toBe(201);
    const [processed] = await stream.until(1, 15_000);
    // Processed by the job queue: no one's hand.
    expect(processed!.data!.organizationEvents).toEqual({
      kind: 'OPENAPI_SPEC_PROCESSED',
      actor: null,
      spec: { slug, processingState: 'complete' },
      result: 'new version',
    });

    // A PDF export of a change request: a job the request waits for, announced when it ends.
    const spaceId = await newSpace();
    const changeRequestId = await openChangeRequest(spaceId);
    const pdf = await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/pdf`, { token: team.admin.token });
    expect(pdf.statusCode, pdf.body).toBe(200);
    const results = await stream.until(3, 15_000);
    expect(results.slice(1).map((result) => result.data!.organizationEvents)).toEqual([
      { kind: 'SPACE_CREATED', actor: { id: team.admin.id } },
      {
        kind: 'JOB_FINISHED',
        actor: { id: team.admin.id },
        job: 'RENDER_PDF',
        outcome: 'SUCCEEDED',
        space: { id: spaceId },
        changeRequest: { id: changeRequestId },
      },
    ]);
    stream.close();
  });

  it('counts a subscription against the rate limit when it opens', async () => {
    const limited = await createTestApp({ rateLimits: { perMinute: 1, failedAuthenticationsPerMinute: 0 } });
    const spaceId = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Limited' } })).json().id;
    const limitedBase = await limited.listen();
    const first = await subscribe(limitedBase, team.admin.token, SPACE_EVENTS, { spaceId });
    expect(first.status).toBe(200);
    const second = await subscribe(limitedBase, team.admin.token, SPACE_EVENTS, { spaceId });
    expect(second.status).toBe(429);
    first.close();
  });

  it('refuses a subscription whose selection costs more than the limit for each event', async () => {
    const limited = await createTestApp({ graphqlLimits: { ...DEFAULT_GRAPHQL_LIMITS, maxCost: 3 } });
    const spaceId = (await limited.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Costly' } })).json().id;
    const stream = await subscribe(await limited.listen(), team.admin.token, SPACE_EVENTS, { spaceId });
    await stream.closed();
    expect(stream.results).toEqual([
      expect.objectContaining({
        errors: [
          expect.objectContaining({
            message: expect.stringMatching(/exceeds the limit of 3 for each event/),
            extensions: expect.objectContaining({ code: 400 }),
          }),
        ],
      }),
    ]);
  });

  it('refuses a token more streams than SUBSCRIPTIONS_PER_TOKEN, pings to keep them alive, and counts them in /metrics', async () => {
    const spaceId = await newSpace();
    const user = await team.member('read');
    const streams = await Promise.all([1, 2, 3].map(() => subscribe(base, user.token, SPACE_EVENTS, { spaceId })));
    // Refused before a stream opens: an HTTP 429 with Retry-After, in the error shape, as docs/api.md says.
    const fourth = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ query: SPACE_EVENTS, variables: { spaceId } }),
    });
    expect([fourth.status, fourth.headers.get('retry-after'), fourth.headers.get('content-type')]).toEqual([429, '10', 'application/json; charset=utf-8']);
    expect(await fourth.json()).toEqual({
      errors: [
        expect.objectContaining({
          message: 'This token already holds 3 open subscriptions, the most allowed (SUBSCRIPTIONS_PER_TOKEN): close one first',
          path: ['spaceEvents'],
          extensions: { code: 429 },
        }),
      ],
    });
    // Another token has its own allowance.
    const other = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });

    // Yoga pings idle streams (every 12 s; 300 ms under NODE_ENV=test).
    await vi.waitUntil(() => streams[0]!.pings > 1, { timeout: 5_000, interval: 50 });

    await postComment(spaceId, 'Counted');
    for (const stream of [...streams, other]) expect(kindsOf(await stream.until(1))).toEqual(['COMMENT_POSTED']);
    const metrics = (await t.call('GET', '/metrics')).body;
    // These four at least (streams of earlier tests may still be closing).
    expect(Number(/^docs_gateway_subscription_streams (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(4);
    expect(Number(/^docs_gateway_subscription_events_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(4);

    // One closed: the token may open another.
    // The server counts it out when it hears the connection end.
    const openStreams = async () => Number(/^docs_gateway_subscription_streams (\d+)$/m.exec((await t.call('GET', '/metrics')).body)?.[1]);
    const openBefore = await openStreams();
    streams[0]!.close();
    await vi.waitUntil(async () => (await openStreams()) < openBefore, { timeout: 5_000, interval: 20 });
    const again = await subscribe(base, user.token, SPACE_EVENTS, { spaceId });
    await postComment(spaceId, 'Heard again');
    expect(kindsOf(await again.until(1))).toEqual(['COMMENT_POSTED']);
    for (const stream of [again, streams[1]!, streams[2]!, other]) stream.close();
  });

  it('refuses a user more streams than SUBSCRIPTIONS_PER_USER over its tokens, and an address more than SUBSCRIPTIONS_PER_ADDRESS, before they open', async () => {
    const own = await createTestApp({ events: { limits: { maxPerToken: 2, maxPerUser: 3, maxPerAddress: 4 } } });
    const ownBase = await own.listen();
    const spaceId = (await own.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Capped' } })).json().id;
    const user = await team.member('read');
    const secondToken = await issueApiToken(own.database.db, user.id, 'second');
    const refusal = async (token: string) => {
      const response = await fetch(`${ownBase}/graphql`, {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: SPACE_EVENTS, variables: { spaceId } }),
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), message: (await response.json()).errors[0].message };
    };
    const held = [
      await subscribe(ownBase, user.token, SPACE_EVENTS, { spaceId }),
      await subscribe(ownBase, user.token, SPACE_EVENTS, { spaceId }),
      await subscribe(ownBase, secondToken, SPACE_EVENTS, { spaceId }),
    ];
    expect(held.map((stream) => stream.status)).toEqual([200, 200, 200]);
    // Its second token has one slot left of its own, but the user holds its three.
    expect(await refusal(secondToken)).toEqual({
      status: 429,
      retryAfter: '10',
      message: 'This user (with all its tokens) already holds 3 open subscriptions, the most allowed (SUBSCRIPTIONS_PER_USER): close one first',
    });
    // Another user from the same address: the address's fourth, then its limit.
    held.push(await subscribe(ownBase, team.admin.token, SPACE_EVENTS, { spaceId }));
    expect(held[3]!.status).toBe(200);
    expect(await refusal(team.admin.token)).toEqual({
      status: 429,
      retryAfter: '10',
      message: 'This address already holds 4 open subscriptions, the most allowed (SUBSCRIPTIONS_PER_ADDRESS): close one first',
    });
    // The refused ones hold nothing: one closed, and the next may open.
    const openStreams = async () => Number(/^docs_gateway_subscription_streams (\d+)$/m.exec((await own.call('GET', '/metrics')).body)?.[1]);
    expect(await openStreams()).toBe(4);
    held[0]!.close();
    await vi.waitUntil(async () => (await openStreams()) === 3, { timeout: 5_000, interval: 20 });
    expect((await subscribe(ownBase, team.admin.token, SPACE_EVENTS, { spaceId })).status).toBe(200);
  });

  it('ends a stream that heard nothing for SUBSCRIPTION_IDLE_SECONDS, and keeps one that hears events', async () => {
    const own = await createTestApp({ events: { limits: { idleMs: 1_500 } } });
    const ownBase = await own.listen();
    const spaceId = (await own.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Quiet' } })).json().id;
    const otherSpaceId = (await own.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Busy' } })).json().id;
    const quiet = await subscribe(ownBase, team.admin.token, SPACE_EVENTS, { spaceId });
    const busy = await subscribe(ownBase, team.admin.token, SPACE_EVENTS, { spaceId: otherSpaceId });
    const started = performance.now();
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await own.call('POST', `/v1/spaces/${otherSpaceId}/comments`, { token: team.admin.token, body: { body: { markdown: `Still here ${i}` } } });
    }
    await quiet.closed();
    // Pings (every 300 ms here) are not events: it ended after its 1.5 s, with why.
    expect(performance.now() - started).toBeGreaterThan(1_000);
    expect(quiet.results).toEqual([
      expect.objectContaining({
        data: null,
        errors: [
          expect.objectContaining({
            message: expect.stringMatching(/heard no event for 2 seconds and was ended \(SUBSCRIPTION_IDLE_SECONDS\): subscribe again/),
            extensions: { code: 408 },
          }),
        ],
      }),
    ]);
    expect(kindsOf(await busy.until(4))).toEqual(Array(4).fill('COMMENT_POSTED'));
    expect(busy.ended).toBe(false);
    busy.close();
  });

  it('drops a stream whose client stops reading instead of buffering for it, and says why', async () => {
    const spaceId = await newSpace();
    const changeRequestId = await openChangeRequest(spaceId);
    // A large page: each event that selects it is ~200 KB, so the socket's buffers fill after a few.
    const big = `${'All work and no play makes a long page. '.repeat(5_000)}\n`;
    await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, {
      token: team.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Big', document: { markdown: big } }] },
    });
    const revision = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, { token: team.admin.token })).json().revision;
    const query = `subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { ... on SpaceContentEvent { revision { pages { document(format: markdown) } } } } }`;

    // A client that reads nothing once the answer started.
    const request = http.request(`${base}/graphql`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${team.admin.token}` },
    });
    request.end(JSON.stringify({ query, variables: { spaceId } }));
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    response.pause();

    const droppedCount = async () => Number(/^docs_gateway_subscription_streams_dropped_total (\d+)$/m.exec((await t.call('GET', '/metrics')).body)?.[1]);
    const before = await droppedCount();
    for (let round = 0; round < 200 && (await droppedCount()) === before; round++) {
      for (let i = 0; i < 10; i++) {
        t.app.events.publish({
          id: `evt_flood${round}x${i}`,
          at: new Date().toISOString(),
          kind: 'space.content_updated',
          organizationId: team.organization.id,
          spaceId,
          subjectId: spaceId,
          data: { revisionId: revision },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await droppedCount()).toBe(before + 1);

    // Read on: what was sent before the drop, then the reason, then the end.
    let text = '';
    response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    response.resume();
    await new Promise((resolve) => response.once('end', resolve));
    const blocks = text.split('\n\n').filter((block) => block.startsWith('event: next'));
    const last = JSON.parse(blocks.at(-1)!.slice(blocks.at(-1)!.indexOf('data: ') + 6));
    expect(last).toMatchObject({ data: null, errors: [{ message: expect.stringMatching(/fell 4 events behind and was dropped/), extensions: { code: 503 } }] });
    expect(blocks.length).toBeGreaterThan(1);
    expect(text.endsWith('event: complete\ndata:\n\n')).toBe(true);
  });
});

describe('a server that stops', () => {
  it('delivers the events of the writes in flight, then ends every stream with a 503 to come back to', async () => {
    const t = await createTestApp();
    const base = await t.listen();
    const team = await buildTeam(t.database);
    const spaceId = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Stopping' } })).json().id;
    const stream: Subscription = await subscribe(base, team.admin.token, SPACE_EVENTS, { spaceId });
    // The write's headers reach the server (its request is in flight) before the close begins;
    // its body follows after, so the write is still under way while the server stops.
    const body = JSON.stringify({ body: { markdown: 'Last words' } });
    const arrived = new Promise<void>((resolve) => t.app.server.once('request', () => resolve()));
    const request = http.request(`${base}/v1/spaces/${spaceId}/comments`, {
      method: 'POST',
      // Not kept alive: the server's close would wait for the idle connection.
      headers: {
        authorization: `Bearer ${team.admin.token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      },
    });
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
    request.flushHeaders();
    await arrived;
    // The request hooks (the in-flight count) run in the turns after the headers are parsed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    request.end(body);
    const response = await answered;
    response.resume();
    expect(response.statusCode).toBe(200);
    await closing;
    await stream.closed();
    expect(kindsOf(stream.results.slice(0, -1))).toEqual(['COMMENT_POSTED']);
    expect(stream.results.at(-1)).toMatchObject({
      data: null,
      errors: [{ message: expect.stringMatching(/shutting down: subscribe again/), extensions: { code: 503 } }],
    });
  });
});
