import { type Expression, sql } from 'kysely';
import type { Db } from './client.ts';
import type { JsonDialect, JsonExpression } from './sql.ts';
import type { Tables } from './tables.ts';

/**
 * Rows read as JSON by one statement (src/domain/reads.ts), made the records
 * Prisma would have answered: the columns of each table and their kinds come
 * from Prisma's own data model, so a column added to prisma/models.prisma is
 * read here too.
 */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'date' | 'json' | 'bigint';

export interface RecordShape {
  table: keyof Tables;
  columns: ReadonlyArray<{ name: string; kind: ColumnKind }>;
}

interface RuntimeDataModel {
  models: Record<string, { dbName: string | null; fields: Array<{ name: string; kind: string; type: string }> }>;
}

const KINDS: Record<string, ColumnKind> = {
  DateTime: 'date',
  Boolean: 'boolean',
  Json: 'json',
  BigInt: 'bigint',
  Int: 'number',
  Float: 'number',
  Decimal: 'number',
};

const shapes = new WeakMap<object, Map<string, RecordShape>>();

/** The scalar columns of a table and their kinds. */
export function recordShape(db: Db, table: keyof Tables): RecordShape {
  let byTable = shapes.get(db);
  if (!byTable) {
    const model = (db as unknown as { _runtimeDataModel: RuntimeDataModel })._runtimeDataModel;
    byTable = new Map(
      Object.values(model.models).map((entry) => [
        entry.dbName!,
        {
          table: entry.dbName as keyof Tables,
          columns: entry.fields.filter((field) => field.kind === 'scalar').map((field) => ({ name: field.name, kind: KINDS[field.type] ?? 'text' })),
        },
      ]),
    );
    shapes.set(db, byTable);
  }
  const shape = byTable.get(table);
  if (!shape) throw new Error(`No table ${table} in the data model`);
  return shape;
}

/** Every column of the row `alias` as a JSON object, each as its kind is written in JSON (dates ISO 8601, big integers as text). */
export function recordObject(json: JsonDialect, shape: RecordShape, alias: string): JsonExpression {
  return json.object(
    shape.columns.map(({ name, kind }): readonly [string, Expression<unknown>] => {
      const column = sql.ref(`${alias}.${name}`);
      switch (kind) {
        case 'date':
          return [name, json.isoDate(column)];
        case 'boolean':
          return [name, json.boolean(column)];
        case 'json':
          return [name, json.jsonColumn(column)];
        case 'bigint':
          return [name, sql`CAST(${column} AS TEXT)`];
        default:
          return [name, column];
      }
    }),
  );
}

/** A row read by recordObject as the record Prisma answers: dates as Date, big integers as bigint. */
export function reviveRecord<T>(shape: RecordShape, value: Record<string, unknown>): T {
  for (const { name, kind } of shape.columns) {
    const field = value[name];
    if (field === null || field === undefined) continue;
    if (kind === 'date') value[name] = new Date(field as string);
    else if (kind === 'bigint') value[name] = BigInt(field as string);
  }
  return value as T;
}
