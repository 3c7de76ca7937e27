import fs from 'node:fs';
import path from 'node:path';
import type { HttpClient, TreeEntry } from 'isomorphic-git';
import { diff3Merge } from 'node-diff3';
import { invalid } from '../../errors.ts';
import { InFlight } from '../../lib/in-flight.ts';
import { FetchRefused, guardedRequest } from '../../lib/safe-fetch.ts';
import type { RepoFile, WrittenFile } from './layout.ts';

/** isomorphic-git, loaded when a space bound to Git first syncs: most servers never need it (idle memory). */
const isomorphicGit = async () => (await import('isomorphic-git')).default;

/**
 * Git over smart HTTP with isomorphic-git: a repository's branch fetched into an on-disk cache
 * (one bare repository per space under `GIT_CACHE_DIR`, so a later sync fetches only what is
 * new) and read as files without a checkout; a commit written from a set of files and pushed.
 * Requests go through the address-checked fetcher's rules (src/lib/safe-fetch.ts), bounded in
 * bytes (the repository's size limit) and time. Credentials come from the URL's user info; they
 * are taken out of the URL before anything is kept or said, and every message is scrubbed of them.
 */

export interface GitLimits {
  /** Bytes a fetch may transfer: the repository's size. */
  maxRepoBytes: number;
  /** Bytes of one file. */
  maxFileBytes: number;
  /** Pages a repository may hold. */
  maxPages: number;
  /** Time one fetch or push may take, in milliseconds. */
  timeoutMs: number;
}

export interface Remote {
  /** The URL without credentials: what may be kept and shown. */
  url: string;
  auth?: { username: string; password: string };
}

export interface EngineOptions {
  /** The folder of the clone caches. */
  cacheDir: string;
  /** The cache's name (a space id). */
  key: string;
  remote: Remote;
  /** `refs/heads/<branch>` or a branch name. */
  ref: string;
  allowPrivate: boolean;
  limits: GitLimits;
}

/** A repository URL split into what may be shown and its credentials; a 400 for what is not an http(s) URL. */
export function parseRemote(value: string): Remote {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('url: must be the http(s) address of a Git repository');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`url: Git repositories are reached over http or https, not ${url.protocol}`);
  const auth = url.username || url.password ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined;
  url.username = '';
  url.password = '';
  return { url: url.href, ...(auth ? { auth } : {}) };
}

