// The triggers behind the caches (src/http/response-cache.ts, src/domain/users/viewer-cache.ts):
// every write to a table bumps the data generation of each scope the written rows
// belong to — the organization, and for users also the user itself — so that a
// cached answer is dropped exactly when data it could contain changes, whichever
// instance, tool or hand-typed SQL wrote it. On PostgreSQL each committed bump is
// announced on the channel `docs_gateway_generations` (src/db/generation-feed.ts). prisma/new-migration.ts adds them to every
// table a migration creates; a new table must say here how its rows find their
// organization (and, in FINE_SCOPES, its space when it is a space's content).

export type Provider = 'sqlite' | 'postgresql';

/** How the rows of a table find their scopes. */
export type ScopeOf =
  /** The row is an organization. */
  | { kind: 'self' }
  /** A column holds the organization id (or, for rows of a user, the user id). */
  | { kind: 'column'; column: string }
  /** Several columns each hold a scope: a membership belongs to its organization and to its user. */
  | { kind: 'columns'; columns: string[] }
  /** The organization (or `column`) of a parent row, whose id is in `via`. */
  | { kind: 'parent'; table: string; via: string; column?: string }
  /** A user: the user itself, and the organizations it is a member of. */
  | { kind: 'user' }
  /** The organizations a user (the row) is a member of. */
  | { kind: 'memberships' };

/** Every table and how its writes are scoped; null: its writes change no cached answer. */
export const GENERATION_SCOPES: Record<string, ScopeOf | null> = {
  _docs_gateway_migrations: null,
  data_generations: null,
  // A token's user: cached viewers of the user are read again when a token goes.
  api_tokens: { kind: 'column', column: 'userId' },
  organizations: { kind: 'self' },
  organization_email_domains: { kind: 'column', column: 'organizationId' },
  users: { kind: 'user' },
  // The user too: a cached viewer's memberships change with them.
  members: { kind: 'columns', columns: ['organizationId', 'userId'] },
  collections: { kind: 'column', column: 'organizationId' },
  spaces: { kind: 'column', column: 'organizationId' },
  custom_fields: { kind: 'column', column: 'organizationId' },
  teams: { kind: 'column', column: 'organizationId' },
  team_members: { kind: 'column', column: 'organizationId' },
  // A grant changes what its organization's members and guests see.
  content_grants: { kind: 'column', column: 'organizationId' },
  comments: { kind: 'column', column: 'organizationId' },
  comment_replies: { kind: 'column', column: 'organizationId' },
  comment_reactions: { kind: 'column', column: 'organizationId' },
  invites: { kind: 'column', column: 'organizationId' },
  saml_providers: { kind: 'column', column: 'organizationId' },
  // SAML sign-in's bookkeeping (pending requests, used assertions, subjects' users) is shown in no answer;
  // a sign-in's member and token are written to members and api_tokens, which bump their scopes.
  saml_requests: null,
  saml_used_assertions: null,
  saml_identities: null,
  translation_settings: { kind: 'column', column: 'organizationId' },
  openapi_specs: { kind: 'column', column: 'organizationId' },
  openapi_spec_versions: { kind: 'parent', table: 'openapi_specs', via: 'specId' },
  space_custom_field_values: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  sites: { kind: 'column', column: 'organizationId' },
  site_section_groups: { kind: 'parent', table: 'sites', via: 'siteId' },
  site_sections: { kind: 'parent', table: 'sites', via: 'siteId' },
  site_spaces: { kind: 'parent', table: 'sites', via: 'siteId' },
  share_links: { kind: 'parent', table: 'sites', via: 'siteId' },
  site_redirects: { kind: 'parent', table: 'sites', via: 'siteId' },
  revisions: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  page_versions: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  documents: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  file_versions: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  change_requests: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  space_git_syncs: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  space_git_bindings: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  change_request_reviews: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  change_request_reviewers: { kind: 'parent', table: 'spaces', via: 'spaceId' },
  // Written with the write they record (its transaction bumps the organization already); the
  // retention job's deletes must drop cached audit listings.
  audit_events: { kind: 'column', column: 'organizationId' },
  // Written only with a revision (inserted in the same transaction, which bumps
  // the space's organization) and never changed: a trigger per entry row would
  // cost a write per page of every new revision for nothing.
  revision_pages: null,
  revision_files: null,
  // Written only with a change request's new revision (same transaction).
  change_request_contributors: null,
  // Written with their document, never changed.
  document_links: null,
  // Derived from a body, equal for every reader: its writes change no answer.
  document_structures: null,
  // Derived from two bodies that never change, when first read: what any answer shows is the same before and after.
  document_diffs: null,
  webhook_subscriptions: { kind: 'column', column: 'organizationId' },
  webhook_deliveries: { kind: 'column', column: 'organizationId' },
  // Written only with their delivery's update (same transaction).
  webhook_attempts: null,
  // The search index (hand-written migration; SQLite's FTS5 keeps its own
  // shadow tables): replaced with the space's revision, in the same transaction.
  search_sections: null,
  search_sections_data: null,
  search_sections_idx: null,
  search_sections_content: null,
  search_sections_docsize: null,
  search_sections_config: null,
};

