// Prisma CLI configuration for the postgresql schema: `prisma generate` only.
import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Prisma 7's CLI insists on a native schema engine before any command, and
// would download one — even for `generate`, which never runs it. Any existing
// file satisfies the check: the Node.js binary running this is one everywhere.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
// No update check or telemetry request.
process.env.CHECKPOINT_DISABLE ??= '1';

export default defineConfig({
  schema: path.join(import.meta.dirname, '.'),
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
