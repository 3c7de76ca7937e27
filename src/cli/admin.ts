import { seedDemo } from '../../prisma/seed/demo.ts';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase, runMigrations } from '../db/index.ts';
import { bootstrap, createUserWithToken } from '../domain/users/provisioning.ts';
import { localDiskStorage } from '../storage/files.ts';

/** The commands that provision and migrate (`bootstrap`, `users create`, `seed`, `migrate`): no HTTP server among them. */

export { describeError } from './errors.ts';

/** Opens the configured database with its migrations applied, runs `work`, and closes it. */
async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  await runMigrations(config.databaseUrl);
  const database = openDatabase(config.databaseUrl, config.database);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

export async function bootstrapCommand(options: { org: string; email: string; json?: boolean }) {
  const result = await withDatabase((database) => bootstrap(database, options));
  console.log(options.json ? JSON.stringify(result) : `organization ${result.organizationId}\nuser ${result.userId}\ntoken ${result.token}`);
}

export async function createUserCommand(options: { email: string; org: string; role: string; json?: boolean }) {
  const result = await withDatabase((database) => createUserWithToken(database, options));
  console.log(options.json ? JSON.stringify(result) : `user ${result.userId}\ntoken ${result.token}`);
}

export async function seedDemoCommand() {
  const config = loadConfig();
  const loaded = await withDatabase((database) => seedDemo(database, config.urls, localDiskStorage(config.filesDir)));
  console.log(loaded ? 'loaded the demo data' : 'the demo data is already loaded');
}

export async function migrateCommand() {
  const { applied } = await runMigrations(loadConfig().databaseUrl, { log: (message) => console.log(message) });
  if (applied.length === 0) console.log('the database is up to date');
}
