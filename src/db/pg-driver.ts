import { createRequire } from 'node:module';
import type * as PrismaAdapterPg from '@prisma/adapter-pg';
import type Pg from 'pg';

// node-postgres and Prisma's adapter for it, loaded on first use: a server on
// SQLite never reads their files (about 40) at start.
const load = createRequire(import.meta.url);

export const pgDriver = (): typeof Pg => load('pg') as typeof Pg;

export const prismaPgAdapter = (): typeof PrismaAdapterPg.PrismaPg => (load('@prisma/adapter-pg') as typeof PrismaAdapterPg).PrismaPg;
