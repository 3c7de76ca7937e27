import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { providerOf, sqliteFilePath } from '../../src/db/client.ts';
import { serverProcesses } from '../support/server-process.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * `kill -9` of a real server process during a mixed write load, then a restart
 * on the same database: every write the server acknowledged is there, no
 * content batch is half applied, and (SQLite) the database file passes its
 * integrity check.
 */

const provider = providerOf(testDatabaseUrl());

describe('a server killed during writes', () => {
  it('keeps every acknowledged write and no half-applied batch after kill -9 and a restart', async () => {
    const { url, admin, call, serve } = await serverProcesses('crash');
    let server = await serve();
    const space = (await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Target' })).body;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;

    const createdSpaces: string[] = [];
    const appliedBatches: number[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let round = 0; !stop; round++) {
        try {
          const created = await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: `Space ${worker}.${round}` });
          if (created.status === 201) createdSpaces.push(created.body.id);
          const batch = worker * 1000 + round;
          const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
            changes: [
              { operation: 'insert_page', title: `Batch ${batch} first`, document: { markdown: 'one\n' } },
              { operation: 'insert_page', title: `Batch ${batch} second`, document: { markdown: 'two\n' } },
            ],
          });
          if (edited.status === 200) appliedBatches.push(batch);
        } catch {
          return; // The server is gone.
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(createdSpaces.length).toBeGreaterThan(0);
    expect(appliedBatches.length).toBeGreaterThan(0);

    if (provider === 'sqlite') {
      const file = new BetterSqlite3(sqliteFilePath(url));
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      file.close();
    }

    server = await serve();
    for (const id of createdSpaces) expect((await call('GET', `/v1/spaces/${id}`)).status, id).toBe(200);
    const pages = (await call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`)).body.pages as Array<{ title: string }>;
    const titles = new Set(pages.map((page) => page.title));
    for (const batch of appliedBatches) {
      expect(titles.has(`Batch ${batch} first`) && titles.has(`Batch ${batch} second`), `batch ${batch}`).toBe(true);
    }
    // Any batch present at all is present whole (unacknowledged ones included).
    for (const title of titles) {
      const batch = /^Batch (\d+) (first|second)$/.exec(title)?.[1];
      if (batch) expect(titles.has(`Batch ${batch} first`) && titles.has(`Batch ${batch} second`), `batch ${batch}`).toBe(true);
    }
    server.kill('SIGTERM');
  }, 180_000);
});