export function scopeOf(table: string): ScopeOf | null {
  if (!(table in GENERATION_SCOPES)) {
    throw new Error(`prisma/generation-triggers.ts: say how rows of the new table "${table}" find their organization (GENERATION_SCOPES)`);
  }
  return GENERATION_SCOPES[table]!;
}

/**
 * Finer scopes, bumped next to the coarse ones above (src/http/response-cache.ts): `s:<space id>` for a
 * space's row and everything inside it (its content, change requests, comments, reviews, Git state,
 * custom field values), and `o:<organization id>` for an organization's own rows (members, teams,
 * grants, collections, sites, custom fields...) and the users who are its members. A cached answer that
 * read one space and its organization's rows depends on these two (and its user) only, so that a write
 * in another space of the organization leaves it cached. Every table not listed here bumps `o:` of the
 * organizations of its coarse scope (the safe default); null: no finer scope (no such answer reads it).
 */
export interface FineScope {
  prefix: 's:' | 'o:';
  of: ScopeOf;
}

export const FINE_SCOPES: Record<string, FineScope | null> = {
  // A token's user only: the coarse user scope covers it.
  api_tokens: null,
  users: { prefix: 'o:', of: { kind: 'memberships' } },
  members: { prefix: 'o:', of: { kind: 'column', column: 'organizationId' } },
  spaces: { prefix: 's:', of: { kind: 'self' } },
  space_custom_field_values: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  comments: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  comment_replies: { prefix: 's:', of: { kind: 'parent', table: 'comments', via: 'commentId', column: 'spaceId' } },
  comment_reactions: { prefix: 's:', of: { kind: 'parent', table: 'comments', via: 'commentId', column: 'spaceId' } },
  revisions: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  page_versions: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  documents: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  file_versions: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  change_requests: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  space_git_syncs: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  space_git_bindings: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  change_request_reviews: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  change_request_reviewers: { prefix: 's:', of: { kind: 'column', column: 'spaceId' } },
  // Read by the audit log and webhook routes only, which depend on the coarse scope: a write's own
  // audit event or delivery must not drop its organization's other answers.
  audit_events: null,
  webhook_deliveries: null,
};

export function fineScopeOf(table: string): FineScope | null {
  const coarse = scopeOf(table);
  if (!coarse) return null;
  if (table in FINE_SCOPES) return FINE_SCOPES[table]!;
  return { prefix: 'o:', of: coarse };
}

/** SQLite: the scopes of the row `row` (NEW or OLD), as a SELECT of "scope". */
function sqliteScopes(scope: ScopeOf, row: 'NEW' | 'OLD'): string {
  switch (scope.kind) {
    case 'self':
      return `SELECT ${row}."id" AS "scope"`;
    case 'column':
      return `SELECT ${row}."${scope.column}" AS "scope"`;
    case 'columns':
      return scope.columns.map((column) => `SELECT ${row}."${column}" AS "scope"`).join(' UNION ');
    case 'parent':
      return `SELECT p."${scope.column ?? 'organizationId'}" AS "scope" FROM "${scope.table}" p WHERE p."id" = ${row}."${scope.via}"`;
    case 'user':
      return `SELECT ${row}."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = ${row}."id"`;
    case 'memberships':
      return `SELECT m."organizationId" AS "scope" FROM "members" m WHERE m."userId" = ${row}."id"`;
  }
}

