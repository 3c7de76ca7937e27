import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/domain/access.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type MatrixWorld, buildMatrixWorld } from './fixtures.ts';

/**
 * The `permissions` booleans of every object that has them (organizations,
 * collections, spaces, sites, custom fields, teams, translation settings,
 * OpenAPI specs, comments and their replies) tell the truth: read by a caller
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
  /** A fresh object (and its twin) of one variant, for `caller` (some objects are the caller's own). */
  variants: Record<string, (w: MatrixWorld, caller: Caller) => Promise<Target>>;
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

/** GraphQL reads any object by its id. */
const nodeQuery = (type: string, id: string): Target['graphql'] => ({
  query: `query($id: ID!) { node(id: $id) { ... on ${type} { permissions { %FIELDS% } } } }`,
  variables: { id },
  path: 'node',
});

const org = () => `/v1/orgs/${w.a.organizationId}`;

/** A team and its twin, the caller made their owner when `owned`. */
const teamTarget = async (w: MatrixWorld, caller: Caller, owned: boolean): Promise<Target> => {
  const [teamId, twinId] = [await w.a.make.team(), await w.a.make.team()];
  if (owned) {
    for (const id of [teamId, twinId]) await w.a.rest('PUT', `${org()}/teams/${id}/members/${w.members[caller].id}`, { role: 'owner' }, 204);
  }
  return { rest: `${org()}/teams/${teamId}`, graphql: nodeQuery('Team', teamId), ids: { teamId, twinId } };
};

/**
 * Makes the caller the author of a comment or reply, as if they had posted it
 * (readers and guests cannot post: as if they had since lost the level).
 */
const authoredBy = async (caller: Caller, comment: { commentId: string; replyId?: string }) => {
  const postedById = w.members[caller].id;
  if (comment.replyId) await t.database.db.commentReply.update({ where: { id: comment.replyId }, data: { postedById } });
  else await t.database.db.comment.update({ where: { id: comment.commentId }, data: { postedById } });
};

/** Where a comment (and its twin) is, and by whom. */
interface CommentPlace {
  /** The space it is in (organization A's space by default). */
  space?: (w: MatrixWorld) => Promise<string>;
  inChangeRequest?: boolean;
  byCaller: boolean;
}

const commentTarget =
  ({ space, inChangeRequest = false, byCaller }: CommentPlace) =>
  async (w: MatrixWorld, caller: Caller): Promise<Target> => {
    const spaceId = space ? await space(w) : w.a.spaceId;
    const changeRequestId = inChangeRequest ? await w.a.make.changeRequest(spaceId) : undefined;
    const [commentId, twinId] = [await w.a.make.comment(spaceId, changeRequestId), await w.a.make.comment(spaceId, changeRequestId)];
    if (byCaller) for (const id of [commentId, twinId]) await authoredBy(caller, { commentId: id });
    const comments = `/v1/spaces/${spaceId}${changeRequestId ? `/change-requests/${changeRequestId}` : ''}/comments`;
    return { rest: `${comments}/${commentId}`, graphql: nodeQuery('Comment', commentId), ids: { comments, commentId, twinId } };
  };

const replyTarget =
  ({ inChangeRequest = false, byCaller }: CommentPlace) =>
  async (w: MatrixWorld, caller: Caller): Promise<Target> => {
    const spaceId = w.a.spaceId;
    const changeRequestId = inChangeRequest ? await w.a.make.changeRequest(spaceId) : undefined;
    const commentId = await w.a.make.comment(spaceId, changeRequestId);
    const replyId = await w.a.make.commentReply(spaceId, commentId, changeRequestId);
    if (byCaller) await authoredBy(caller, { commentId, replyId });
    const replies = `/v1/spaces/${spaceId}${changeRequestId ? `/change-requests/${changeRequestId}` : ''}/comments/${commentId}/replies`;
    return { rest: `${replies}/${replyId}`, graphql: nodeQuery('CommentReply', replyId), ids: { replies, replyId } };
  };

