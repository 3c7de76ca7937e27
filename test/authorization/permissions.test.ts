import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/domain/access.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type MatrixWorld, buildMatrixWorld } from './fixtures.ts';

/**
 * The `permissions` booleans of every object that has them (organizations,
 * collections, spaces, sites, custom fields) tell the truth: read by a caller
 * at each role level, each boolean is true exactly when the operation it
 * describes succeeds for that same caller, and GraphQL gives the same booleans
 * as REST. Booleans no operation of this API acts on are listed as such, so
 * that a new boolean has to be classified too. Objects a caller may not read
 * (a guest's content: 404; custom fields: 403) carry no booleans, and every
 * operation on them is refused.
 */

let t: TestApp;
let w: MatrixWorld;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildMatrixWorld(t);
}, 120_000);

const CALLERS = ['guest', ...ROLES] as const;
type Caller = (typeof CALLERS)[number];

/** An object to check: where REST and GraphQL read it, and a twin built the same way for destructive checks. */
interface Target {
  rest: string;
  graphql: { query: string; variables: Record<string, unknown>; path: string };
  /** Ids of the object and of its twin. */
  ids: Record<string, string>;
}

/** An operation a boolean describes, as `token` calls it on `target`: its HTTP status (or statuses, when they differ). */
type Probe = (token: string, target: Target) => Promise<number | string>;

interface Kind {
  /** A fresh object (and its twin) of one variant. */
  variants: Record<string, (w: MatrixWorld) => Promise<Target>>;
  /** The operation each boolean describes, or null when this API has none. */
  probes: Record<string, Probe | null>;
}

/** Two operations one boolean describes must agree: both succeed, or both are refused. */
const both = (first: number, second: number) => (outcome(first) === outcome(second) ? first : `${first}, then ${second}`);

const status = async (token: string, method: string, url: string, body?: unknown) =>
  (await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) })).statusCode;

const spaceTarget = async (w: MatrixWorld, build: () => Promise<string>): Promise<Target> => {
  const [spaceId, twinId] = [await build(), await build()];
  return {
    rest: `/v1/spaces/${spaceId}`,
    graphql: { query: 'query($id: ID!) { space(id: $id) { permissions { %FIELDS% } } }', variables: { id: spaceId }, path: 'space' },
    ids: { spaceId, twinId, changeRequestId: await w.a.make.changeRequest(spaceId) },
  };
};

const collectionTarget = async (build: () => Promise<string>): Promise<Target> => {
  const [collectionId, twinId] = [await build(), await build()];
  return {
    rest: `/v1/collections/${collectionId}`,
    graphql: { query: 'query($id: ID!) { collection(id: $id) { permissions { %FIELDS% } } }', variables: { id: collectionId }, path: 'collection' },
    ids: { collectionId, twinId },
  };
};

/** A collection with this default level (null: inherited). */
const collectionAt = (w: MatrixWorld, defaultLevel: string | null) => async () => {
  const id = await w.a.make.collection();
  if (defaultLevel) await w.a.rest('PATCH', `/v1/collections/${id}`, { defaultLevel });
  return id;
};

