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
  site: 'Site',
  siteSection: 'SiteSection',
  siteSectionGroup: 'SiteSectionGroup',
  siteSpace: 'SiteSpace',
  changeRequest: 'ChangeRequest',
};

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
    decodeGlobalID: (globalID) => {
      const kind = idKind(globalID);
      const typename = kind && typeOfKind[kind];
      if (!typename) throw notFound('Object', globalID);
      return { typename, id: globalID };
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

builder.queryType({});
builder.mutationType({});

builder.globalConnectionField('totalCount', (t) =>
  t.int({
    description: 'Number of items in the whole listing, not only this page',
    resolve: (connection) => (connection as unknown as { totalCount: () => Promise<number> }).totalCount(),
  }),
);
