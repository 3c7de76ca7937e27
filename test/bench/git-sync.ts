// Git sync's Git side on a generated repository: `npx tsx test/bench/git-sync.ts [pages]` (1,000 by default).
// Seeds a repository of `pages` pages in GitBook's layout (nested by SUMMARY.md, an image every page)
// in git's own http-backend, then times: fetch + read as pages and files (the import's work before
// its database transaction), and write as files + commit + push to an empty repository (the export's
// work after reading the space). The database writes are not in these numbers.
// With `--server`, the same repository goes through a real server end to end instead: `docs-gateway
// serve` on a new SQLite file, importGitRepository until getSpaceGitInfo says it ended (the space's
// revision written), then exportToGitRepository into an empty repository, timed the same way.
// `--heap=<MB>` runs that server with `--max-old-space-size=<MB>`: memory bounded by the batch, not
// the repository, means a large repository still goes through a small heap.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commitAndPush, fetchBranch, filesOfCommit, parseRemote } from '../../src/domain/git/engine.ts';
import { ownedPath, readRepository, writeRepository } from '../../src/domain/git/layout.ts';
import { startGitServer } from '../support/git-server.ts';

const endToEnd = process.argv.includes('--server');
const heapMb = Number(process.argv.find((arg) => arg.startsWith('--heap='))?.slice('--heap='.length) ?? 0);
const pages = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 1000);
const limits = { maxRepoBytes: 500 * 1024 * 1024, maxFileBytes: 10 * 1024 * 1024, maxPages: 100_000, timeoutMs: 120_000 };
const png = (seed: number) => {
  const bytes = Buffer.alloc(2048);
  for (let index = 0; index < bytes.length; index++) bytes[index] = (seed * 31 + index * 7) & 0xff;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), bytes]);
};

const files: Record<string, string | Buffer> = {};
const summary = ['# Table of contents', '', '* [Home](README.md)'];
files['README.md'] = '# Home\n\nThe generated documentation.\n';
for (let section = 0; section < pages / 10; section++) {
  summary.push(`* [Section ${section}](section-${section}/README.md)`);
  files[`section-${section}/README.md`] = `# Section ${section}\n\nPages of section ${section}.\n`;
  for (let page = 0; page < 9; page++) {
    const n = section * 10 + page;
    summary.push(`  * [Page ${n}](section-${section}/page-${page}.md)`);
    files[`section-${section}/page-${page}.md`] =
      `---\ndescription: Page ${n} of the benchmark.\n---\n\n# Page ${n}\n\n## Overview\n\n${'Some text with **bold** and a [link](../README.md). '.repeat(20)}\n\n<figure><img src="../.gitbook/assets/image-${n}.png" alt="Image ${n}"><figcaption></figcaption></figure>\n\n\`\`\`js\nconsole.log(${n});\n\`\`\`\n`;
    files[`.gitbook/assets/image-${n}.png`] = png(n);
  }
}
files['SUMMARY.md'] = `${summary.join('\n')}\n`;

const server = await startGitServer();
if (endToEnd) {
  try {
    server.seed('bench', files);
    server.create('copy');
    console.log(JSON.stringify({ pages, ...(await throughServer(server.url('bench'), server.url('copy'))), load: os.loadavg()[0]?.toFixed(1) }));
  } finally {
    await server.close();
  }
  process.exit(0);
}

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-bench-'));
try {
  server.seed('bench', files);
  const ids = { pageId: (slugPath: string) => `page_${slugPath.replace(/\//g, '__')}`, fileId: (name: string) => `file_${name.replace(/\W/g, '-')}` };
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  const source = { cacheDir, key: 'bench', remote: parseRemote(server.url('bench')), ref: 'main', allowPrivate: true, limits };
  const { gitdir, commit } = await fetchBranch(source);
  const repository = await readRepository(await filesOfCommit(gitdir, commit!), { limits, ...ids });
  const imported = performance.now() - started;
  const heapAfterRead = process.memoryUsage().heapUsed;

  server.create('copy');
  started = performance.now();
  const target = { ...source, key: 'bench-copy', remote: parseRemote(server.url('copy')) };
  const fetched = await fetchBranch(target);
  const written = await writeRepository(repository, repository.config);
  const sources = new Map(repository.files.map((file) => [file.fileId, file]));
  await commitAndPush({
    ...target,
    gitdir: fetched.gitdir,
    parent: fetched.commit,
    files: written,
    bytesOf: (fileId) => sources.get(fileId)!.read(),
    owned: (filePath) => ownedPath(repository.config, filePath),
    message: 'Bench export',
    author: { name: 'bench', email: 'bench@example.test', timestamp: 1_800_000_000 },
  });
  const exported = performance.now() - started;
  const count = (list: typeof repository.pages): number => list.reduce((sum, page) => sum + 1 + count(page.children), 0);
  console.log(
    JSON.stringify({
      pages: count(repository.pages),
      files: repository.files.length,
      importGitSideMs: Math.round(imported),
      exportGitSideMs: Math.round(exported),
      heapGrowthMbAfterRead: Math.round((heapAfterRead - heapBefore) / 1024 / 1024),
      load: os.loadavg()[0]?.toFixed(1),
    }),
  );
} finally {
  await server.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
}

