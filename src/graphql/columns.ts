import { collectSubFields } from '@graphql-tools/utils';
import { type FieldNode, type GraphQLResolveInfo, getNamedType, isObjectType } from 'graphql';

/**
 * The columns of a row a field's selection reads, from the columns each field
 * of its type declares (`map`): the narrow read of src/domain/columns.ts.
 * A selected field the map does not know reads every column (null). Computed
 * once per field of an execution (the same field under a thousand parents).
 */
export function columnsOf(info: GraphQLResolveInfo, map: Record<string, readonly string[]>): readonly string[] | null {
  // Per execution: `@include(if: $x)` may select differently with other variables.
  const perExecution = memo(memo(computed, info.fieldNodes[0]!), info.variableValues);
  if (perExecution.has(map)) return perExecution.get(map) as readonly string[] | null;
  const columns = collect(info, map);
  perExecution.set(map, columns);
  return columns;
}

function collect(info: GraphQLResolveInfo, map: Record<string, readonly string[]>): string[] | null {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return null;
  const { fields } = collectSubFields(info.schema, info.fragments, info.variableValues, type, info.fieldNodes as FieldNode[]);
  const columns: string[] = [];
  for (const name of fields.keys()) {
    const declared = map[name];
    if (!declared) return null;
    columns.push(...declared);
  }
  return columns;
}

type Memo = WeakMap<object, Memo | readonly string[] | null>;
const computed: Memo = new WeakMap();

function memo(parent: Memo, key: object): Memo {
  let child = parent.get(key) as Memo | undefined;
  if (!child) parent.set(key, (child = new WeakMap()));
  return child;
}
