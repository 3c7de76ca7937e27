// The demo's rows as data: captured from a database the domain services seeded
// (prisma/seed/demo-services.ts), and written back in bulk with fresh ids,
// timestamps and secrets (prisma/seed/demo.ts). The capture is canonical (ids
// become labels numbered in a fixed traversal, timestamps their rank), so two
// databases seeded alike capture to the same snapshot: test/db/demo-seed.test.ts
// compares the services' rows with the bulk load's this way.
import { randomUUID } from 'node:crypto';
import type { Database, Db } from '../../src/db/index.ts';
import { Prisma } from '../../src/db/index.ts';
import { documentIdOf } from '../../src/domain/content/documents.ts';
import type { JSONDocument } from '../../src/domain/content/model/nodes.ts';
import { withBlockKeys } from '../../src/domain/content/model/text.ts';
import { newVisitorAuthSecret } from '../../src/domain/sites/service.ts';
import { newVisitorClaimsSecret } from '../../src/domain/users/provisioning.ts';
import { ID_PREFIXES, idKind, newId } from '../../src/lib/ids.ts';

export interface DemoSnapshot {
  /** Per table, in the order rows are written (parents before children); search_sections is outside Prisma's models. */
  tables: Array<{ table: string; rows: Array<Record<string, unknown>> }>;
}

const SEARCH_TABLE = 'search_sections';
const GENERATIONS_TABLE = 'data_generations';

/**
 * Every table the demo may write, parents first. A table outside this list that
 * holds rows after the services' seed fails the capture (add it here).
 */
const TABLE_ORDER = [
  'users',
  'organizations',
  'organization_email_domains',
  'members',
  'teams',
  'team_members',
  'custom_fields',
  'collections',
  'spaces',
  'space_custom_field_values',
  'sites',
  'site_section_groups',
  'site_sections',
  'site_spaces',
  'share_links',
  'site_redirects',
  'content_grants',
  'documents',
  'document_structures',
  'document_links',
  'document_diffs',
  'page_versions',
  'revisions',
  'revision_pages',
  'file_versions',
  'revision_files',
  'change_requests',
  'change_request_contributors',
  'change_request_reviews',
  'change_request_reviewers',
  'comments',
  'comment_replies',
  'comment_reactions',
  'invites',
  'saml_providers',
  'translation_settings',
  'openapi_specs',
  'openapi_spec_versions',
  'webhook_subscriptions',
  'webhook_deliveries',
  'webhook_attempts',
  'api_tokens',
  'audit_events',
  SEARCH_TABLE,
  // Written by the generation triggers (prisma/generation-triggers.ts) of the inserts above. Captured by
  // scope only: a version counts the writes that touched the scope (per row on SQLite, per statement on
  // PostgreSQL), which one bulk insert per table cannot and need not reproduce; not written by the replay.
  GENERATIONS_TABLE,
];

/** Full-text search rows (SQLite FTS5, PostgreSQL tsvector column): outside Prisma's models, the same columns on both. */
const SEARCH_COLUMNS = ['spaceId', 'pageId', 'sectionId', 'pageTitle', 'title', 'path', 'body', 'position'] as const;

/** Random per seed, never referenced by another row: written fresh by the domain's own generators. */
const SECRET_COLUMNS: Record<string, Record<string, () => string>> = {
  organizations: { visitorClaimsSecret: newVisitorClaimsSecret },
  sites: { visitorAuthSecret: newVisitorAuthSecret },
};
const SECRET = '{{secret}}';
const SPEC_TEXT = '{{demo spec text}}';

type Kind = 'text' | 'date' | 'json' | 'bigint' | 'bytes' | 'number' | 'boolean';
interface Model {
  delegate: string;
  columns: Array<{ name: string; kind: Kind }>;
}

const KINDS: Record<string, Kind> = { DateTime: 'date', Json: 'json', BigInt: 'bigint', Bytes: 'bytes', Int: 'number', Float: 'number', Boolean: 'boolean' };