const KINDS: Record<string, Kind> = {
  organization: {
    variants: {
      'organization A': async (w) => ({
        rest: `/v1/orgs/${w.a.organizationId}`,
        graphql: {
          query: 'query($id: ID!) { organization(id: $id) { permissions { %FIELDS% } } }',
          variables: { id: w.a.organizationId },
          path: 'organization',
        },
        ids: { organizationId: w.a.organizationId },
      }),
    },
    probes: {
      view: (token, { ids }) => status(token, 'GET', `/v1/orgs/${ids.organizationId}`),
      // Access to the organization's content: its listings.
      access: (token, { ids }) => status(token, 'GET', `/v1/orgs/${ids.organizationId}/spaces`),
      admin: (token, { ids }) => status(token, 'PATCH', `/v1/orgs/${ids.organizationId}`, { inviteLinks: false }),
      createContent: (token, { ids }) => status(token, 'POST', `/v1/orgs/${ids.organizationId}/spaces`, { title: 'Probe' }),
      listMembers: (token, { ids }) => status(token, 'GET', `/v1/orgs/${ids.organizationId}/members`),
      listTeams: (token, { ids }) => status(token, 'GET', `/v1/orgs/${ids.organizationId}/members/${w.subject.id}/teams`),
      ownTeam: null,
      createOpenAPISpec: null,
      viewBilling: null,
      listIntegrations: null,
      listInstallations: null,
      installIntegration: null,
    },
  },
  collection: {
    variants: {
      'a top-level collection': (w) => collectionTarget(collectionAt(w, null)),
      'a collection whose default level is read': (w) => collectionTarget(collectionAt(w, 'read')),
      // A default level above a member's role raises it.
      'a collection whose default level is create': (w) => collectionTarget(collectionAt(w, 'create')),
    },
    probes: {
      view: (token, { ids }) => status(token, 'GET', `/v1/collections/${ids.collectionId}`),
      admin: async (token, { ids }) => {
        const update = await status(token, 'PATCH', `/v1/collections/${ids.collectionId}`, { description: 'Probe' });
        const remove = await status(token, 'DELETE', `/v1/collections/${ids.twinId}`);
        return both(update, remove);
      },
      create: (token, { ids }) => status(token, 'POST', `/v1/orgs/${w.a.organizationId}/spaces`, { title: 'Probe', parent: ids.collectionId }),
      viewInviteLinks: null,
    },
  },
  space: {
    variants: {
      'a top-level space': (w) => spaceTarget(w, () => w.a.make.space()),
      'a locked space': (w) => spaceTarget(w, () => w.a.make.space({ editMode: 'locked' })),
      'a space whose default level is comment': (w) =>
        spaceTarget(w, async () => {
          const id = await w.a.make.space();
          await w.a.rest('PATCH', `/v1/spaces/${id}`, { defaultLevel: 'comment' });
          return id;
        }),
      'a space in a collection whose default level is edit': async (w) => {
        const collectionId = await collectionAt(w, 'edit')();
        return spaceTarget(w, () => w.a.make.space({ parent: collectionId }));
      },
    },
    probes: {
      view: (token, { ids }) => status(token, 'GET', `/v1/spaces/${ids.spaceId}`),
      access: (token, { ids }) => status(token, 'GET', `/v1/spaces/${ids.spaceId}/content`),
      admin: async (token, { ids }) => {
        const update = await status(token, 'PATCH', `/v1/spaces/${ids.spaceId}`, { emoji: '1f4d8' });
        const remove = await status(token, 'DELETE', `/v1/spaces/${ids.twinId}`);
        return both(update, remove);
      },
      // Editing the space itself (live): its custom fields, which a locked space refuses to everyone.
      edit: (token, { ids }) =>
        status(token, 'PATCH', `/v1/spaces/${ids.spaceId}/custom-fields`, { values: { [w.a.customFieldName]: { value: 'probe' } } }),
      merge: (token, { ids }) => status(token, 'POST', `/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}/merge`),
      // Reviewing is merging here (there are no reviews): the same operation as `merge`, read on a twin change request.
      review: async (token, { ids }) => {
        const changeRequestId = await w.a.make.changeRequest(ids.spaceId!);
        return status(token, 'POST', `/v1/spaces/${ids.spaceId}/change-requests/${changeRequestId}/merge`);
      },
      comment: null,
      triggerGitSync: null,
      viewInviteLinks: null,
      installIntegration: null,
    },
  },
  site: {
    variants: {
      'a site': async (w) => {
        const [siteId, twinId] = [await w.a.make.site(), await w.a.make.site()];
        return {
          rest: `/v1/orgs/${w.a.organizationId}/sites/${siteId}`,
          graphql: { query: 'query($id: ID!) { site(id: $id) { permissions { %FIELDS% } } }', variables: { id: siteId }, path: 'site' },
          ids: { siteId, twinId },
        };
      },
    },
    probes: {
      view: (token, target) => status(token, 'GET', target.rest),
      access: (token, target) => status(token, 'GET', `${target.rest}/sections`),
      edit: (token, target) => status(token, 'PATCH', target.rest, { title: 'Probe site' }),
      admin: (token, target) => status(token, 'DELETE', target.rest.replace(target.ids.siteId!, target.ids.twinId!)),
      create: (token) => status(token, 'POST', `/v1/orgs/${w.a.organizationId}/sites`, { title: 'Probe site' }),
      viewAdaptiveSchema: (token, target) => status(token, 'GET', `${target.rest}/adaptive-schema`),
      editAdaptiveSchema: (token, target) => status(token, 'PUT', `${target.rest}/adaptive-schema`, { jsonSchema: w.adaptiveSchema }),
      installIntegration: null,
    },
  },
  customField: {
    variants: {
      'a custom field': async (w) => {
        const name = await w.a.make.customField();
        const { id } = await t.database.db.customField.findUniqueOrThrow({
          where: { organizationId_name: { organizationId: w.a.organizationId, name } },
        });
        return {
          rest: `/v1/orgs/${w.a.organizationId}/custom-fields/${name}`,
          graphql: { query: 'query($id: ID!) { node(id: $id) { ... on CustomField { permissions { %FIELDS% } } } }', variables: { id }, path: 'node' },
          ids: { name },
        };
      },
    },
    probes: {
      view: (token, target) => status(token, 'GET', target.rest),
      edit: (token, target) => status(token, 'PATCH', target.rest, { description: 'Probe' }),
    },
  },
};