/** Import and export through a real server process and its job queue, each timed from its request until the state says it ended. */
async function throughServer(source: string, target: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-bench-server-'));
  const root = path.join(import.meta.dirname, '..', '..');
  const bin = path.join(root, 'bin', 'docs-gateway.js');
  const port = 39_000 + Math.floor(Math.random() * 1000);
  const env = {
    ...process.env,
    DATABASE_URL: `file:${path.join(dir, 'bench.db')}`,
    FILES_DIR: path.join(dir, 'files'),
    GIT_CACHE_DIR: path.join(dir, 'git'),
    GIT_TIMEOUT_MS: '600000',
    // The Git server listens on 127.0.0.1.
    FETCH_PRIVATE_ADDRESSES: 'true',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const admin = JSON.parse(
    execFileSync(process.execPath, [bin, 'bootstrap', '--org', 'Bench', '--email', 'bench@example.test', '--json'], { env }).toString(),
  ) as {
    organizationId: string;
    token: string;
  };
  const child = spawn(process.execPath, [...(heapMb ? [`--max-old-space-size=${heapMb}`] : []), bin, 'serve'], { env, stdio: 'inherit' });
  // The server's resident memory (Linux): its peak since the last reset (writing 5 to clear_refs resets it), and now.
  const memory = (field: 'VmHWM' | 'VmRSS') => {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  };
  const resetPeak = () => fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `the server exited (${signal ?? code}), out of memory under --heap?`));
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  };
  try {
    while (!(await fetch(`${base}/readyz`).catch(() => null))?.ok) await new Promise((resolve) => setTimeout(resolve, 100));
    const space = (await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Bench' })).body;
    const timed = async (operation: 'import' | 'export', body: Record<string, unknown>) => {
      const started = performance.now();
      const queued = await call('POST', `/v1/spaces/${space.id}/git/${operation}`, body);
      if (queued.status !== 204) throw new Error(`${operation}: ${queued.status} ${JSON.stringify(queued.body)}`);
      for (;;) {
        if (exited) throw new Error(`${operation}: ${exited}`);
        const info = await call('GET', `/v1/spaces/${space.id}/git/info`);
        const state = info.body?.operation?.state;
        if (info.status === 200 && state && state !== 'running') {
          if (state !== 'success') throw new Error(`${operation}: ${JSON.stringify(info.body)}`);
          return Math.round(performance.now() - started);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const idleRssMb = memory('VmRSS');
    resetPeak();
    const importMs = await timed('import', { url: source, ref: 'refs/heads/main' });
    const importPeakRssMb = memory('VmHWM');
    resetPeak();
    const exportMs = await timed('export', { url: target, ref: 'refs/heads/main', commitMessage: 'Bench export' });
    const exportPeakRssMb = memory('VmHWM');
    const imported = await call('GET', `/v1/spaces/${space.id}/content/pages`);
    const count = (list: Array<{ pages?: unknown[] }>): number => list.reduce((sum, page) => sum + 1 + count((page.pages ?? []) as typeof list), 0);
    // Bounded, not the repository's size held as strings.
    return { importMs, exportMs, pagesImported: count(imported.body.pages), heapMb: heapMb || null, idleRssMb, importPeakRssMb, exportPeakRssMb };
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