function modelsOf(db: Db): Map<string, Model> {
  const runtime = (
    db as unknown as { _runtimeDataModel: { models: Record<string, { dbName: string | null; fields: Array<{ name: string; kind: string; type: string }> }> } }
  )._runtimeDataModel;
  return new Map(
    Object.entries(runtime.models).map(([name, model]) => [
      model.dbName ?? name,
      {
        delegate: name.charAt(0).toLowerCase() + name.slice(1),
        columns: model.fields.filter((field) => field.kind === 'scalar').map((field) => ({ name: field.name, kind: KINDS[field.type] ?? 'text' })),
      },
    ]),
  );
}

type Delegates = Record<string, { findMany(): Promise<Array<Record<string, unknown>>> }>;

// Generated values in the rows: document ids (a digest of their space and body), audit event ids, and `newId`'s.
const PREFIXES = new Set<string>(Object.values(ID_PREFIXES));
const TOKEN = /\bdoc_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b([a-z]+)_[0-9A-Za-z]{18}\b/g;
const LABEL = /\b([a-z]+)_#(\d+)\b/g;

function tokenKind(token: string, prefix: string | undefined): string | undefined {
  if (token.startsWith('doc_') && token.length === 47) return 'doc';
  if (!prefix) return 'uuid';
  return PREFIXES.has(prefix) ? prefix : undefined;
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map)]));
  return value;
}

/**
 * The demo's rows in `database`, canonical: ids labeled in order of first
 * appearance (tables in TABLE_ORDER, rows sorted by their content with the
 * labels known so far), timestamps as their rank among all of them
 * (`dates: 'mask'`: only whether there is one), secrets and the spec text as
 * placeholders.
 */
export async function captureDemo(database: Database, options: { specText: string; dates: 'rank' | 'mask' }): Promise<DemoSnapshot> {
  const { db } = database;
  const models = modelsOf(db);
  const delegates = db as unknown as Delegates;
  const known = new Set(TABLE_ORDER);
  const raw = new Map<string, Array<Record<string, unknown>>>();
  for (const [table, model] of models) {
    const rows = await delegates[model.delegate]!.findMany();
    if (!known.has(table) && rows.length > 0) throw new Error(`the demo wrote rows to ${table}: add it to TABLE_ORDER in prisma/seed/snapshot.ts`);
    const bytes = model.columns.find((column) => column.kind === 'bytes');
    if (bytes && rows.length > 0) throw new Error(`${table}.${bytes.name} holds bytes, which a snapshot does not keep`);
    raw.set(
      table,
      rows.map((row) => {
        const plain: Record<string, unknown> = {};
        for (const { name, kind } of model.columns) {
          const value = row[name];
          plain[name] = value instanceof Date ? value.getTime() : kind === 'bigint' && value !== null ? String(value) : value;
          if (typeof plain[name] === 'string' && SECRET_COLUMNS[table]?.[name]) plain[name] = SECRET;
        }
        if (table === 'openapi_specs' && plain.sourceText === options.specText) plain.sourceText = SPEC_TEXT;
        if (table === GENERATIONS_TABLE) return { scope: plain.scope };
        return plain;
      }),
    );
  }
  const search = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT ${SEARCH_COLUMNS.map((column) => `"${column}"`).join(', ')} FROM "search_sections"`,
  );
  raw.set(
    SEARCH_TABLE,
    search.map((row) => ({ ...row, position: Number(row.position) })),
  );

  const dateColumns = (table: string) => new Set((models.get(table)?.columns ?? []).filter((column) => column.kind === 'date').map((column) => column.name));
  const ranks = new Map<number, number>();
  for (const [table, rows] of raw)
    for (const name of dateColumns(table)) for (const row of rows) if (typeof row[name] === 'number') ranks.set(row[name] as number, 0);
  for (const [rank, time] of [...ranks.keys()].sort((a, b) => a - b).entries()) ranks.set(time, rank);

  const labels = new Map<string, string>();
  const counters = new Map<string, number>();
  const replace = (assign: boolean) => (text: string) =>
    text.replace(TOKEN, (token, prefix: string | undefined) => {
      const kind = tokenKind(token, prefix);
      if (!kind) return token;
      let label = labels.get(token);
      if (!label && assign) {
        const next = counters.get(kind) ?? 0;
        counters.set(kind, next + 1);
        label = `${kind}_#${next}`;
        labels.set(token, label);
      }
      return label ?? '?';
    });
  const blockKeys = new Map<string, string>();
  const tables: DemoSnapshot['tables'] = [];
  for (const table of TABLE_ORDER) {
    const rows = raw.get(table) ?? [];
    if (rows.length === 0) continue;
    const dates = dateColumns(table);
    const sortKey = (row: Record<string, unknown>) =>
      JSON.stringify(Object.entries(row).map(([name, value]) => (dates.has(name) ? value !== null : mapStrings(value, replace(false)))));
    const timeKey = (row: Record<string, unknown>) => [...dates].map((name) => (row[name] as number | null) ?? -1);
    const keyed = rows.map((row) => ({ row, key: sortKey(row), times: timeKey(row) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : compareTimes(a.times, b.times)));
    const labeled = keyed.map(({ row }) =>
      Object.fromEntries(
        Object.entries(row).map(([name, value]) => {
          if (dates.has(name) && typeof value === 'number') return [name, options.dates === 'rank' ? ranks.get(value)! : 'T'];
          if (table === STRUCTURE.table && name === STRUCTURE.column) return [name, rekeyed(value as string, replace(true), blockKeys)];
          if (typeof value === 'string' && blockKeys.has(value)) return [name, blockKeys.get(value)];
          return [name, mapStrings(value, replace(true))];
        }),
      ),
    );
    tables.push({ table, rows: labeled });
  }
  return { tables };
}

