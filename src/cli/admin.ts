import { loadConfig } from '../config.ts';
import { type Database, openDatabase, runMigrations } from '../db/index.ts';
import { bootstrap, createUserWithToken } from '../domain/users/provisioning.ts';

/**
 * The commands that provision and migrate (`bootstrap`, `users create`,
 * `migrate`): the database and the provisioning functions, without the HTTP
 * server or the rest of the domain (./seed.ts loads those for the demo data).
 */

export { describeError } from './errors.ts';

/** Opens the configured database with its migrations applied, runs `work`, and closes it. */
export async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
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

export async function migrateCommand() {
  const { applied } = await runMigrations(loadConfig().databaseUrl, { log: (message) => console.log(message) });
  if (applied.length === 0) console.log('the database is up to date');
}