/** Text with the remote's credentials (as given, and percent-encoded) replaced by `***`. */
export function scrub(text: string, remote: Remote): string {
  let out = text.replace(/(https?:\/\/)[^/@\s]+@/gi, '$1***@');
  for (const secret of [remote.auth?.password, remote.auth?.username]) {
    if (!secret || secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

/** `refs/heads/<branch>` of a ref given either way; a 400 for what is not a branch name. */
export function branchRef(ref: string): string {
  const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  if (!/^refs\/heads\/[\w./-]+$/.test(full) || full.includes('..') || full.endsWith('/') || full.endsWith('.lock')) {
    throw invalid(`ref: "${ref}" is not a branch (refs/heads/<name>)`);
  }
  return full;
}

function httpClient(options: EngineOptions): HttpClient {
  const counter = {
    bytes: 0,
    maxBytes: options.limits.maxRepoBytes,
    tooLarge: () =>
      `the repository is larger than ${options.limits.maxRepoBytes.toLocaleString('en-US')} bytes, the most a space syncs with (GIT_MAX_REPO_BYTES)`,
  };
  return {
    request: (request) => guardedRequest(request, { allowPrivate: options.allowPrivate, timeoutMs: options.limits.timeoutMs, counter }),
  };
}

/** The cache's bare repository, created when missing. */
async function cacheOf(options: EngineOptions): Promise<string> {
  const git = await isomorphicGit();
  if (!/^[\w-]+$/.test(options.key)) throw new Error(`a Git cache key must be a word: ${options.key}`);
  const gitdir = path.join(options.cacheDir, `${options.key}.git`);
  if (!fs.existsSync(path.join(gitdir, 'HEAD'))) {
    fs.mkdirSync(gitdir, { recursive: true });
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  }
  return gitdir;
}

/** What a failed Git operation tells the client: a 400 naming the repository, never its credentials. */
function failure(error: unknown, options: EngineOptions, doing: string): Error {
  const err = error as { code?: string; data?: { statusCode?: number; statusMessage?: string }; message?: string };
  const where = options.remote.url;
  if (error instanceof FetchRefused) return invalid(`url: ${scrub(error.message, options.remote)}`);
  // Credentials refused: isomorphic-git asks onAuth / onAuthFailure, which cancel (no second try).
  if (err.code === 'UserCanceledError' || err.code === 'HttpError') {
    const status = err.code === 'UserCanceledError' ? 401 : err.data?.statusCode;
    if (status === 401 || status === 403) {
      return invalid(
        options.remote.auth
          ? `url: ${where} refused the credentials given in the URL (HTTP ${status})`
          : `url: ${where} needs credentials (HTTP ${status}): give them in the URL (https://user:token@host/repo.git)`,
      );
    }
    return invalid(`url: ${where} answered HTTP ${status ?? '?'} ${err.data?.statusMessage ?? ''} when ${doing}`.trim());
  }
  if (err.code === 'NotFoundError' || err.code === 'ResolveRefError') return invalid(`ref: ${options.ref} is not a branch of ${where}`);
  if (err.code === 'PushRejectedError') return invalid(`ref: ${where} refused the push to ${options.ref} (${scrub(err.message ?? '', options.remote)})`);
  if (err.code === 'SmartHttpError' || err.code === 'UnknownTransportError' || err.code === 'UrlParseError') {
    return invalid(`url: ${where} is not a Git repository over smart HTTP`);
  }
  if (error instanceof Error) error.message = scrub(error.message, options.remote);
  return error as Error;
}

function authOf(options: EngineOptions) {
  return {
    onAuth: () => (options.remote.auth ? { username: options.remote.auth.username, password: options.remote.auth.password } : { cancel: true }),
    // Credentials refused once are refused: no second try.
    onAuthFailure: () => ({ cancel: true }),
  };
}

/** The branch's commit on the remote, or null when the branch does not exist (an empty repository). */
export async function fetchBranch(options: EngineOptions): Promise<{ gitdir: string; commit: string | null }> {
  const git = await isomorphicGit();
  const gitdir = await cacheOf(options);
  const ref = branchRef(options.ref);
  try {
    const remoteRefs = await git.listServerRefs({ http: httpClient(options), url: options.remote.url, prefix: ref, ...authOf(options) });
    const head = remoteRefs.find((each) => each.ref === ref);
    if (!head) return { gitdir, commit: null };
    // The remote as kept in the cache: its URL without credentials.
    await git.addRemote({ fs, gitdir, remote: 'origin', url: options.remote.url, force: true });
    await git.fetch({ fs, http: httpClient(options), gitdir, remote: 'origin', ref, remoteRef: ref, singleBranch: true, tags: false, ...authOf(options) });
    return { gitdir, commit: head.oid };
  } catch (error) {
    throw failure(error, options, 'fetching');
  }
}

/** The files of a commit under a project directory (paths relative to it), read when asked. */
export async function filesOfCommit(gitdir: string, commit: string, projectDirectory = ''): Promise<RepoFile[]> {
  const git = await isomorphicGit();
  const prefix = projectDirectory ? `${projectDirectory.replace(/^\/+|\/+$/g, '')}/` : '';
  const files: RepoFile[] = [];
  const cache = {};
  await git.walk({
    fs,
    gitdir,
    cache,
    trees: [git.TREE({ ref: commit })],
    map: async (filepath, [entry]) => {
      if (!entry || filepath === '.') return true;
      // Only what is under the project directory, and the folders on the way to it.
      if (!(`${filepath}/`.startsWith(prefix) || filepath.startsWith(prefix))) return prefix.startsWith(`${filepath}/`) ? true : null;
      const type = await entry.type();
      if (type !== 'blob') return true;
      const mode = await entry.mode();
      const oid = await entry.oid();
      const relative = filepath.slice(prefix.length);
      files.push({
        path: relative,
        kind: mode === 0o120000 ? 'symlink' : 'file',
        read: async () => (await git.readBlob({ fs, gitdir, oid, cache })).blob,
      });
      return true;
    },
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

export interface PushOptions extends EngineOptions {
  projectDirectory?: string;
  /** The files the layout writes (relative to the project directory). */
  files: WrittenFile[];
  /** The bytes of a file of the space. */
  bytesOf(fileId: string): Promise<Uint8Array>;
  /** Whether a path (relative to the project directory) is the layout's: such files not written are deleted. */
  owned(filePath: string): boolean;
  message: string;
  author: { name: string; email: string; timestamp: number };
  /** The commit the files are written on (as fetched); null for an empty repository. */
  parent: string | null;
  gitdir: string;
}

interface FlatEntry {
  mode: string;
  oid: string;
}

/**
 * Writes the files as a commit on top of `parent` (files outside the project directory and files
 * the layout does not own are kept) and pushes it to the branch. Nothing is pushed when the tree
 * is unchanged; the answer says which commit the branch is at.
 */
export async function commitAndPush(options: PushOptions): Promise<{ commit: string; changed: boolean }> {
  const written = await commitFiles(options);
  if (!written.changed) return written;
  await pushCommit(options, written.commit);
  return written;
}

/** The commit of the files on top of `parent`, written in the cache only (not pushed); `changed` false when the tree is the parent's. */
/** Blobs of files written at once by a commit. */
const BLOBS_IN_FLIGHT = 4;

export async function commitFiles(options: PushOptions): Promise<{ commit: string; changed: boolean }> {
  const git = await isomorphicGit();
  const { gitdir } = options;
  const prefix = options.projectDirectory ? `${options.projectDirectory.replace(/^\/+|\/+$/g, '')}/` : '';
  const flat = new Map<string, FlatEntry>();
  let parentTree: string | null = null;
  if (options.parent) {
    const commit = await git.readCommit({ fs, gitdir, oid: options.parent });
    parentTree = commit.commit.tree;
    await git.walk({
      fs,
      gitdir,
      trees: [git.TREE({ ref: options.parent })],
      map: async (filepath, [entry]) => {
        if (!entry || filepath === '.') return true;
        if ((await entry.type()) === 'blob') flat.set(filepath, { mode: (await entry.mode()).toString(8).padStart(6, '0'), oid: await entry.oid() });
        return true;
      },
    });
  }
  for (const filePath of [...flat.keys()]) {
    if (filePath.startsWith(prefix) && options.owned(filePath.slice(prefix.length))) flat.delete(filePath);
  }
  // Blobs are written a few at a time (each holds its file's bytes meanwhile), each file's once.
  const blobs = new Map<string, Promise<string>>();
  const blobOf = (fileId: string) => {
    let oid = blobs.get(fileId);
    if (!oid) blobs.set(fileId, (oid = options.bytesOf(fileId).then((blob) => git.writeBlob({ fs, gitdir, blob }))));
    return oid;
  };
  const writes = new InFlight(BLOBS_IN_FLIGHT);
  for (const file of options.files) {
    const filePath = `${prefix}${file.path}`;
    if ('oid' in file) {
      flat.set(filePath, { mode: '100644', oid: file.oid });
      continue;
    }
    await writes.add(
      () => ('text' in file ? writeTextBlob(gitdir, file.text) : blobOf(file.fileId)),
      (oid) => flat.set(filePath, { mode: '100644', oid }),
    );
  }
  await writes.drain();
  const tree = await writeTrees(gitdir, flat);
  if (tree === parentTree && options.parent) return { commit: options.parent, changed: false };
  const person = { name: options.author.name, email: options.author.email, timestamp: options.author.timestamp, timezoneOffset: 0 };
  const commit = await git.writeCommit({
    fs,
    gitdir,
    commit: {
      message: options.message.endsWith('\n') ? options.message : `${options.message}\n`,
      tree,
      parent: options.parent ? [options.parent] : [],
      author: person,
      committer: person,
    },
  });
  return { commit, changed: true };
}

/** Stores a text as a blob of the cache (not yet in any tree); its id. */
export async function writeTextBlob(gitdir: string, text: string): Promise<string> {
  const git = await isomorphicGit();
  return git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode(text) });
}

/** What a remote says when it refuses to move a branch that moved meanwhile. */
const REFUSED_AS_MOVED = /fast.?forward|fetch first|failed to (update|lock)|cannot lock|stale info/i;

/** A push the remote refused because its branch moved on (not a fast-forward): fetch, merge and push again. */
export class NotFastForward extends Error {}

/** Pushes a commit of the cache to the branch; NotFastForward when the branch has moved past what the commit continues. */
export async function pushCommit(options: EngineOptions & { gitdir: string }, commit: string): Promise<void> {
  const git = await isomorphicGit();
  const { gitdir } = options;
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/sync-export', value: commit, force: true });
  try {
    const result = await git.push({
      fs,
      http: httpClient(options),
      gitdir,
      url: options.remote.url,
      ref: 'refs/heads/sync-export',
      remoteRef: branchRef(options.ref),
      ...authOf(options),
    });
    if (!result.ok) {
      const reason = scrub(String(result.error ?? Object.values(result.refs ?? {}).find((ref) => ref.error)?.error ?? ''), options.remote);
      if (REFUSED_AS_MOVED.test(reason)) throw new NotFastForward(reason);
      throw invalid(`ref: ${options.remote.url} refused the push to ${options.ref}: ${reason}`);
    }
  } catch (error) {
    if (error instanceof NotFastForward) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'PushRejectedError') throw new NotFastForward((error as Error).message);
    // isomorphic-git says a ref the remote would not move as a GitPushError.
    if (code === 'GitPushError' && REFUSED_AS_MOVED.test((error as Error).message)) throw new NotFastForward(scrub((error as Error).message, options.remote));
    throw failure(error, options, 'pushing');
  }
}

/**
 * The three-way merge of two commits of the cache (from their merge base) as a merge commit,
 * or null when they conflict: nothing is written then.
 */
export async function mergeCommits(
  options: { gitdir: string },
  ours: string,
  theirs: string,
  message: string,
  author: { name: string; email: string; timestamp: number },
  /** Lines changed differently on both sides take theirs instead of conflicting (other conflicts still do). */
  preferTheirs = false,
): Promise<string | null> {
  const git = await isomorphicGit();
  const { gitdir } = options;
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/sync-ours', value: ours, force: true });
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/sync-theirs', value: theirs, force: true });
  const person = { ...author, timezoneOffset: 0 };
  try {
    const result = await git.merge({
      fs,
      gitdir,
      ours: 'sync-ours',
      theirs: 'sync-theirs',
      fastForward: false,
      abortOnConflict: true,
      ...(preferTheirs ? { mergeDriver: theirsWhereTheyConflict } : {}),
      message,
      author: person,
      committer: person,
    });
    return result.oid ?? null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MergeConflictError' || code === 'MergeNotSupportedError') return null;
    throw error;
  }
}

/** A three-way merge of one file's text (diff3) where the lines both sides changed take theirs. */
function theirsWhereTheyConflict({ contents }: { contents: string[] }): { cleanMerge: boolean; mergedText: string } {
  const [base, ours, theirs] = contents.map((text) => text.split(/(?<=\n)/)) as [string[], string[], string[]];
  const mergedText = diff3Merge(ours, base, theirs)
    .map((region) => (region.ok ?? region.conflict?.b ?? []).join(''))
    .join('');
  return { cleanMerge: true, mergedText };
}

/** Whether `ancestor` is `commit` or one of its ancestors (both in the cache). */
export async function descendsFrom(gitdir: string, commit: string, ancestor: string): Promise<boolean> {
  const git = await isomorphicGit();
  if (commit === ancestor) return true;
  try {
    return await git.isDescendent({ fs, gitdir, oid: commit, ancestor, depth: -1 });
  } catch {
    return false;
  }
}

/** Trees for a flat list of files, written bottom up; the root tree's id. */
async function writeTrees(gitdir: string, flat: Map<string, FlatEntry>): Promise<string> {
  const git = await isomorphicGit();
  interface Dir {
    files: Map<string, FlatEntry>;
    dirs: Map<string, Dir>;
  }
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [filePath, entry] of flat) {
    const segments = filePath.split('/');
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      let next = dir.dirs.get(segment);
      if (!next) dir.dirs.set(segment, (next = { files: new Map(), dirs: new Map() }));
      dir = next;
    }
    dir.files.set(segments.at(-1)!, entry);
  }
  const write = async (dir: Dir): Promise<string> => {
    const entries: TreeEntry[] = [];
    for (const [name, sub] of dir.dirs) entries.push({ mode: '040000', path: name, oid: await write(sub), type: 'tree' });
    for (const [name, file] of dir.files) entries.push({ mode: file.mode, path: name, oid: file.oid, type: file.mode === '160000' ? 'commit' : 'blob' });
    return git.writeTree({ fs, gitdir, tree: entries });
  };
  return write(root);
}
