import { type GraphQLArgument, type GraphQLField, GraphQLInputObjectType, GraphQLObjectType, type GraphQLSchema, getNamedType } from 'graphql';

/**
 * Descriptions of what the Relay plugin generates — connections, edges,
 * mutation inputs and payloads, paging arguments — written once here from
 * their shape, rather than repeated at every connection and mutation. What a
 * type file describes itself is never replaced.
 */

const PAGING_ARGUMENTS: Record<string, string> = {
  first: 'How many items to return from the start (0 to 1000; 100 when neither first nor last is given)',
  after: 'Return the items after this cursor: an `endCursor`, or a REST `next.page` token',
  last: 'How many items to return from the end (0 to 1000)',
  before: 'Return the items before this cursor: a `startCursor`',
};

const CONNECTION_FIELDS: Record<string, string> = {
  edges: 'The items of this page, each with its cursor',
  pageInfo: 'Where this page is: whether there are more, and the cursors to get them',
  totalCount: 'How many items the whole listing has, all pages together (as REST `count`)',
};

const EDGE_FIELDS: Record<string, string> = {
  node: 'The item',
  cursor: 'Where this item is in the listing: pass it as `after` or `before` (a REST page token)',
};

const PAGE_INFO_FIELDS: Record<string, string> = {
  hasNextPage: 'Whether items follow this page',
  hasPreviousPage: 'Whether items precede this page',
  startCursor: "The first item's cursor, or null for an empty page",
  endCursor: "The last item's cursor, or null for an empty page: pass it as `after` for the next page",
};

function describe(target: { description?: string | null | undefined }, description: string) {
  if (!target.description) target.description = description;
}

/** "SpaceCommentsConnection" → "Space.comments" style names, for what a connection lists. */
const nodeTypeOf = (connection: GraphQLObjectType) =>
  getNamedType(connection.getFields().edges?.type && (getNamedType(connection.getFields().edges!.type) as GraphQLObjectType).getFields().node?.type)?.name;

function describeArguments(field: GraphQLField<unknown, unknown>) {
  for (const argument of field.args as GraphQLArgument[]) {
    if (argument.name === 'id' && field.name === 'node') describe(argument, 'The id of the object');
    if (argument.name === 'ids' && field.name === 'nodes') describe(argument, 'The ids of the objects');
    const paging = PAGING_ARGUMENTS[argument.name];
    if (paging) describe(argument, paging);
  }
}

export function describeGenerated(schema: GraphQLSchema): GraphQLSchema {
  const mutationFields = schema.getMutationType()?.getFields() ?? {};
  const payloadOf = new Map<string, string>();
  const inputOf = new Map<string, string>();
  for (const field of Object.values(mutationFields)) {
    payloadOf.set(getNamedType(field.type).name, field.name);
    const input = field.args.find((argument) => argument.name === 'input');
    if (input) {
      inputOf.set(getNamedType(input.type).name, field.name);
      describe(input, `What the ${field.name} mutation needs`);
    }
  }

  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (type instanceof GraphQLObjectType) {
      const fields = type.getFields();
      for (const field of Object.values(fields)) describeArguments(field);
      if (type.name === 'PageInfo') {
        describe(type, 'Where a page of a listing is (Relay), with the cursors to page on');
        for (const [name, description] of Object.entries(PAGE_INFO_FIELDS)) if (fields[name]) describe(fields[name], description);
      } else if (/ConnectionEdge$/.test(type.name)) {
        describe(type, `One ${getNamedType(fields.node!.type).name} of a page, with its cursor`);
        for (const [name, description] of Object.entries(EDGE_FIELDS)) if (fields[name]) describe(fields[name], description);
      } else if (/Connection$/.test(type.name) && fields.edges && fields.pageInfo) {
        describe(type, `A page of ${nodeTypeOf(type)} items (Relay connection; its cursors are the REST page tokens)`);
        for (const [name, description] of Object.entries(CONNECTION_FIELDS)) if (fields[name]) describe(fields[name], description);
      } else if (payloadOf.has(type.name)) {
        const mutation = payloadOf.get(type.name)!;
        describe(type, `What the ${mutation} mutation answers`);
        for (const field of Object.values(fields)) describe(field, `The ${field.name} as the ${mutation} mutation left it`);
      }
    } else if (type instanceof GraphQLInputObjectType && inputOf.has(type.name)) {
      describe(type, `The input of the ${inputOf.get(type.name)} mutation`);
    }
  }
  return schema;
}
