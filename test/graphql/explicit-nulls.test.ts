import {
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { NULL_IS_A_VALUE } from '../../src/graphql/null-inputs.ts';
import { schema } from '../../src/graphql/schema.ts';
import { type MatrixWorld, buildMatrixWorld } from '../authorization/fixtures.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { unique } from '../support/factories.ts';

/**
 * An explicit `null` on a nullable input field is a value GraphQL clients send
 * (`subject: $subject` with the variable null): it means "absent", or "clear"
 * where the REST contract takes null so (marked in the schema, and said in the
 * field's description). Generated over the schema: every mutation whose input
 * has nullable fields, called by an admin with every nullable field null (then
 * with nested input objects given, their nullable fields null) never answers a
 * validation error about a null; it succeeds, or refuses what is missing with
 * a 400 that does not mention null. A new mutation is covered as it is added.
 */

let t: TestApp;
let w: MatrixWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildMatrixWorld(t);
});

type Value = (mutation: string) => unknown | Promise<unknown>;

/** Values of the required (non-null) fields, by `Type.field` or by field name. */
const REQUIRED: Record<string, Value> = {
  organizationId: () => w.a.organizationId,
  // A fresh space for each call: some mutations take a space in once (site spaces, sections, imports).
  spaceId: () => w.a.make.space(),
  collectionId: () => w.a.collectionId,
  changeRequestId: () => w.a.changeRequestId,
  commentId: () => w.a.commentId,
  replyId: () => w.a.commentReplyId,
  inviteId: () => w.a.inviteId,
  samlProviderId: () => w.a.samlProviderId,
  sectionGroupId: () => w.a.groupId,
  sectionId: () => w.a.sectionId,
  shareLinkId: () => w.a.shareLinkId,
  siteId: () => w.a.siteId,
  siteSpaceId: () => w.a.siteSpaceId,
  teamId: () => w.a.teamId,
  webhookId: () => w.a.webhookId,
  translationSettingsId: () => w.a.translationSettingsId,
  userId: () => w.subject.id,
  title: () => 'Explicit nulls',
  label: () => 'Nulls',
  body: () => 'Explicit nulls',
  url: () => w.website,
  slug: () => `nulls-${unique().toLowerCase()}`,
  email: () => `nulls-${unique().toLowerCase()}@example.test`,
  'CreateCustomFieldInput.name': () => `nulls_${unique().toLowerCase()}`,
  'UpdateCustomFieldInput.name': () => w.a.customFieldName,
  'CustomFieldValueInput.name': () => w.a.customFieldName,
  'OrganizationDefaultContentInput.site': () => w.a.siteId,
  'TeamMembershipInput.user': () => w.subject.id,
  // The admin may not review a change request of their own.
  'SubmitChangeRequestReviewInput.changeRequestId': () => w.reviewableChangeRequestId,
  'RequestReviewersForChangeRequestInput.users': () => [w.subject.id],
  ref: () => 'main',
  commitMessage: () => 'Explicit nulls',
  'CreateSiteRedirectInput.source': () => `/nulls-${unique().toLowerCase()}`,
  'CreateSiteRedirectInput.destination': () => ({ kind: 'site-space', siteSpaceId: w.a.siteSpaceId }),
  // A fresh redirect for each call (deleting one takes it away).
  siteRedirectId: async () =>
    (
      await w.a.rest(
        'POST',
        `/v1/orgs/${w.a.organizationId}/sites/${w.a.siteId}/redirects`,
        {
          source: `/nulls-${unique().toLowerCase()}`,
          destination: { kind: 'site-space', siteSpaceId: w.a.siteSpaceId },
        },
        201,
      )
    ).id,
  'GitCredentialsInput.username': () => 'writer',
  'GitCredentialsInput.password': () => 'explicit-nulls-token',
};

/** The mutations and the nullable input fields they have (at any depth), read from the schema. */
function nullableFields(type: GraphQLInputObjectType, seen = new Set<string>()): string[] {
  if (seen.has(type.name)) return [];
  seen.add(type.name);
  return Object.values(type.getFields()).flatMap((field) => {
    const named = getNamedType(field.type);
    return [...(isNonNullType(field.type) ? [] : [`${type.name}.${field.name}`]), ...(isInputObjectType(named) ? nullableFields(named, seen) : [])];
  });
}
const MUTATIONS = Object.values(schema.getMutationType()!.getFields())
  .map((field) => ({ name: field.name, input: getNamedType(field.args[0]!.type) as GraphQLInputObjectType }))
  .filter(({ input }) => nullableFields(input).length > 0);

/**
 * An input of `type` for `mutation`: required fields from REQUIRED (or built:
 * nested inputs, one item of a list of them, an enum's first value, false),
 * nullable fields null, or, with `nested`, nullable input objects built too.
 */
