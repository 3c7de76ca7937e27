import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { connectionOf, expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

/**
 * The audit log over GraphQL (Organization.auditEvents, auditEventActions):
 * the same events as REST, field for field (the single event's details too),
 * the same filters, REST page tokens as cursors, admins only; GraphQL writes
 * are recorded as REST ones are, from the `api` source.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const EVENT_FIELDS = 'id object occurredAt action actor { type id label } source target { type id label } urls { location }';
const DETAIL_FIELDS = 'correlationId schemaVersion payload';

type Json = Record<string, any>;
/** A REST event as GraphQL answers it: labels null where REST leaves them out. */
const eventAsGraphQL = (rest: Json) => ({
  ...rest,
  actor: { label: null, ...rest.actor },
  target: { label: null, ...rest.target },
});

const AUDIT = (args: string, selection: string) => `query($id: ID!) { organization(id: $id) { auditEvents${args} { ${selection} } } }`;

async function setup() {
  const team = await buildTeam(t.database);
  const { organization, admin } = team;
  const rest = async (token: string, url: string) => {
    const response = await t.call('GET', url, { token });
    expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const created = await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Audited' } });
  expect(created.statusCode, created.body).toBe(201);
  const space = created.json();
  // One write over GraphQL, recorded as REST's are.
  expectData(await mutate(t, admin.token, 'createChangeRequest', { spaceId: space.id, subject: 'Audited change' }, 'changeRequest { id }'));
  const renamed = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { title: 'Audited 2' } });
  expect(renamed.statusCode, renamed.body).toBe(200);
  return { ...team, space, rest, events: `/v1/orgs/${organization.id}/audit-events` };
}

