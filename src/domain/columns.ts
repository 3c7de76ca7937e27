import DataLoader from 'dataloader';
import type { RequestContext } from '../context.ts';
import { type LoaderDefinition, registryOf } from './loaders.ts';

/**
 * Rows read with only the columns a request needs: a tree of a thousand spaces
 * that shows their titles does not read (and parse) every space's merge rules.
 * The rows asked for in the same tick are read with one statement, selecting
 * the union of the columns each asker needs, and kept for the request; asking
 * again for a row with columns it was not read with reads it again.
 *
 * Such a row is typed as the whole row but holds only the columns asked for
 * plus `always`: hand it only to code that reads those (GraphQL fields declare
 * the columns they read, src/graphql/columns.ts).
 */
export interface ColumnSource<Row extends { id: string }> {
  /** Columns read whatever is asked: the id, and what authorization and relations read. */
  always: ReadonlyArray<keyof Row & string>;
  /** The rows with these ids; `select` null reads every column. */
  findMany(ctx: RequestContext, ids: string[], select: Record<string, true> | null): Promise<Row[]>;
}

/** Columns a batch reads: a set that grows until the batch is sent, or every column. */
type Demand = { columns: Set<string> | 'all'; sent: boolean };

class ColumnLoader<Row extends { id: string }> extends DataLoader<string, Row | null> {
  private demand: Demand = { columns: new Set(), sent: false };
  /** What each row was (or is being) read with. */
  private readonly readWith = new Map<string, Demand>();

  constructor(ctx: RequestContext, source: ColumnSource<Row>) {
    super(async (ids) => {
      const demand = this.demand;
      demand.sent = true;
      this.demand = { columns: new Set(), sent: false };
      const select = demand.columns === 'all' ? null : Object.fromEntries([...source.always, ...demand.columns].map((column) => [column, true] as const));
      const rows = await source.findMany(ctx, [...ids], select);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    });
  }

  loadColumns(id: string, columns: ReadonlyArray<string> | null): Promise<Row | null> {
    const known = this.readWith.get(id);
    if (known && covers(known, columns)) return this.load(id);
    // In the batch being formed: it will read these columns too.
    if (known && !known.sent) {
      widen(known, columns);
      return this.load(id);
    }
    // Not read yet, or read without these columns: read it (again) with the next batch.
    if (known) this.clear(id);
    widen(this.demand, columns);
    this.readWith.set(id, this.demand);
    return this.load(id);
  }

  override clearAll() {
    this.readWith.clear();
    return super.clearAll();
  }
}

function covers(demand: Demand, columns: ReadonlyArray<string> | null): boolean {
  if (demand.columns === 'all') return true;
  if (columns === null) return false;
  const read = demand.columns;
  return columns.every((column) => read.has(column));
}

function widen(demand: Demand, columns: ReadonlyArray<string> | null): void {
  if (demand.columns === 'all') return;
  if (columns === null) demand.columns = 'all';
  else for (const column of columns) demand.columns.add(column);
}

/** The row with at least `columns` (every column when null), or null when it does not exist. */
export function loadColumns<Row extends { id: string }>(
  ctx: RequestContext,
  source: ColumnSource<Row>,
  id: string,
  columns: ReadonlyArray<string> | null,
): Promise<Row | null> {
  ctx.checkBudget?.();
  // Kept with the request's loaders, so that a write clears it like them.
  const key = source as unknown as LoaderDefinition<never, never>;
  // Rows by id read the same for every viewer: shared where the context shares them.
  const registry = registryOf(ctx, true);
  let instance = registry.get(key) as ColumnLoader<Row> | undefined;
  if (!instance) {
    instance = new ColumnLoader(ctx, source);
    registry.set(key, instance as unknown as DataLoader<unknown, unknown>);
  }
  return instance.loadColumns(id, columns);
}
