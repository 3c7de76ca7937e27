import { describe, expect, it } from 'vitest';
import { commandOnDatabase, shellWord, withoutPassword } from '../../src/cli/hints.ts';
import { appliedMigrations } from '../../src/cli/serve.ts';
import { DEFAULT_DATABASE_URL } from '../../src/config.ts';

/** What `serve` prints for a person to act on (test/cli/serve*.test.ts run the real command). */

describe('the command serve suggests to run in another terminal', () => {
  it('is the command alone on the default database, which that terminal reaches too', () => {
    expect(commandOnDatabase('npx docs-gateway', DEFAULT_DATABASE_URL)).toBe('npx docs-gateway');
  });

  it('names any other database, its password hidden, ready to paste into a shell', () => {
    expect(commandOnDatabase('npx docs-gateway', 'postgresql://postgres@127.0.0.1:5432/docs')).toBe(
      'DATABASE_URL=postgresql://postgres@127.0.0.1:5432/docs npx docs-gateway',
    );
    expect(commandOnDatabase('npx docs-gateway', 'postgresql://docs:s3cr%40t@db.internal:5432/docs?sslmode=require')).toBe(
      "DATABASE_URL='postgresql://docs:<password>@db.internal:5432/docs?sslmode=require' npx docs-gateway",
    );
    expect(commandOnDatabase('npx docs-gateway', 'file:/srv/docs/docs-gateway.db')).toBe('DATABASE_URL=file:/srv/docs/docs-gateway.db npx docs-gateway');
  });

  it('gives a container the database as an environment variable of its own', () => {
    expect(commandOnDatabase('docker run --rm … docs-gateway', 'postgresql://docs:secret@db:5432/docs')).toBe(
      "docker run -e DATABASE_URL='postgresql://docs:<password>@db:5432/docs' --rm … docs-gateway",
    );
    expect(commandOnDatabase('podman run --rm -v docs-data:/data docs-gateway', 'file:/data/docs-gateway.db')).toBe(
      'podman run -e DATABASE_URL=file:/data/docs-gateway.db --rm -v docs-data:/data docs-gateway',
    );
  });

  it('hides a password given as a parameter too, and quotes what a shell would read otherwise', () => {
    expect(withoutPassword('postgresql://db:5432/docs?user=docs&password=secret&sslmode=require')).toBe(
      'postgresql://db:5432/docs?user=docs&password=<password>&sslmode=require',
    );
    expect(withoutPassword('postgresql://docs@db/docs')).toBe('postgresql://docs@db/docs');
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('file:./data/x.db')).toBe('file:./data/x.db');
  });
});

describe('the start-up line of the migrations', () => {
  it('says how many, from the first to the last, in one line', () => {
    expect(appliedMigrations(['20261122060638_init'])).toBe('applied migration 20261122060638_init');
    expect(appliedMigrations(['20261122060638_init', '20261122064021_sites', '20261125170000_viewer_cache'])).toBe(
      'applied 3 migrations (20261122060638_init … 20261125170000_viewer_cache)',
    );
  });
});
