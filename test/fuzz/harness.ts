import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { type Database, openDatabase } from '../../src/db/index.ts';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/lib/webhook-settings.ts';
import { DEFAULT_OPENAPI_FETCH } from '../../src/domain/openapi/processing.ts';
import { DEFAULT_GIT_SETTINGS } from '../../src/domain/git/jobs.ts';
import { type FileStorage, localDiskStorage } from '../../src/storage/files.ts';

/**
 * The server under fuzzing: the real app on a real database, as
 * test/support/app.ts builds it, but without vitest (test/fuzz/long-run.ts runs
 * it as a plain script), with website imports kept off private addresses (a
 * fuzzed URL must not reach the database port) and a file storage that counts
 * its writes (a refused request must not store bytes either).
 */
export interface FuzzTarget {
  app: FastifyInstance;
  database: Database;
  /** Sends a request as given: the payload is sent as is (a string), so that malformed JSON can be sent. */
  send(request: {
    method: string;
    url: string;
    token?: string | undefined;
    payload?: string | undefined;
    contentType?: string | undefined;
  }): Promise<LightMyRequestResponse>;
  /** A JSON request (for fixtures). */
  json(method: string, url: string, token: string, body?: unknown): Promise<{ status: number; body: any }>;
  /**
   * A cheap fingerprint of everything written in these scopes (organization
   * and user ids): equal before and after a request that wrote nothing there.
   * Scoped, so that other test files writing to the same database at the same
   * time do not change it.
   */
  fingerprint(scopes: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function startFuzzTarget(databaseUrl: string): Promise<FuzzTarget> {
  const database = openDatabase(databaseUrl);
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-fuzz-files-'));
  const disk = localDiskStorage(filesDir);
  let storedFiles = 0;
  const storage: FileStorage = {
    ...disk,
    async put(sha256, bytes) {
      storedFiles += 1;
      await disk.put(sha256, bytes);
    },
  };
  const app = await buildApp({
    database,
    // As test/support/app.ts (TEST_URLS), which imports vitest: this file must not.
    urls: { api: 'http://docs-gateway.test', app: 'http://app.docs-gateway.test' },
    logLevel: 'silent',
    responseCacheBytes: 16 * 1024 * 1024,
    pageTreeCacheBytes: 16 * 1024 * 1024,
    rateLimits: { perMinute: 0, failedAuthenticationsPerMinute: 0 },
    fetchPrivateAddresses: false,
    fileStorage: storage,
    // One attempt per delivery, soon over (the fuzzer's webhooks point at addresses nobody answers):
    // deliveries are written in the background, so the fingerprint waits until they are done.
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, retryScheduleMs: [], timeoutMs: 1000 },
    // The same for what the fuzzer's OpenAPI specs and Git syncs fetch: an address that never answers
    // (a public one: this machine reaches none) would hold each fingerprint until its job gave up.
    openApiFetch: { ...DEFAULT_OPENAPI_FETCH, timeoutMs: 1000 },
    gitSync: { ...DEFAULT_GIT_SETTINGS, limits: { ...DEFAULT_GIT_SETTINGS.limits, timeoutMs: 2000 } },
  });
  const send: FuzzTarget['send'] = ({ method, url, token, payload, contentType }) =>
    app.inject({
      method: method as never,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload !== undefined || contentType ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
  return {
    app,
    database,
    send,
    async json(method, url, token, body) {
      const response = await send({ method, url, token, payload: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.statusCode, body: response.body ? safeJson(response.body) : undefined };
    },
    /**
     * Every write to a table bumps the data generation of the organizations
     * (and users) its rows belong to (database triggers,
     * prisma/generation-triggers.ts), so the sum and number of the scopes'
     * generations change with any committed write there; the tables without
     * triggers (API tokens, and rows written only together with a row that has
     * one) are covered by the users' token count and the storage's write count.
     * One statement on either database.
     */
    async fingerprint(scopes) {
      const organizations = scopes.filter((scope) => scope.startsWith('org_'));
      // Jobs an accepted request queued (a Git import, a binding's sync) write in the background: done before counting.
      await app.jobs.settled?.(15_000);
      await openApiProcessingSettled(database, organizations);
      await webhookDeliveriesSettled(database, organizations);
      await gitSyncsSettled(database, organizations);
      const placeholders = (offset: number, count: number) => Array.from({ length: count }, (_, index) => `$${offset + index + 1}`).join(', ') || 'NULL';
      const users = scopes.filter((scope) => scope.startsWith('usr_'));
      const [row] = await database.readRows<{ v: unknown; n: unknown; t: unknown }>(
        // Each placeholder once (the SQLite reader binds them in order).
        `SELECT (SELECT COALESCE(SUM("version"), 0) FROM "data_generations" WHERE "scope" IN (${placeholders(0, scopes.length)})) AS "v",
                (SELECT COUNT(*) FROM "data_generations" WHERE "scope" IN (${placeholders(scopes.length, scopes.length)})) AS "n",
                (SELECT COUNT(*) FROM "api_tokens" WHERE "userId" IN (${placeholders(2 * scopes.length, users.length)})) AS "t"`,
        [...scopes, ...scopes, ...users],
      );
      return `${String(row!.v)}/${String(row!.n)}/${String(row!.t)}/${storedFiles}`;
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Waits (bounded) until no Git import, export or binding sync of these organizations' spaces is running: they write as they end. */
async function gitSyncsSettled(database: Database, organizationIds: string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  const placeholders = (offset: number) => organizationIds.map((_, index) => `$${offset + index + 1}`).join(', ');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const [row] = await database.readRows<{ n: unknown }>(
      `SELECT (SELECT COUNT(*) FROM "space_git_syncs" g JOIN "spaces" s ON s."id" = g."spaceId" WHERE s."organizationId" IN (${placeholders(0)}) AND g."state" = 'running')
            + (SELECT COUNT(*) FROM "space_git_bindings" b JOIN "spaces" s ON s."id" = b."spaceId" WHERE s."organizationId" IN (${placeholders(organizationIds.length)}) AND b."state" = 'running') AS "n"`,
      [...organizationIds, ...organizationIds],
    );
    if (Number(row!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits (bounded) until no OpenAPI spec of these organizations is waiting for
 * or under processing: the job a successful create or update queued writes in
 * the background, and must not be taken for a write of a later refused request.
 */
async function openApiProcessingSettled(database: Database, organizationIds: string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  const placeholders = organizationIds.map((_, index) => `$${index + 1}`).join(', ');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const [row] = await database.readRows<{ n: unknown }>(
      `SELECT COUNT(*) AS "n" FROM "openapi_specs" WHERE "organizationId" IN (${placeholders}) AND "processingState" <> 'complete'`,
      organizationIds,
    );
    if (Number(row!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits (at most 15 s) until the webhook deliveries of these organizations are no longer pending: their attempts write in the background. */
async function webhookDeliveriesSettled(database: Database, organizationIds: string[]): Promise<void> {
  if (organizationIds.length === 0) return;
  const placeholders = organizationIds.map((_, index) => `$${index + 1}`).join(', ');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const [row] = await database.readRows<{ n: unknown }>(
      `SELECT COUNT(*) AS "n" FROM "webhook_deliveries" WHERE "organizationId" IN (${placeholders}) AND "status" = 'pending'`,
      organizationIds,
    );
    if (Number(row!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
