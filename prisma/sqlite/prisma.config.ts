// Prisma CLI configuration for the SQLite schema. `engine: "js"` keeps the CLI on
// its WebAssembly engines: the native ones would be downloaded, and cannot be here.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(import.meta.dirname, '.'),
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? 'file:./data/docs-gateway.db' });
  },
});
