import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './support/app.ts';
import { buildTeam } from './support/factories.ts';
import { README_ADDRESS, ROOT, readmeBlock, scriptBesideSources } from './support/readme-blocks.ts';

/**
 * The official client's block of the README runs as written, in Node, against
 * a listening server: given a `token`, it reads the user and its
 * organizations through `@gitbook/api` with the endpoint the README gives.
 */

describe("the official client's block of the README", () => {
  it('reads the user and its organizations with the endpoint it gives (the address, without /v1)', async () => {
    const block = readmeBlock('official-client', 'js');
    expect(block).toContain(`endpoint: '${README_ADDRESS}'`);
    const t = await createTestApp();
    const team = await buildTeam(t.database);
    const base = await t.listen();
    // The block as written, its token given; beside the sources, so that `@gitbook/api` resolves.
    const { file, remove } = scriptBesideSources(
      'official-client',
      `const token = ${JSON.stringify(team.admin.token)};\n${block.replaceAll(README_ADDRESS, base)}`,
    );
    try {
      const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
      const user = await t.database.db.user.findUniqueOrThrow({ where: { id: team.admin.id } });
      expect(run).toEqual({ code: 0, output: `${user.displayName} is a member of ${team.organization.title}\n` });
    } finally {
      remove();
    }
  });
});