/** true for a success, false for a refusal (403, or 404 for what the caller cannot see), else the status itself. */
const outcome = (code: number | string): boolean | number | string =>
  typeof code === 'string' ? code : code >= 200 && code < 300 ? true : code === 403 || code === 404 ? false : code;

describe('permissions booleans agree with what the caller may do', () => {
  for (const [kind, { variants, probes }] of Object.entries(KINDS)) {
    for (const [variant, build] of Object.entries(variants)) {
      for (const caller of CALLERS) {
        it(`${kind}: ${variant}, read by ${caller}`, async () => {
          const token = w.tokens[caller]!;
          const target = await build(w);
          const response = await t.call('GET', target.rest, { token });
          // What a caller may not read (404: cannot see; 403: may see it exists) it may do nothing with:
          // as if every boolean were false.
          const visible = response.statusCode === 200;
          if (!visible) expect([403, 404], response.body).toContain(response.statusCode);
          const permissions: Record<string, boolean> = visible
            ? response.json().permissions
            : Object.fromEntries(Object.keys(probes).map((name) => [name, false]));
          expect(Object.keys(permissions).sort(), 'every boolean is classified').toEqual(Object.keys(probes).sort());

          // GraphQL reads the same booleans (or the same refusal).
          const fields = Object.keys(probes).join(' ');
          const graphql = await t.graphql(token, target.graphql.query.replace('%FIELDS%', fields), target.graphql.variables);
          if (visible) expect(graphql.data?.[target.graphql.path]?.permissions, JSON.stringify(graphql.errors)).toEqual(permissions);
          else expect(graphql.errors?.map((error) => error.extensions?.code)).toEqual([response.statusCode]);

          const expected: Record<string, boolean> = {};
          const actual: Record<string, boolean | number | string> = {};
          for (const [name, probe] of Object.entries(probes)) {
            if (!probe) continue;
            expected[name] = permissions[name]!;
            actual[name] = outcome(await probe(token, target));
          }
          expect(actual).toEqual(expected);
        });
      }
    }
  }
});

describe('listings present the permissions their objects have', () => {
  for (const caller of ROLES) {
    it(`as ${caller}: spaces, collections and sites listed by the organization`, async () => {
      const token = w.tokens[caller]!;
      const org = `/v1/orgs/${w.a.organizationId}`;
      for (const [listing, object] of [
        [`${org}/spaces?limit=1000`, (id: string) => `/v1/spaces/${id}`],
        [`${org}/collections?limit=1000`, (id: string) => `/v1/collections/${id}`],
        [`${org}/sites?limit=1000`, (id: string) => `${org}/sites/${id}`],
      ] as const) {
        const items: Array<{ id: string; permissions: unknown }> = (await t.call('GET', listing, { token })).json().items;
        expect(items.length).toBeGreaterThan(0);
        for (const item of items.slice(0, 5)) {
          expect(item.permissions, `${listing}: ${item.id}`).toEqual((await t.call('GET', object(item.id), { token })).json().permissions);
        }
      }
    });
  }
});
