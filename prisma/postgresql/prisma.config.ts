// Prisma CLI configuration for the PostgreSQL schema. `engine: "js"` keeps the CLI
// on its WebAssembly engines: the native ones would be downloaded, and cannot be here.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(import.meta.dirname, '.'),
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' });
  },
});
