import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type { RequestContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { type IdKind, idKind } from '../lib/ids.ts';

/** GraphQL type of each kind of id: ids carry their kind, so `node(id:)` needs no lookup table. */
const typeOfKind: Partial<Record<IdKind, string>> = {
  organization: 'Organization',
  user: 'User',
  collection: 'Collection',
  space: 'Space',
  customField: 'CustomField',
  team: 'Team',
  samlProvider: 'SamlProvider',
  invite: 'Invite',
  translationSettings: 'TranslationSettings',
  site: 'Site',
  siteSection: 'SiteSection',
  siteSectionGroup: 'SiteSectionGroup',
  siteSpace: 'SiteSpace',
  changeRequest: 'ChangeRequest',
  changeRequestReview: 'ChangeRequestReview',
  revision: 'Revision',
  comment: 'Comment',
  commentReply: 'CommentReply',
  openApiSpec: 'OpenAPISpec',
  openApiSpecVersion: 'OpenAPISpecVersion',
  webhook: 'Webhook',
};

const UNKNOWN_TYPE = '';

/** Configures plugins and scalars only; types live in ./types, one file per resource. */
export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [RelayPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // The id of an object is the same in both contracts: REST ids are already global.
    encodeGlobalID: (_typename, id) => String(id),
    // An id of no known kind decodes to no type: `node` answers it 404, and
    // `nodes` a null entry with its error, the other entries still answered.
    decodeGlobalID: (globalID) => {
      const kind = idKind(globalID);
      return { typename: (kind && typeOfKind[kind]) || UNKNOWN_TYPE, id: globalID };
    },
    idFieldOptions: { description: 'Its id: the same in REST and GraphQL' },
    nodeTypeOptions: { description: 'An object with an id: every organization, space, site, comment… (its id is the REST id)' },
    nodeQueryOptions: {
      description: 'Any object by its id, as REST names it (`spc_…`, `org_…`, `site_…`…); 404 when the caller cannot see it',
      resolve: (_root, { id }, _ctx, _info, resolveNode) => {
        if (id.typename === UNKNOWN_TYPE) throw notFound('Object', id.id);
        return resolveNode(id);
      },
    },
    nodesQueryOptions: {
      description: 'Objects by their ids, in the same order; one the caller cannot see is null, with its error',
      resolve: async (_root, args, _ctx, _info, resolveNodes) => {
        const requested = [...args.ids];
        // Pothos resolves `args.ids` itself: unknown entries become nulls there.
        args.ids.splice(0, args.ids.length, ...requested.map((id) => (id.typename === UNKNOWN_TYPE ? (null as never) : id)));
        const found = await resolveNodes(args.ids);
        return requested.map((id, index) => (id.typename === UNKNOWN_TYPE ? notFound('Object', id.id) : found[index]));
      },
    },
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time string, as in the REST API',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw new TypeError('DateTime must be an ISO 8601 string');
    return value;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({ description: 'What can be read: the caller (`viewer`), any object by id (`node`, `nodes`), and lookups by id' });
builder.mutationType({ description: 'Every write; each takes one `input` and answers what it changed, with the same rules as REST' });

builder.globalConnectionField('totalCount', (t) =>
  t.int({
    description: 'Number of items in the whole listing, not only this page',
    resolve: (connection) => (connection as unknown as { totalCount: () => Promise<number> }).totalCount(),
  }),
);
