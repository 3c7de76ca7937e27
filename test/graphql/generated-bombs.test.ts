import { type GraphQLField, type GraphQLObjectType, getNamedType, isNonNullType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectData } from '../support/graphql.ts';

/**
 * Bombs generated from the schema itself, so that a connection added tomorrow
 * is covered too: for every connection field of every Node type, the
 * connection nested inside itself through a path back to its type, three
 * times at `first: 100`. Each must be refused before it runs (no SQL beyond
 * authentication), by its cost or its depth, and the server must answer the
 * next ordinary request as usual.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp({ responseCacheBytes: 0 });
  team = await buildTeam(t.database);
});

type Field = GraphQLField<unknown, unknown>;

const isConnection = (field: Field) => {
  const type = getNamedType(field.type);
  return isObjectType(type) && type.name.endsWith('Connection') && 'edges' in type.getFields();
};
/** Arguments a selection must give: none, or a connection's (given `first`). */
const selectable = (field: Field) => field.args.every((arg) => !isNonNullType(arg.type));
const nodeTypeOf = (connection: Field) =>
  getNamedType(
    (getNamedType((getNamedType(connection.type) as GraphQLObjectType).getFields().edges!.type) as GraphQLObjectType).getFields().node!.type,
  ) as GraphQLObjectType;

/** How a field is selected, and the object type it leads to. */
function step(field: Field): { open: string; close: string; to: GraphQLObjectType } | undefined {
  if (!selectable(field)) return undefined;
  if (isConnection(field)) return { open: `${field.name}(first: 100) { edges { node { `, close: ' } } }', to: nodeTypeOf(field) };
  const type = getNamedType(field.type);
  return isObjectType(type) ? { open: `${field.name} { `, close: ' }', to: type } : undefined;
}

/** The shortest selection path from `from` back to `to` (breadth first, at most 4 fields), as open/close text. */
function pathBack(from: GraphQLObjectType, to: GraphQLObjectType): { open: string; close: string } | undefined {
  const queue: Array<{ type: GraphQLObjectType; open: string; close: string; length: number }> = [{ type: from, open: '', close: '', length: 0 }];
  const seen = new Set([from.name]);
  while (queue.length) {
    const current = queue.shift()!;
    if (current.type === to) return current;
    if (current.length >= 4) continue;
    for (const field of Object.values(current.type.getFields())) {
      const next = step(field);
      if (!next || seen.has(next.to.name)) continue;
      seen.add(next.to.name);
      queue.push({ type: next.to, open: current.open + next.open, close: next.close + current.close, length: current.length + 1 });
    }
  }
  return undefined;
}

/** Every connection field of every Node type that can reach back to its type: the bombs. */
function bombs(): Array<{ name: string; query: string }> {
  const found: Array<{ name: string; query: string }> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || !type.getInterfaces().some((iface) => iface.name === 'Node')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isConnection(field) || !selectable(field)) continue;
      const back = pathBack(nodeTypeOf(field), type);
      if (!back) continue;
      let selection = '__typename';
      for (let level = 0; level < 3; level++) selection = `${field.name}(first: 100) { edges { node { ${back.open}${selection}${back.close} } } }`;
      found.push({ name: `${type.name}.${field.name}`, query: `{ node(id: "x") { ... on ${type.name} { ${selection} } } }` });
    }
  }
  return found;
}

/**
 * Every connection of every Node type asked for in two shapes that multiply
 * a small document: under more aliases than allowed (refused before it runs),
 * and through fragments that each spread the next one twice, twelve levels
 * deep (4,096 spreads). Identical fields merge, so the latter answers what
 * one spread asks, and validating it must not explode either.
 */
function multipliers() {
  const found: Array<{ name: string; aliased: string; fragmented: string }> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || !type.getInterfaces().some((iface) => iface.name === 'Node')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isConnection(field) || !selectable(field)) continue;
      const leaf = `${field.name}(first: 1000) { edges { node { __typename } } }`;
      const aliases = Array.from({ length: 31 }, (_, index) => `a${index}: ${leaf}`).join(' ');
      const fragments = Array.from(
        { length: 12 },
        (_, level) => `fragment F${level} on ${type.name} { ${level === 11 ? leaf : `...F${level + 1} ...F${level + 1}`} }`,
      );
      found.push({
        name: `${type.name}.${field.name}`,
        aliased: `{ node(id: "x") { ... on ${type.name} { ${aliases} } } }`,
        fragmented: `{ node(id: "x") { ...F0 } } ${fragments.join(' ')}`,
      });
    }
  }
  return found;
}

describe('multiplied connections generated from the schema', () => {
  const generated = multipliers().map((bomb) => [bomb.name, bomb] as const);
  const post = (query: string) =>
    t.call('POST', '/graphql', { token: team.admin.token, body: { query }, headers: { accept: 'application/graphql-response+json' } });

  it.each(generated)('refuses %s under 31 aliases before it runs', async (_name, { aliased }) => {
    // This instance's own writes are heard back first (PostgreSQL), not counted below.
    await t.database.generations.barrier();
    const before = t.statements();
    const response = await post(aliased);
    expect(t.statements() - before, 'SQL statements beyond authentication').toBeLessThanOrEqual(1);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].message).toMatch(/Aliases limit of \d+ exceeded/);
  });

  it.each(generated)('answers %s spread 4,096 times through fragments as if spread once', async (_name, { fragmented }) => {
    // This instance's own writes are heard back first (PostgreSQL), not counted below.
    await t.database.generations.barrier();
    const before = t.statements();
    const response = await post(fragmented);
    expect(t.statements() - before, 'SQL statements beyond authentication').toBeLessThanOrEqual(1);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ data: { node: null }, errors: [{ extensions: { code: 404 } }] });
  });
});

describe('bombs generated from the schema', () => {
  const generated = bombs();

  it('covers the connections of the graph', () => {
    const names = generated.map((bomb) => bomb.name);
    expect(names).toEqual(expect.arrayContaining(['Organization.spaces', 'Organization.sites', 'Site.sections']));
    expect(names.length).toBeGreaterThanOrEqual(5);
  });

  it.each(generated.map((bomb) => [bomb.name, bomb.query]))('refuses %s nested in itself before it runs', async (_name, query) => {
    // This instance's own writes are heard back first (PostgreSQL), not counted below.
    await t.database.generations.barrier();
    const before = t.statements();
    const response = await t.call('POST', '/graphql', { token: team.admin.token, body: { query }, headers: { accept: 'application/graphql-response+json' } });
    expect(t.statements() - before, 'SQL statements beyond authentication').toBeLessThanOrEqual(1);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].message).toMatch(/Query cost \d+ exceeds the limit|Query depth limit of \d+ exceeded/);
    // The next ordinary request is answered as usual.
    expect(expectData(await t.graphql(team.admin.token, '{ viewer { user { id } } }')).viewer.user.id).toBe(team.admin.id);
  });
});