describe('the audit log over GraphQL', () => {
  it('lists the events REST lists, field for field, with the details of the single event, and REST page tokens as cursors', async () => {
    const { organization, admin, rest, events } = await setup();
    const restAll = await rest(admin.token, events);
    expect(restAll.items.map((item: Json) => item.action)).toEqual(['space.update', 'change_request.create', 'space.create']);

    const all = expectData(await t.graphql(admin.token, AUDIT('', connectionOf(`${EVENT_FIELDS} ${DETAIL_FIELDS}`)), { id: organization.id })).organization
      .auditEvents;
    expect(all.totalCount).toBe(3);
    for (const [index, edge] of all.edges.entries()) {
      const details = await rest(admin.token, `${events}/${edge.node.id}`);
      expect(edge.node).toEqual({ correlationId: null, ...eventAsGraphQL(details) });
      expect(eventAsGraphQL(restAll.items[index])).toEqual(Object.fromEntries(Object.entries(edge.node).filter(([key]) => key in restAll.items[index])));
    }
    // Both contracts are the API: GraphQL writes are recorded from it too.
    expect(all.edges.map((edge: Json) => edge.node.source)).toEqual(['api', 'api', 'api']);

    // Paged: 1 at a time, the cursor is the REST page token.
    const firstPage = expectData(await t.graphql(admin.token, AUDIT('(first: 1)', connectionOf('id action')), { id: organization.id })).organization
      .auditEvents;
    const restFirst = await rest(admin.token, `${events}?limit=1`);
    expect(firstPage.pageInfo).toMatchObject({ hasNextPage: true, endCursor: restFirst.next.page });
    const restSecond = await rest(admin.token, `${events}?limit=1&page=${encodeURIComponent(firstPage.pageInfo.endCursor)}`);
    const secondPage = expectData(
      await t.graphql(
        admin.token,
        'query($id: ID!, $after: String) { organization(id: $id) { auditEvents(first: 1, after: $after) { edges { node { id action } } } } }',
        {
          id: organization.id,
          after: restFirst.next.page,
        },
      ),
    ).organization.auditEvents;
    expect(secondPage.edges.map((edge: Json) => edge.node.id)).toEqual(restSecond.items.map((item: Json) => item.id));
    expect(secondPage.edges[0].node.action).toBe('change_request.create');
    // 20 a page unless asked, and no more than 100, as REST.
    expectGraphQLError(await t.graphql(admin.token, AUDIT('(first: 101)', 'totalCount'), { id: organization.id }), 400, /^first/);
  });

  it('pages backward from a cursor, 20 a page unless last says otherwise', async () => {
    const { organization, admin, space } = await setup();
    for (let index = 0; index < 22; index++) {
      const renamed = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { title: `Audited ${index}` } });
      expect(renamed.statusCode, renamed.body).toBe(200);
    }
    const PAGE =
      'query($id: ID!, $before: String, $last: Int) { organization(id: $id) { auditEvents(before: $before, last: $last) { totalCount edges { cursor node { id } } } } }';
    const oldest = expectData(await t.graphql(admin.token, AUDIT('(last: 1)', 'totalCount edges { cursor node { action } }'), { id: organization.id }))
      .organization.auditEvents;
    expect(oldest.totalCount).toBe(25);
    expect(oldest.edges.map((edge: Json) => edge.node.action)).toEqual(['space.create']);
    const all = expectData(
      await t.graphql(admin.token, AUDIT('(first: 100)', 'edges { node { id } }'), { id: organization.id }),
    ).organization.auditEvents.edges.map((edge: Json) => edge.node.id);
    const before = expectData(await t.graphql(admin.token, PAGE, { id: organization.id, before: oldest.edges[0].cursor })).organization.auditEvents;
    expect(before.edges.map((edge: Json) => edge.node.id)).toEqual(all.slice(4, 24));
    const two = expectData(await t.graphql(admin.token, PAGE, { id: organization.id, before: oldest.edges[0].cursor, last: 2 })).organization.auditEvents;
    expect(two.edges.map((edge: Json) => edge.node.id)).toEqual(all.slice(22, 24));
  });

  it('filters as REST does: action, actor, target, from and to', async () => {
    const { organization, admin, space, rest, events } = await setup();
    const ids = async (args: string, variables: Json = {}) =>
      expectData(
        await t.graphql(
          admin.token,
          `query($id: ID!${Object.keys(variables)
            .map((name) => `, $${name}: DateTime`)
            .join('')}) { organization(id: $id) { auditEvents${args} { edges { node { id } } } } }`,
          { id: organization.id, ...variables },
        ),
      ).organization.auditEvents.edges.map((edge: Json) => edge.node.id);
    const restIds = async (query: string) => (await rest(admin.token, `${events}?${query}`)).items.map((item: Json) => item.id);

    expect(await ids('(action: "space.create")')).toEqual(await restIds('action=space.create'));
    expect(await ids('(action: "space.create")')).toHaveLength(1);
    expect(await ids(`(target: "${space.id}")`)).toEqual(await restIds(`target=${space.id}`));
    expect(await ids(`(target: "${space.id}")`)).toHaveLength(2);
    expect(await ids(`(actor: "${admin.id}")`)).toHaveLength(3);
    expect(await ids('(actor: "usr_nobody")')).toEqual([]);
    const rows = await t.database.db.auditEvent.findMany({ where: { organizationId: organization.id }, orderBy: { occurredAt: 'asc' } });
    const from = rows[1]!.occurredAt.toISOString();
    expect(await ids('(from: $from)', { from })).toEqual(await restIds(`from=${encodeURIComponent(from)}`));
    expect(await ids('(to: $to)', { to: from })).toEqual(await restIds(`to=${encodeURIComponent(from)}`));
    expectGraphQLError(
      await t.graphql(
        admin.token,
        `query($id: ID!, $from: DateTime, $to: DateTime) { organization(id: $id) { auditEvents(from: $from, to: $to) { totalCount } } }`,
        {
          id: organization.id,
          from: '2030-01-01T00:00:00Z',
          to: '2020-01-01T00:00:00Z',
        },
      ),
      400,
      'from: must not be after to',
    );
  });

  it('lists the actions as REST does; admins only', async () => {
    const { organization, admin, member, rest } = await setup();
    const actions = expectData(
      await t.graphql(admin.token, 'query($id: ID!) { organization(id: $id) { auditEventActions { object id label } } }', { id: organization.id }),
    ).organization.auditEventActions;
    expect(actions).toEqual((await rest(admin.token, `/v1/orgs/${organization.id}/audit-event-actions`)).items);
    expect(actions).toContainEqual({ object: 'audit-event-action', id: 'change_request.review', label: 'Change request reviewed' });

    for (const role of ['create', 'read'] as const) {
      const someone = await member(role);
      expectGraphQLError(await t.graphql(someone.token, AUDIT('', 'totalCount'), { id: organization.id }), 403, /audit log/);
      expectGraphQLError(
        await t.graphql(someone.token, 'query($id: ID!) { organization(id: $id) { auditEventActions { id } } }', { id: organization.id }),
        403,
      );
    }
    const outsider = await buildTeam(t.database);
    expectGraphQLError(await t.graphql(outsider.admin.token, AUDIT('', 'totalCount'), { id: organization.id }), 404);
  });
});
