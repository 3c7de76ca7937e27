// Demo data for `docs-gateway seed --demo` and the first `npm start`: three
// organizations with members, teams, a SAML provider, a link invite and an OpenAPI spec, nested
// collections, spaces, custom fields and published sites with sections, a section group and
// adaptive content (prisma/seed/demo-services.ts writes it through the domain services).
// Loaded here in bulk, in one transaction: the rows those services write, captured in
// demo-snapshot.json (`npm run -s demo:snapshot` after a change to them; test/db/demo-seed.test.ts
// fails until then), written back with fresh ids, timestamps and secrets.
import { createHash } from 'node:crypto';
import type { PublicUrls } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import type { Database } from '../../src/db/index.ts';
import { fetchSettingsOf, processOpenAPISpec, processOpenAPISpecJob } from '../../src/domain/openapi/processing.ts';
import { putSpec } from '../../src/domain/openapi/service.ts';
import { type JobQueue, jobSender } from '../../src/jobs/queue.ts';
import { systemClock } from '../../src/lib/clock.ts';
import type { FileStorage } from '../../src/storage/files.ts';
import { DEMO_ADMIN_EMAIL, DEMO_FILES, DEMO_SPEC_SLUG, demoSpecText, seedDemoThroughServices } from './demo-services.ts';
import snapshot from './demo-snapshot.json' with { type: 'json' };
import { type DemoSnapshot, replayDemo } from './snapshot.ts';

export { DEMO_ADMIN_EMAIL, DEMO_SPEC_SLUG };

/**
 * Loads the demo data into an empty database; `storage` keeps its files.
 * `deferSpec`: the demo OpenAPI spec is created but not processed: `serve --demo` processes it once it
 * listens (sourceDemoSpecFromServer), so the first start answers without waiting for it.
 * Returns false when the demo is already there.
 */
export async function seedDemo(database: Database, urls: PublicUrls, storage?: FileStorage, options: { deferSpec?: boolean } = {}): Promise<boolean> {
  const { db } = database;
  if (await db.organization.findUnique({ where: { hostname: 'acme-docs' } })) return false;
  // Without storage the guide has no files, and so other rows than the snapshot's.
  if (!storage) {
    await seedDemoThroughServices(database, urls, undefined, options);
    return true;
  }
  const { fileDigests } = await replayDemo(database, snapshot as DemoSnapshot, { specText: demoSpecText(urls) });
  const files = new Map(
    DEMO_FILES.map((file) => {
      const bytes = Buffer.from(file.base64, 'base64');
      return [createHash('sha256').update(bytes).digest('hex'), bytes];
    }),
  );
  for (const digest of fileDigests) await storage.put(digest, files.get(digest) ?? missingFile(digest));
  if (!options.deferSpec) {
    const alice = await db.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } });
    const spec = await db.openApiSpec.findFirstOrThrow({ where: { slug: DEMO_SPEC_SLUG } });
    await processOpenAPISpec(createContext({ database, viewer: { user: alice }, clock: systemClock, urls, storage }), spec.id);
  }
  return true;
}

function missingFile(digest: string): never {
  throw new Error(`the demo snapshot names a file no DEMO_FILES entry has (${digest}): run npm run -s demo:snapshot`);
}
/**
 * Once the demo server listens: its spec `docs-gateway-api`, seeded from text
 * (and processed now if the seed deferred it), takes the server's own `/v1/openapi.json` as its source and is processed by
 * the job queue as any URL source is (fetched, validated, a second version),
 * before the server prints its token: a start-up says all it has to say before
 * the lines a person looks for. The address is the server's own, so this one
 * job may fetch loopback. Only once: a spec already sourced from a URL is left
 * as it is. Whether it did.
 */
export async function sourceDemoSpecFromServer(database: Database, urls: PublicUrls, base: string, jobs: JobQueue): Promise<boolean> {
  const [alice, spec] = await Promise.all([
    database.db.user.findUnique({ where: { email: DEMO_ADMIN_EMAIL } }),
    database.db.openApiSpec.findFirst({ where: { slug: DEMO_SPEC_SLUG, sourceURL: null }, select: { id: true, organizationId: true, lastVersionId: true } }),
  ]);
  if (!alice || !spec) return false;
  // Without a job sender the write queues nothing: the job is called below, and waited for.
  const ctx = createContext({ database, viewer: { user: alice }, clock: systemClock, urls, fetchPrivateAddresses: true });
  // Seeded with deferSpec: its text becomes its first version now, as the seed would have made it.
  if (!spec.lastVersionId) await processOpenAPISpec(ctx, spec.id);
  const written = await putSpec(ctx, spec.organizationId, DEMO_SPEC_SLUG, { source: { url: `${base}/v1/openapi.json` } });
  await jobSender(jobs).call(processOpenAPISpecJob, { specId: written.id, fetch: fetchSettingsOf(ctx) }, { timeoutMs: DEMO_SPEC_TIMEOUT_MS });
  return true;
}

/** How long the start-up waits for the demo spec (on a loaded machine a few seconds); the periodic job resumes it if need be. */
const DEMO_SPEC_TIMEOUT_MS = 60_000;
