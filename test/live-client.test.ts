import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from './support/app.ts';
import { buildTeam } from './support/factories.ts';
import { README_ADDRESS, ROOT, readmeBlock, scriptBesideSources } from './support/readme-blocks.ts';

/**
 * The subscription client of the README runs as written, in Node, against a
 * listening server: given its `token` and `spaceId`, it prints each event of
 * the space as it happens.
 */

describe('the live updates client of the README', () => {
  it('prints the events of a space as they happen', async () => {
    const t = await createTestApp();
    const team = await buildTeam(t.database);
    const spaceId = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Followed' } })).json().id;
    const base = await t.listen();
    // The block as written, its two values given; beside the sources, so that `graphql-sse` resolves.
    const { file, remove } = scriptBesideSources(
      'live-client',
      `const token = ${JSON.stringify(team.admin.token)};\nconst spaceId = ${JSON.stringify(spaceId)};\n${readmeBlock('live-client', 'js').replaceAll(README_ADDRESS, base)}`,
    );
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      await expect
        .poll(async () => /^docs_gateway_subscription_streams (\d+)$/m.exec((await t.call('GET', '/metrics')).body)?.[1], { timeout: 15_000 })
        .toBe('1');
      const changeRequest = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: team.admin.token, body: { subject: 'Followed' } });
      expect(changeRequest.statusCode).toBe(201);
      const displayName = (await t.database.db.user.findUniqueOrThrow({ where: { id: team.admin.id } })).displayName;
      await vi.waitUntil(() => output.includes('\n'), { timeout: 10_000 });
      expect(output).toBe(`CHANGE_REQUEST_OPENED by ${displayName}\n`);
    } finally {
      child.kill();
      remove();
    }
  });
});
