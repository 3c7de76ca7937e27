// Configuration of the Prisma 6.19 CLI (fetched by npx when prisma/new-migration.ts
// runs), kept only for its `migrate diff`: Prisma 7's `migrate diff` needs the
// native schema engine, which cannot be downloaded here, while 6.19 runs a
// WebAssembly one through a driver adapter. A plain object: the 6.19 CLI passes
// it through its own defineConfig (this project has no copy of it to import).
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';

// Without an existing file here the 6.19 CLI downloads the native query-engine
// library first (it never loads it for `migrate diff`).
process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= process.execPath;
process.env.CHECKPOINT_DISABLE ??= '1';

export default {
  experimental: { adapter: true },
  engine: 'js',
  async adapter() {
    return new PrismaBetterSqlite3({ url: ':memory:' });
  },
};
