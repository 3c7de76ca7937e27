import { DEFAULT_DATABASE_URL } from '../config.ts';

/**
 * The commands `serve` suggests, to paste in another terminal: they must reach
 * the database this server uses, which that terminal may not have in its
 * environment.
 */

/** `url` with its password (in the address or as a `password` parameter) replaced by `<password>`: logs are no place for it. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z\d+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:<password>@').replace(/([?&]password=)[^&#]*/i, '$1<password>');
}

/** `value` as one shell word: as it is when nothing in it is special to a shell, else in single quotes. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * `command` (how the hints name docs-gateway: `npx docs-gateway`, or the
 * container's `docker run --rm … docs-gateway`) with `DATABASE_URL` set to the
 * server's database, unless that is the default one: as an environment
 * variable before it, or given to the container (`-e`) when it runs one.
 */
export function commandOnDatabase(command: string, databaseUrl: string): string {
  if (databaseUrl === DEFAULT_DATABASE_URL) return command;
  const variable = `DATABASE_URL=${shellWord(withoutPassword(databaseUrl))}`;
  const container = /^((?:docker|podman) run)\b/.exec(command);
  return container ? `${container[1]} -e ${variable}${command.slice(container[1]!.length)}` : `${variable} ${command}`;
}
