import { collectSubFields } from '@graphql-tools/utils';
import { type Expression, sql } from 'kysely';
import type { Address, AddressSet } from '../../domain/shared/addresses.ts';
import { type CompileContext, type FieldCompiler, UNSUPPORTED, objectTypeOf, ref } from './compile.ts';

/** Whether a column holds a value, as src/domain/shared/addresses.ts decides (not null, empty or false). */
function holds(c: CompileContext, value: Expression<unknown>): Expression<unknown> {
  return c.json.provider === 'postgresql' ? sql`coalesce(${value}::text, '') NOT IN ('', 'false')` : sql`coalesce(${value}, '') NOT IN ('', 0)`;
}

/** An address (src/domain/shared/addresses.ts) as SQL text: the bases are parameters, the columns the row's. */
export function addressOf(c: CompileContext, address: Address, row: string): Expression<unknown> {
  const parts = address.map((part): Expression<unknown> => {
    if (typeof part === 'string') return sql.lit(part);
    if ('base' in part) return sql`CAST(${c.urls[part.base]} AS TEXT)`;
    if ('column' in part) return ref(row, part.column);
    return sql`(CASE WHEN ${holds(c, ref(row, part.if))} THEN ${addressOf(c, part.use, row)} ELSE ${part.otherwise ? addressOf(c, part.otherwise, row) : sql.lit('')} END)`;
  });
  return parts.length === 1 ? parts[0]! : c.json.concat(parts);
}

/** A `urls` object of the row's addresses; an optional one is null when its column holds no value. */
export function addresses(set: AddressSet): FieldCompiler {
  return (c, row, selection) => {
    const type = objectTypeOf(selection.field.type);
    if (!type) return UNSUPPORTED;
    const fields = collectSubFields(c.schema, c.fragments, c.variables, type, selection.nodes);
    const entries: Array<readonly [string, Expression<unknown>]> = [];
    for (const [key, nodes] of fields.fields) {
      const name = nodes[0]!.name.value;
      if (name === '__typename') {
        entries.push([key, sql.lit(type.name)]);
        continue;
      }
      const entry = set[name];
      if (!entry) return UNSUPPORTED;
      const address = addressOf(c, entry.address, row);
      entries.push([key, entry.when ? sql`(CASE WHEN ${holds(c, ref(row, entry.when))} THEN ${address} END)` : address]);
    }
    return c.json.object(entries);
  };
}
