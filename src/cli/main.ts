import { Command, InvalidArgumentError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { restartWithServerFlags } from './node-flags.ts';

/**
 * The `docs-gateway` command line. Other tools depend on its exact flags and JSON output.
 *
 * This file only reads the command line: each command's code (./serve.ts,
 * ./admin.ts, ./seed.ts, ./maintenance.ts) is loaded when it runs, so `--version` and `--help`
 * answer at once, and `bootstrap` loads neither the HTTP server nor the rest of
 * the domain. The bundle keeps them in files of their own (bin/build.js).
 */

interface CommandModule {
  /** The one line a failure of this module's command is reported as. */
  describeError(error: unknown): string;
}

let describeError: CommandModule['describeError'] = (error) =>
  error instanceof Error ? (error.message.trim().split('\n').at(-1) ?? error.message) : String(error);

/** A command's module, which then also words its failures (it knows its own error classes). */
async function load<T extends CommandModule>(module: Promise<T>): Promise<T> {
  const loaded = await module;
  describeError = loaded.describeError;
  return loaded;
}

const program = new Command('docs-gateway')
  .description('API server for hosted documentation (REST /v1 and GraphQL)')
  .version(packageJson.version, '-v, --version', 'print the version');

const port = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError('must be a port number');
  return parsed;
};

program
  .command('serve')
  .description('Serve REST /v1 and GraphQL /graphql (applies pending migrations first)')
  .option('--port <port>', 'port to listen on (default: $PORT or 4000)', port)
  .option('--demo', 'load the demo data into an empty database and print a token for it')
  .action(async (options: { port?: number; demo?: boolean }) => {
    restartWithServerFlags();
    await (await load(import('./serve.ts'))).serve(options);
  });

program
  .command('bootstrap')
  .description('Ensure an organization, an admin user with this email, and print a new token for it')
  .requiredOption('--org <title>', 'organization title')
  .requiredOption('--email <email>', 'email of the admin user')
  .option('--json', 'print one JSON line')
  .action(async (options: { org: string; email: string; json?: boolean }) => (await load(import('./admin.ts'))).bootstrapCommand(options));

const users = program.command('users').description('Manage users');
users
  .command('create')
  .description('Create a user (or reuse one with this email) with a role in an organization, and print a token')
  .requiredOption('--email <email>', 'email of the user')
  .requiredOption('--org <organizationId>', 'organization id')
  .requiredOption('--role <role>', 'admin, create, review, edit, comment, read or guest')
  .option('--json', 'print one JSON line')
  .action(async (options: { email: string; org: string; role: string; json?: boolean }) => (await load(import('./admin.ts'))).createUserCommand(options));

program
  .command('seed')
  .description('Load data sets')
  .option('--demo', 'the demo organizations, members, collections, spaces and custom fields')
  .action(async (options: { demo?: boolean }) => {
    if (!options.demo) throw new InvalidArgumentError('choose a data set: --demo');
    await (await load(import('./seed.ts'))).seedDemoCommand();
  });

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => (await load(import('./admin.ts'))).migrateCommand());

program
  .command('backup')
  .description('Copy the SQLite database (also while a server uses it) and its files into a new folder')
  .argument('<dir>', 'an empty or new folder')
  .option('--json', 'print what was copied as one JSON line')
  .action(async (dir: string, options: { json?: boolean }) => (await load(import('./maintenance.ts'))).backupCommand(dir, options));

program
  .command('restore')
  .description('Put a backup back into the SQLite database and FILES_DIR, the server stopped')
  .argument('<dir>', 'a folder written by backup')
  .option('--force', 'replace a database that exists')
  .action(async (dir: string, options: { force?: boolean }) => (await load(import('./maintenance.ts'))).restoreCommand(dir, options));

program
  .command('files')
  .description('Manage stored files')
  .command('copy')
  .description('Copy the files of FILES_DIR into the bucket of FILES_STORAGE=s3 (skips those there already)')
  .action(async () => (await load(import('./maintenance.ts'))).copyFilesCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`docs-gateway: ${describeError(error)}`);
  process.exit(1);
}