/**
 * A stored document's text with `relabel` applied, its block keys made again (they are digests of
 * the blocks, ids included); the old key of each block is mapped to its new one in `keys`.
 */
function rekeyed(text: string, relabel: (text: string) => string, keys: Map<string, string>): string {
  const before = JSON.parse(text) as JSONDocument;
  const after = withBlockKeys(JSON.parse(relabel(text)) as JSONDocument);
  before.nodes.forEach((node, index) => {
    const key = after.nodes[index]?.key;
    if (node.key && key) keys.set(node.key, key);
  });
  return JSON.stringify(after);
}

/**
 * Where stored documents are (their block keys are made again). Keys name blocks elsewhere too (a
 * comment's nodeId): a whole value equal to an old key becomes the new one.
 */
const STRUCTURE = { table: 'document_structures', column: 'document' };

function compareTimes(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return 0;
}

export interface ReplayResult {
  /** SHA-256 digests of the files the rows refer to: the caller stores their bytes. */
  fileDigests: string[];
}

/**
 * Writes a snapshot's rows into an empty database in one transaction: a
 * multi-row INSERT per table, fresh ids (document ids digested again from
 * their fresh space id), timestamps ending now in the captured order, fresh
 * secrets, and the spec text given.
 */
export async function replayDemo(database: Database, snapshot: DemoSnapshot, options: { specText: string }): Promise<ReplayResult> {
  const models = modelsOf(database.db);
  const ids = new Map<string, string>();
  const fresh = (label: string, kind: string) => {
    let id = ids.get(label);
    if (!id) {
      if (kind === 'uuid') id = randomUUID();
      else if (kind === 'doc') throw new Error(`no document row for ${label}`);
      else id = newId(idKind(`${kind}_`) ?? fail(`unknown id prefix in ${label}`));
      ids.set(label, id);
    }
    return id;
  };
  const relabel = (text: string) => text.replace(LABEL, (label, kind: string) => fresh(label, kind));
  // Document ids are digests of the space and the body: computed from the fresh space id.
  for (const row of snapshot.tables.find((entry) => entry.table === 'documents')?.rows ?? []) {
    ids.set(row.id as string, documentIdOf(relabel(row.spaceId as string), relabel(row.markdown as string)));
  }
  const kindsOf = (table: string) => new Map((models.get(table)?.columns ?? []).map((column) => [column.name, column.kind]));
  // Timestamps a millisecond apart in the captured order, the last one now.
  let latest = 0;
  for (const { table, rows } of snapshot.tables) {
    const kinds = kindsOf(table);
    for (const row of rows)
      for (const [name, value] of Object.entries(row)) if (kinds.get(name) === 'date' && typeof value === 'number') latest = Math.max(latest, value);
  }
  const start = Date.now() - latest;

  const postgres = database.provider === 'postgresql';
  // Values as each database stores them (the SQLite adapter's dates are ISO 8601 text, its booleans 0 and 1), cast on PostgreSQL.
  const value = (kind: Kind | undefined, raw: unknown): Prisma.Sql => {
    if (raw === null) return Prisma.sql`NULL`;
    switch (kind) {
      case 'date': {
        const iso = new Date(start + (raw as number)).toISOString();
        return postgres ? Prisma.sql`CAST(${iso} AS timestamp(3))` : Prisma.sql`${iso.replace(/Z$/, '+00:00')}`;
      }
      case 'json': {
        const text = JSON.stringify(mapStrings(raw, relabel));
        return postgres ? Prisma.sql`CAST(${text} AS jsonb)` : Prisma.sql`${text}`;
      }
      case 'boolean':
        return Prisma.sql`${postgres ? raw : raw ? 1 : 0}`;
      case 'bigint':
        return Prisma.sql`${BigInt(raw as string)}`;
      default:
        return Prisma.sql`${mapStrings(raw, relabel)}`;
    }
  };
  const fileDigests: string[] = [];
  const blockKeys = new Map<string, string>();
  const statements: Prisma.Sql[] = [];
  for (const { table, rows } of snapshot.tables) {
    if (rows.length === 0 || table === GENERATIONS_TABLE) continue;
    if (table !== SEARCH_TABLE && !models.has(table)) throw new Error(`the demo snapshot has rows for ${table}, which is no table of this version`);
    const kinds = kindsOf(table);
    const columns = Object.keys(rows[0]!);
    const tuples = rows.map((row) => {
      const values = columns.map((name) => {
        const raw = row[name];
        if (raw === SECRET) return Prisma.sql`${SECRET_COLUMNS[table]![name]!()}`;
        if (raw === SPEC_TEXT) return Prisma.sql`${options.specText}`;
        if (table === STRUCTURE.table && name === STRUCTURE.column) return Prisma.sql`${rekeyed(raw as string, relabel, blockKeys)}`;
        if (typeof raw === 'string' && blockKeys.has(raw)) return Prisma.sql`${blockKeys.get(raw)}`;
        return value(kinds.get(name), raw);
      });
      if (table === 'file_versions') fileDigests.push(relabel(row.sha256 as string));
      return Prisma.sql`(${Prisma.join(values)})`;
    });
    const names = Prisma.raw(columns.map((name) => `"${name}"`).join(', '));
    // Far below both databases' limits on parameters per statement.
    for (let first = 0; first < tuples.length; first += 500) {
      statements.push(Prisma.sql`INSERT INTO "${Prisma.raw(table)}" (${names}) VALUES ${Prisma.join(tuples.slice(first, first + 500))}`);
    }
  }
  await database.db.$transaction(
    async (tx) => {
      for (const statement of statements) await tx.$executeRaw(statement);
    },
    { timeout: 30_000 },
  );
  return { fileDigests };
}

function fail(message: string): never {
  throw new Error(message);
}
