import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLSchema,
  defaultFieldResolver,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';

/**
 * Explicit nulls in arguments and input fields. GraphQL lets a client send
 * `null` for any nullable argument or input field (a variable that is null,
 * say), and it means the same as leaving it out, except where the REST
 * contract gives null a meaning of its own — clearing a value (`icon: null`),
 * guests (`role: null`), the top level (`parent: null`). Those fields are
 * marked with this extension (`nullIsAValue()` below), and their description
 * says what null does; on every other nullable one a null is dropped before
 * the resolver (and so the domain's zod parse) sees the arguments.
 */
export const NULL_IS_A_VALUE = 'nullIsAValue';

/** Options of a Pothos input field or argument whose null the domain takes as a value: its description must say what null does. */
export const nullIsAValue = { extensions: { [NULL_IS_A_VALUE]: true } } as const;

type Definition = Pick<GraphQLInputField | GraphQLArgument, 'type' | 'extensions'>;

/** Removes the nulls that mean "absent" from a value of `type` (a new value where anything changes). */
function withoutAbsentNulls(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const bare = getNullableType(type);
  if (isListType(bare)) return Array.isArray(value) ? value.map((item) => withoutAbsentNulls(item, bare.ofType)) : value;
  if (isInputObjectType(bare)) return withoutAbsentNullFields(value as Record<string, unknown>, bare.getFields());
  return value;
}

function withoutAbsentNullFields(values: Record<string, unknown>, definitions: Record<string, Definition>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const definition = definitions[name];
    if (!definition) kept[name] = value;
    else if (value === null) {
      if (isNonNullType(definition.type) || definition.extensions?.[NULL_IS_A_VALUE]) kept[name] = null;
    } else kept[name] = withoutAbsentNulls(value, definition.type);
  }
  return kept;
}

/** Whether a value of `type` can hold a null that means "absent" somewhere. */
function mayHoldNulls(type: GraphQLInputType, seen = new Set<string>()): boolean {
  if (!isNonNullType(type)) return true;
  const bare = getNullableType(type);
  if (isListType(bare)) return mayHoldNulls(bare.ofType, seen);
  if (isInputObjectType(bare) && !seen.has(bare.name)) {
    seen.add(bare.name);
    return Object.values(bare.getFields()).some((field) => mayHoldNulls(field.type, seen));
  }
  return false;
}

/**
 * Wraps the resolver of every field that takes arguments which may hold a null
 * meaning "absent" (at any depth) so that it gets them without; the schema is
 * changed in place and returned.
 */
export function dropAbsentNulls(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.some((argument) => mayHoldNulls(argument.type))) continue;
      const definitions = Object.fromEntries(field.args.map((argument) => [argument.name, argument]));
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => resolve(source, withoutAbsentNullFields(args, definitions), context, info);
    }
  }
  return schema;
}