/** A space whose members (all but admins) now only read it. */
const readOnlySpace = async (w: MatrixWorld) => {
  const id = await w.a.make.space();
  await w.a.rest('PATCH', `/v1/spaces/${id}`, { defaultLevel: 'read' });
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
      // Access to the organization's content: a search of all of it (a guest lists only the content granted to it).
      access: (token, { ids }) => status(token, 'GET', `/v1/orgs/${ids.organizationId}/search?query=probe`),
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
      edit: (token, { ids }) => status(token, 'PATCH', `/v1/spaces/${ids.spaceId}/custom-fields`, { values: { [w.a.customFieldName]: { value: 'probe' } } }),
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
  team: {
    variants: {
      'a team': (w, caller) => teamTarget(w, caller, false),
      // Owners manage their team, whatever their role; a guest owner still sees no teams.
      'a team the caller owns': (w, caller) => teamTarget(w, caller, true),
    },
    probes: {
      view: async (token, target) => both(await status(token, 'GET', target.rest), await status(token, 'GET', `${target.rest}/members`)),
      admin: async (token, { rest, ids }) => {
        const update = await status(token, 'PATCH', rest, { title: 'Probe team' });
        const remove = await status(token, 'DELETE', rest.replace(ids.teamId!, ids.twinId!));
        return both(update, remove);
      },
    },
  },

  translationSettings: {
    variants: {
      'translation settings': async (w) => {
        const [id, twinId] = [await w.a.make.translationSettings(), await w.a.make.translationSettings()];
        return { rest: `${org()}/translations/${id}`, graphql: nodeQuery('TranslationSettings', id), ids: { id, twinId } };
      },
    },
    probes: {
      view: (token, target) => status(token, 'GET', target.rest),
      edit: async (token, { rest, ids }) => {
        const update = await status(token, 'PUT', rest, { title: 'Probe languages', languages: ['de'] });
        const remove = await status(token, 'DELETE', rest.replace(ids.id!, ids.twinId!));
        return both(update, remove);
      },
    },
  },

  openApiSpec: {
    variants: {
      'an OpenAPI spec': async (w) => {
        const [slug, twinSlug] = [await w.a.make.openApiSpec(), await w.a.make.openApiSpec()];
        const { id } = await w.a.rest('GET', `${org()}/openapi/${slug}`);
        return { rest: `${org()}/openapi/${slug}`, graphql: nodeQuery('OpenAPISpec', id), ids: { slug, twinSlug } };
      },
    },
    probes: {
      view: async (token, target) => both(await status(token, 'GET', target.rest), await status(token, 'GET', `${target.rest}/versions`)),
      edit: async (token, { rest, ids }) => {
        const update = await status(token, 'PUT', rest, { source: { text: '{"openapi": "3.0.3"}' } });
        const remove = await status(token, 'DELETE', rest.replace(ids.slug!, ids.twinSlug!));
        return both(update, remove);
      },
    },
  },

  comment: {
    variants: {
      "an admin's comment on a space's content": commentTarget({ byCaller: false }),
      "the caller's own comment on a space's content": commentTarget({ byCaller: true }),
      "the caller's own comment in a change request": commentTarget({ byCaller: true, inChangeRequest: true }),
      // Its author may no longer comment there: no editing, no deleting (but an admin's).
      "the caller's own comment in a space members now only read": commentTarget({ byCaller: true, space: readOnlySpace }),
    },
    probes: {
      view: (token, target) => status(token, 'GET', target.rest),
      edit: (token, target) => status(token, 'PUT', target.rest, { body: { markdown: 'Probe edit' } }),
      reply: async (token, { rest }) =>
        both(await status(token, 'POST', `${rest}/replies`, { body: { markdown: 'Probe reply' } }), await status(token, 'PUT', rest, { resolved: true })),
      delete: (token, { ids }) => status(token, 'DELETE', `${ids.comments}/${ids.twinId}`),
    },
  },

  commentReply: {
    variants: {
      "an admin's reply": replyTarget({ byCaller: false }),
      "the caller's own reply": replyTarget({ byCaller: true }),
      "the caller's own reply in a change request": replyTarget({ byCaller: true, inChangeRequest: true }),
    },
    probes: {
      view: (token, target) => status(token, 'GET', target.rest),
      edit: (token, target) => status(token, 'PUT', target.rest, { body: { markdown: 'Probe edit' } }),
      // Replying in its thread, and reacting to it.
      reply: async (token, { rest, ids }) =>
        both(await status(token, 'POST', ids.replies!, { body: { markdown: 'Probe reply' } }), await status(token, 'PUT', rest, { addedReactions: ['👍'] })),
      // No operation deletes a reply, in REST or GraphQL (replies go with their comment).
      delete: null,
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
          const target = await build(w, caller);
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

    it(`as ${caller}: teams, translation settings, OpenAPI specs, comments and their replies`, async () => {
      const token = w.tokens[caller]!;
      const org = `/v1/orgs/${w.a.organizationId}`;
      const comments = `/v1/spaces/${w.a.spaceId}/comments`;
      // A team, a comment and a reply of the caller's own, listed with the others.
      const teamId = await w.a.make.team();
      await w.a.rest('PUT', `${org}/teams/${teamId}/members/${w.members[caller].id}`, { role: 'owner' }, 204);
      const commentId = await w.a.make.comment(w.a.spaceId);
      const replyId = await w.a.make.commentReply(w.a.spaceId, commentId);
      await authoredBy(caller, { commentId });
      await authoredBy(caller, { commentId, replyId });
      type Item = { id: string; slug?: string; permissions: unknown };
      const listed = async (listing: string): Promise<Item[]> => {
        const response = await t.call('GET', listing, { token });
        expect(response.statusCode, `${listing}: ${response.body}`).toBe(200);
        return response.json().items;
      };
      const check = async (listing: string, object: (item: Item) => string, items: Item[]) => {
        expect(items.length, listing).toBeGreaterThan(0);
        for (const item of items) {
          expect(item.permissions, `${listing}: ${item.id}`).toEqual((await t.call('GET', object(item), { token })).json().permissions);
        }
      };
      const lists: Array<[string, (item: Item) => string]> = [
        [`${org}/teams?limit=20`, (item) => `${org}/teams/${item.id}`],
        // Those the caller owns: their `admin` is the caller's.
        [`${org}/teams?owner=${w.members[caller].id}&limit=20`, (item) => `${org}/teams/${item.id}`],
        [`${org}/translations?limit=20`, (item) => `${org}/translations/${item.id}`],
        [`${org}/openapi?limit=20`, (item) => `${org}/openapi/${item.slug}`],
        // The newest first: the caller's own among them.
        [`${comments}?limit=20`, (item) => `${comments}/${item.id}`],
      ];
      for (const [listing, object] of lists) await check(listing, object, await listed(listing));
      // Their replies, the caller's own among them.
      let replies = 0;
      for (const comment of await listed(`${comments}?limit=20`)) {
        const listing = `${comments}/${comment.id}/replies?limit=20`;
        const items = await listed(listing);
        replies += items.length;
        if (items.length) await check(listing, (item) => `${comments}/${comment.id}/replies/${item.id}`, items);
      }
      expect(replies).toBeGreaterThan(0);
    });
  }
});
