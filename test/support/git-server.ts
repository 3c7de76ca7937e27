import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real Git server for the tests: git's own `git http-backend` (Debian's `git`) behind a small
 * Node HTTP server, as a web server runs it (CGI), with optional basic authentication. Its
 * repositories are bare repositories in a temporary directory; `seed` fills one from files and
 * `tree`/`show` read what a push left, with the `git` command.
 */

const BACKEND = '/usr/lib/git-core/git-http-backend';

export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>.git`, with `user:password@` when given. */
  url(name: string, credentials?: { username: string; password: string }): string;
  /** Creates a bare repository (pushes allowed) and returns its directory. */
  create(name: string): string;
  /** Commits files (text or bytes; `symlink:<target>` makes a symbolic link) on a branch of a repository, as a push would. */
  seed(name: string, files: Record<string, string | Buffer>, options?: { branch?: string; message?: string; replace?: boolean }): string;
  /** The files of a branch: path → mode and size. */
  tree(name: string, branch?: string): Map<string, { mode: string; size: number }>;
  /** A file of a branch, as bytes. */
  show(name: string, filePath: string, branch?: string): Buffer;
  /** The commits of a branch, newest first: hash and subject. */
  log(name: string, branch?: string): Array<{ hash: string; subject: string }>;
  /** Runs `action` once, just before the next push to a repository is received: the branch moves under the pusher. */
  beforeNextPush(name: string, action: () => void): void;
  /** Every request's Authorization header and URL, as the server saw them. */
  requests: Array<{ url: string; authorization?: string }>;
  close(): Promise<void>;
}

function git(args: string[], options: { cwd?: string; input?: string | Buffer } = {}): Buffer {
  return execFileSync('git', args, {
    cwd: options.cwd,
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.test',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.test',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: os.tmpdir(),
    },
  });
}

export async function startGitServer(options: { username?: string; password?: string } = {}): Promise<GitServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-server-'));
  const requests: GitServer['requests'] = [];
  const beforePush = new Map<string, () => void>();
  const server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
    if (options.username !== undefined) {
      const expected = `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
        response.end('authentication required\n');
        return;
      }
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname.endsWith('/git-receive-pack')) {
      const name = url.pathname.replace(/^\/|\.git\/git-receive-pack$/g, '');
      const action = beforePush.get(name);
      beforePush.delete(name);
      action?.();
    }
    const child = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['content-length'] ? { CONTENT_LENGTH: request.headers['content-length'] } : {}),
        ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
        ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
        REMOTE_USER: options.username ?? 'anonymous',
        REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1',
      },
    });
    request.pipe(child.stdin);
    // The CGI answer: header lines, a blank line, the body.
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        response.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      if (end < 0) return;
      const separator = end === crlf ? 4 : 2;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      headersDone = true;
      response.writeHead(status, headers);
      response.write(head.subarray(end + separator));
    });
    child.stdout.on('end', () => response.end());
    child.on('error', () => {
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dirOf = (name: string) => path.join(root, `${name}.git`);
  const branchRef = (branch = 'main') => `refs/heads/${branch}`;

  const create = (name: string) => {
    const dir = dirOf(name);
    git(['init', '--quiet', '--bare', '--initial-branch=main', dir]);
    git(['config', 'http.receivepack', 'true'], { cwd: dir });
    return dir;
  };
  return {
    requests,
    beforeNextPush: (name, action) => beforePush.set(name, action),
    url: (name, credentials) =>
      `http://${credentials ? `${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@` : ''}127.0.0.1:${port}/${name}.git`,
    create,
    seed(name, files, { branch = 'main', message = 'Seed', replace = true } = {}) {
      const bare = dirOf(name);
      if (!fs.existsSync(bare)) create(name);
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'git-work-'));
      try {
        git(['init', '--quiet', `--initial-branch=${branch}`, work]);
        const exists = git(['--git-dir', bare, 'branch', '--list', branch]).toString().trim() !== '';
        if (exists) {
          git(['fetch', '--quiet', bare, `${branch}:refs/remotes/origin/${branch}`], { cwd: work });
          git(['checkout', '--quiet', '-B', branch, `origin/${branch}`], { cwd: work });
          if (replace) git(['rm', '-r', '--quiet', '--ignore-unmatch', '.'], { cwd: work });
        }
        for (const [filePath, content] of Object.entries(files)) {
          const full = path.join(work, filePath);
          fs.mkdirSync(path.dirname(full), { recursive: true });
          if (typeof content === 'string' && content.startsWith('symlink:')) fs.symlinkSync(content.slice('symlink:'.length), full);
          else fs.writeFileSync(full, content);
        }
        git(['add', '-A'], { cwd: work });
        git(['commit', '--quiet', '--allow-empty', '-m', message], { cwd: work });
        git(['push', '--quiet', '--force', bare, `${branch}:${branchRef(branch)}`], { cwd: work });
        return git(['rev-parse', 'HEAD'], { cwd: work }).toString().trim();
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
    tree(name, branch = 'main') {
      const out = git(['--git-dir', dirOf(name), 'ls-tree', '-r', '-l', '-z', branchRef(branch)]).toString('utf8');
      const files = new Map<string, { mode: string; size: number }>();
      for (const line of out.split('\0').filter(Boolean)) {
        const [meta, filePath] = line.split('\t') as [string, string];
        const [mode, , , size] = meta.split(/\s+/);
        files.set(filePath, { mode: mode!, size: Number(size) });
      }
      return files;
    },
    show(name, filePath, branch = 'main') {
      return git(['--git-dir', dirOf(name), 'show', `${branchRef(branch)}:${filePath}`]);
    },
    log(name, branch = 'main') {
      return git(['--git-dir', dirOf(name), 'log', '--format=%H %s', branchRef(branch)])
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