async function inputOf(type: GraphQLInputObjectType, mutation: string, nested: boolean): Promise<Record<string, unknown>> {
  const input: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (!isNonNullType(field.type) && !(nested && isInputObjectType(named))) input[field.name] = null;
    else input[field.name] = await requiredValue(type, field, mutation, nested);
  }
  return input;
}

async function requiredValue(type: GraphQLInputObjectType, field: GraphQLInputField, mutation: string, nested: boolean): Promise<unknown> {
  const given = REQUIRED[`${type.name}.${field.name}`] ?? REQUIRED[field.name];
  if (given) return given(mutation);
  const build = async (fieldType: GraphQLInputType): Promise<unknown> => {
    const bare = getNullableType(fieldType);
    if (isListType(bare)) return [await build(bare.ofType)];
    if (isInputObjectType(bare)) return inputOf(bare, mutation, nested);
    if (isEnumType(bare)) return bare.getValues()[0]!.name;
    if (isScalarType(bare) && bare.name === 'Boolean') return false;
    throw new Error(`No value for the required ${type.name}.${field.name} (${String(field.type)}): add one to REQUIRED`);
  };
  return build(field.type);
}

/** `input` without the nulls that mean "absent": those of nullable fields not marked as taking null as a value. */
function withoutAbsentNulls(input: Record<string, unknown>, type: GraphQLInputObjectType): Record<string, unknown> {
  const fields = type.getFields();
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const field = fields[name]!;
    const named = getNamedType(field.type);
    if (value === null && !field.extensions?.[NULL_IS_A_VALUE]) continue;
    kept[name] =
      value !== null && isInputObjectType(named)
        ? Array.isArray(value)
          ? value.map((item) => withoutAbsentNulls(item, named))
          : withoutAbsentNulls(value as Record<string, unknown>, named)
        : value;
  }
  return kept;
}

/** What a call answered: "ok", or its errors (ids and fresh names made alike, so that two calls compare). */
async function outcomeOf(mutation: string, input: Record<string, unknown>): Promise<string[]> {
  const inputType = `${mutation[0]!.toUpperCase()}${mutation.slice(1)}Input`;
  const result = await t.graphql(w.admin.token, `mutation($input: ${inputType}!) { ${mutation}(input: $input) { __typename } }`, { input });
  if (!result.errors) return ['ok'];
  return result.errors
    .map((error) => `${error.extensions?.code}: ${error.message}`.replace(/\b[a-z]{2,5}_[\w-]{6,}/g, '<id>').replace(/\bnulls[-_][a-z0-9]+/g, '<fresh>'))
    .sort();
}

describe('explicit nulls on nullable input fields', () => {
  it('are covered for every mutation that has nullable input fields', () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(40);
  });

  for (const { name, input } of MUTATIONS) {
    it(`Mutation.${name}: explicit nulls answer as their absence (every nullable field null, then nested inputs given with theirs null)`, async () => {
      for (const nested of [false, true]) {
        const withNulls = await inputOf(input, name, nested);
        const answered = await outcomeOf(name, withNulls);
        // No refusal of a null, and no refusal that says the call aimed at nothing (a wrong fixture).
        expect(
          answered.filter((answer) => /\bnull\b/i.test(answer) || !/^(ok|400: )/.test(answer)),
          JSON.stringify(withNulls),
        ).toEqual([]);
        const without = withoutAbsentNulls(await inputOf(input, name, nested), input);
        expect(answered, `${JSON.stringify(withNulls)} answers as ${JSON.stringify(without)}`).toEqual(await outcomeOf(name, without));
      }
    });
  }

  it('answer as their absence in the arguments of queries too', async () => {
    const site = await t.graphql(w.admin.token, 'query($id: ID!) { publishedSite(siteId: $id, shareKey: null, visitorToken: null) { site { id } } }', {
      id: w.a.siteId,
    });
    expect(site.errors, JSON.stringify(site.errors)).toBeUndefined();
    expect(site.data.publishedSite.site.id).toBe(w.a.siteId);
    const members = await t.graphql(
      w.admin.token,
      'query($id: ID!) { organization(id: $id) { members(first: null, after: null, role: null) { totalCount } } }',
      { id: w.a.organizationId },
    );
    expect(members.errors, JSON.stringify(members.errors)).toBeUndefined();
    expect(members.data.organization.members.totalCount).toBeGreaterThan(1);
  });

  it('clear only where the field says so: a marked field describes what its null does', () => {
    const marked: string[] = [];
    for (const type of Object.values(schema.getTypeMap()).filter(isInputObjectType)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.extensions?.[NULL_IS_A_VALUE]) continue;
        marked.push(`${type.name}.${field.name}`);
        expect(isNonNullType(field.type), `${type.name}.${field.name} is nullable`).toBe(false);
        expect(field.description, `${type.name}.${field.name}`).toMatch(/\bnull\b/);
      }
    }
    expect(marked.length).toBeGreaterThan(0);
  });
});
