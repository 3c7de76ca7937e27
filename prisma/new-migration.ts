// Writes the next migration for both providers: `npm run migration:new -- <name>`.
//
// Prisma's `migrate diff` compares the models as they were at the last migration
// (prisma/migrations/models.snapshot.prisma) with prisma/models.prisma and prints
// the SQL for each provider; no database is needed. Review the files, then commit
// them with the updated snapshot. src/db/migrate.ts applies them at start.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generationTriggers } from './generation-triggers.ts';

const root = path.resolve(import.meta.dirname, '..');
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <name in snake_case>');
  process.exit(1);
}
const snapshot = path.join(root, 'prisma/migrations/models.snapshot.prisma');
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);

/**
 * Columns that listings order by and page through with keyset tokens, and ordering
 * keys: they must compare byte by byte as on SQLite, not by PostgreSQL's locale.
 */
const BYTE_ORDERED: Record<string, string[]> = {
  collections: ['position'],
  spaces: ['position'],
  custom_fields: ['name'],
  site_section_groups: ['position'],
  site_sections: ['position', 'topPosition'],
  site_spaces: ['position'],
  revision_pages: ['position'],
  site_redirects: ['source'],
};

function collateBytewise(sql: string): string {
  let result = sql;
  for (const [table, columns] of Object.entries(BYTE_ORDERED)) {
    for (const column of columns) {
      const inCreate = new RegExp(`(CREATE TABLE "${table}" \\([\\s\\S]*?"${column}" TEXT)(?! COLLATE)`);
      const inAlter = new RegExp(`(ALTER TABLE "${table}" ADD COLUMN\\s+"${column}" TEXT)(?! COLLATE)`, 'g');
      result = result.replace(inCreate, '$1 COLLATE "C"').replace(inAlter, '$1 COLLATE "C"');
    }
  }
  return result;
}

/** Tables a migration (re)creates, under their final names. */
function createdTables(sql: string): string[] {
  const created = [...sql.matchAll(/CREATE TABLE "([^"]+)"/g)].map((match) => match[1]!);
  return created.map((table) => table.replace(/^new_/, ''));
}

/**
 * A folder the Prisma 6.19 CLI reads as a schema: Prisma 7's schema files have no
 * `url` in their datasource, which 6.19 requires (it is not used for the diff).
 */
function legacySchemaDir(provider: 'sqlite' | 'postgresql', models: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-schema-'));
  const url = provider === 'sqlite' ? 'file::memory:' : 'postgresql://localhost/unused';
  fs.writeFileSync(path.join(dir, 'schema.prisma'), `datasource db {\n  provider = "${provider}"\n  url      = "${url}"\n}\n`);
  fs.copyFileSync(models, path.join(dir, 'models.prisma'));
  return dir;
}

// The 6.19 CLI, fetched by npx on first use and cached by npm after (not a development
// dependency: 93 MB every install would unpack for this script alone): its WebAssembly
// engine diffs offline. Its install scripts would download native engines it does not use here.
const PRISMA6 = 'prisma@6.19.3';
const npx = { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_ignore_scripts: 'true' } } as const;
let written = 0;
for (const provider of ['sqlite', 'postgresql'] as const) {
  const args = ['--yes', PRISMA6, 'migrate', 'diff', '--config', path.join(root, 'prisma', provider, 'prisma6.config.ts')];
  const temporary: string[] = [];
  if (fs.existsSync(snapshot)) {
    temporary.push(legacySchemaDir(provider, snapshot));
    args.push('--from-schema-datamodel', temporary[0]!);
  } else {
    args.push('--from-empty');
  }
  temporary.push(legacySchemaDir(provider, path.join(root, 'prisma/models.prisma')));
  args.push('--to-schema-datamodel', temporary.at(-1)!, '--script');
  let sql: string;
  try {
    sql = execFileSync('npx', args, npx);
  } finally {
    for (const dir of temporary) fs.rmSync(dir, { recursive: true });
  }
  if (!/^\s*(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|PRAGMA)/im.test(sql)) continue;
  if (provider === 'postgresql') sql = collateBytewise(sql);
  // Every table a migration creates gets the triggers that keep the response cache
  // true; SQLite rebuilds a table to alter it, dropping its triggers, so rebuilt
  // tables get them again.
  sql += generationTriggers(provider, createdTables(sql));
  const dir = path.join(root, 'prisma/migrations', provider, `${stamp}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'migration.sql'), sql);
  console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
  written++;
}
if (written === 0) {
  console.log('prisma/models.prisma has not changed since the last migration');
} else {
  fs.copyFileSync(path.join(root, 'prisma/models.prisma'), snapshot);
}