/** PostgreSQL: the scopes of the rows of a transition table, as a SELECT of scope. */
function postgresScopes(scope: ScopeOf, rows: 'new_rows' | 'old_rows'): string {
  switch (scope.kind) {
    case 'self':
      return `SELECT r."id" FROM ${rows} r`;
    case 'column':
      return `SELECT r."${scope.column}" FROM ${rows} r`;
    case 'columns':
      return scope.columns.map((column) => `SELECT r."${column}" FROM ${rows} r`).join(' UNION ');
    case 'parent':
      return `SELECT p."${scope.column ?? 'organizationId'}" FROM ${rows} r JOIN "${scope.table}" p ON p."id" = r."${scope.via}"`;
    case 'user':
      return `SELECT r."id" FROM ${rows} r UNION SELECT m."organizationId" FROM ${rows} r JOIN "members" m ON m."userId" = r."id"`;
    case 'memberships':
      return `SELECT m."organizationId" FROM ${rows} r JOIN "members" m ON m."userId" = r."id"`;
  }
}

/** The channel on which PostgreSQL announces committed bumps: `scope:version,…`, or `*` when too many for one notification. */
export const GENERATIONS_CHANNEL = 'docs_gateway_generations';

/**
 * The bump every trigger calls (PostgreSQL), as migration 20261125170000_viewer_cache
 * defines it. NOTIFY is transactional: listeners hear a bump only once it is
 * committed, and never one that is rolled back.
 */
export const POSTGRES_BUMP_FUNCTION = `CREATE OR REPLACE FUNCTION bump_data_generations(scopes TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  announced TEXT;
BEGIN
  -- In scope order, so that transactions bumping several scopes never wait on each other in a cycle.
  WITH bumped AS (
    INSERT INTO "data_generations" ("scope", "version")
    SELECT DISTINCT s, 1 FROM unnest(scopes) s WHERE s IS NOT NULL ORDER BY s
    ON CONFLICT ("scope") DO UPDATE SET "version" = "data_generations"."version" + 1
    RETURNING "scope", "version"
  )
  SELECT string_agg("scope" || ':' || "version", ',') INTO announced FROM bumped;
  IF announced IS NOT NULL THEN
    -- A notification holds at most 8,000 bytes: '*' tells listeners to forget every generation.
    PERFORM pg_notify('docs_gateway_generations', CASE WHEN octet_length(announced) > 7900 THEN '*' ELSE announced END);
  END IF;
END $$;`;

/** The triggers of these tables (tables whose writes change no answer are left out). */
export function generationTriggers(provider: Provider, tables: string[]): string {
  const statements: string[] = [];
  for (const table of tables) {
    const scope = scopeOf(table);
    if (!scope) continue;
    const fine = fineScopeOf(table);
    if (provider === 'sqlite') {
      for (const [event, rows] of [
        ['INSERT', ['NEW']],
        ['UPDATE', ['NEW', 'OLD']],
        ['DELETE', ['OLD']],
      ] as const) {
        const scopes = rows
          .flatMap((row) => [sqliteScopes(scope, row), ...(fine ? [`SELECT '${fine.prefix}' || "scope" AS "scope" FROM (${sqliteScopes(fine.of, row)})`] : [])])
          .join(' UNION ');
        statements.push(
          `CREATE TRIGGER "${table}_bump_generations_${event.toLowerCase()}" AFTER ${event} ON "${table}" BEGIN\n` +
            `  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (${scopes}) WHERE "scope" IS NOT NULL\n` +
            `  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;\nEND;`,
        );
      }
    } else {
      const fn = `"${table}_bump_generations"`;
      const scopesOf = (rows: 'new_rows' | 'old_rows') =>
        postgresScopes(scope, rows) + (fine ? ` UNION SELECT '${fine.prefix}' || f.s FROM (${postgresScopes(fine.of, rows)}) AS f(s)` : '');
      statements.push(
        `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n` +
          `  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(${scopesOf('new_rows')}));\n` +
          `  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(${scopesOf('new_rows')} UNION ${scopesOf('old_rows')}));\n` +
          `  ELSE PERFORM bump_data_generations(ARRAY(${scopesOf('old_rows')}));\n  END IF;\n  RETURN NULL;\nEND $$;`,
        `CREATE TRIGGER "${table}_bump_generations_insert" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS new_rows\n    FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`,
        `CREATE TRIGGER "${table}_bump_generations_update" AFTER UPDATE ON "${table}" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows\n    FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`,
        `CREATE TRIGGER "${table}_bump_generations_delete" AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS old_rows\n    FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`,
      );
    }
  }
  return statements.length ? `\n-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)\n${statements.join('\n')}\n` : '';
}
