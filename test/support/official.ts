import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';

/**
 * The official GitBook client (@gitbook/api) against the test server: the REST
 * tests check that it talks to us as it talks to GitBook. It uses fetch, so the
 * server listens on a loopback port.
 */

/** `official(user)`: a client calling the test server as that user. */
export type OfficialClient = (user: TestUser) => GitBookAPI;

/** Starts the server listening (once per file, whoever asks first) and returns clients for it. */
export async function officialClient(t: TestApp): Promise<OfficialClient> {
  const endpoint = await t.listen();
  return (user) => new GitBookAPI({ endpoint, authToken: user.token });
}

/** A call of the official client rejected with a GitBookAPIError of this status. */
export async function expectOfficialError(call: Promise<unknown>, status: number) {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GitBookAPIError);
  expect((error as GitBookAPIError).code).toBe(status);
}
