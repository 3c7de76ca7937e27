import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { JobKind, RequestContext } from '../../context.ts';
import { DomainError, conflict, invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { assertContentWritable, lockSpace } from '../change-requests/service.ts';
import { parseBudgetMs, readStructuresLeavingLarge } from '../content/bodies.ts';
import { dimensionsOf } from '../content/changes.ts';
import { type PreparedDocument, prepareDocument, storePreparedDocuments } from '../content/documents.ts';
import { revisionFiles } from '../content/files.ts';
import type { JSONDocument } from '../content/model/nodes.ts';
import type { PageDraft } from '../content/revisions.ts';
import { writeRevision } from '../content/revisions.ts';
import { type PageState, type PageTree, loadPageTree } from '../content/tree.ts';
import { emitEvent } from '../events/emit.ts';
import { reindexSpace } from '../search/indexing.ts';
import { auditWrite, changeRequestTarget } from '../audit/record.ts';
import { recountChangeRequests } from '../change-requests/counts.ts';
import { inTransaction } from '../transaction.ts';
import { InFlight } from '../../lib/in-flight.ts';
import { Spool, type SpooledText } from '../../lib/spool.ts';
import { type EngineOptions, type GitLimits, commitFiles, fetchBranch, filesOfCommit, parseRemote, pushCommit, scrub, writeTextBlob } from './engine.ts';
import { type LayoutPage, type ReadOptions, ownedPath, readConfig, readRepository, writeRepository } from './layout.ts';
import { TaskOverBudget, runTask } from '../../workers/pool.ts';

/**
 * The Git sync jobs (queued by src/domain/git/service.ts, run by any instance): an import
 * reads a branch in GitBook's layout and writes it as one new revision of the space (all or
 * nothing: a failure leaves the space as it was), an export writes the space's live content as
 * one commit pushed to the branch. Each records its operation in `space_git_syncs` (what
 * `getSpaceGitInfo` answers): running, then success or failure with the reason, never the
 * credentials. An operation whose `timestamp` is older than the last one run is skipped unless
 * forced, so imports and exports run in the order of the events behind them.
 */

export interface GitSettings {
  /** The folder of the clone caches (GIT_CACHE_DIR). */
  cacheDir: string;
  limits: GitLimits;
}

export const DEFAULT_GIT_SETTINGS: GitSettings = {
  cacheDir: path.join(os.tmpdir(), 'docs-gateway-git'),
  limits: { maxRepoBytes: 100 * 1024 * 1024, maxFileBytes: 10 * 1024 * 1024, maxPages: 5000, timeoutMs: 60_000 },
};

interface GitJobData {
  spaceId: string;
  /** As the client gave it, credentials included: used for the request only, never kept elsewhere or logged. */
  url: string;
  displayUrl: string;
  ref: string;
  projectDirectory: string;
  timestamp: string | null;
  force: boolean;
  standalone: boolean;
  userId: string;
  allowPrivate: boolean;
}

export type ImportGitData = GitJobData;
export interface ExportGitData extends GitJobData {
  commitMessage: string;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
};
const contentTypeOf = (name: string) => CONTENT_TYPES[name.split('.').at(-1)?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export function engineOptions(ctx: RequestContext, data: GitJobData): EngineOptions {
  const settings = ctx.gitSync ?? DEFAULT_GIT_SETTINGS;
  return {
    cacheDir: settings.cacheDir,
    key: data.spaceId,
    remote: parseRemote(data.url),
    ref: data.ref,
    allowPrivate: data.allowPrivate,
    limits: settings.limits,
  };
}

/**
 * Records the start of an operation; false when a newer one (by timestamp) already ran and
 * this one is not forced.
 */
async function begin(ctx: RequestContext, data: GitJobData, direction: 'import' | 'export'): Promise<boolean> {
  const now = ctx.clock.now();
  const timestamp = data.timestamp ? new Date(data.timestamp) : null;
  const previous = await ctx.db.spaceGitSync.findUnique({ where: { spaceId: data.spaceId } });
  if (!data.force && timestamp && previous?.timestamp && previous.timestamp > timestamp) {
    // Older than what already ran: done, with nothing to do.
    await ctx.db.spaceGitSync.update({ where: { spaceId: data.spaceId }, data: { state: 'success', endedAt: now, error: null, updatedAt: now } });
    return false;
  }
  const fields = {
    url: data.displayUrl,
    ref: data.ref,
    projectDirectory: data.projectDirectory,
    state: 'running',
    direction,
    startedAt: now,
    endedAt: null,
    error: null,
    ...(timestamp ? { timestamp } : {}),
    updatedAt: now,
  };
  await ctx.db.spaceGitSync.upsert({ where: { spaceId: data.spaceId }, create: { spaceId: data.spaceId, ...fields }, update: fields });
  return true;
}

async function end(ctx: RequestContext, data: GitJobData, outcome: { commit: string } | { error: unknown }) {
  const now = ctx.clock.now();
  const error =
    'error' in outcome
      ? scrub(
          outcome.error instanceof DomainError ? outcome.error.message : `the operation failed: ${(outcome.error as Error)?.message ?? String(outcome.error)}`,
          parseRemote(data.url),
        )
      : null;
  // The import itself is in the audit log (space.import); the end of an operation is an event only.
  await inTransaction(ctx, [], async (tx) => {
    const space = await tx.db.spaceGitSync.update({
      where: { spaceId: data.spaceId },
      data: { state: error ? 'failure' : 'success', endedAt: now, error, ...('commit' in outcome ? { commit: outcome.commit } : {}), updatedAt: now },
      select: { direction: true, space: { select: { organizationId: true } } },
    });
    emitEvent(tx, {
      kind: error ? 'space.git_sync_failed' : 'space.git_synced',
      organizationId: space.space.organizationId,
      spaceId: data.spaceId,
      subjectId: data.spaceId,
      data: error ? { direction: space.direction, error } : { direction: space.direction, commit: (outcome as { commit: string }).commit },
    });
  });
}

/** Runs an operation between begin and end; a failure is recorded (scrubbed) and rethrown scrubbed. */
async function operation(
  ctx: RequestContext,
  data: GitJobData,
  direction: 'import' | 'export',
  work: () => Promise<{ commit: string } & Record<string, unknown>>,
) {
  if (!(await begin(ctx, data, direction))) return { skipped: 'a newer operation already ran (timestamp)' };
  try {
    const result = await work();
    await end(ctx, data, { commit: result.commit });
    return result;
  } catch (error) {
    await end(ctx, data, { error });
    if (error instanceof Error) error.message = scrub(error.message, parseRemote(data.url));
    throw error;
  }
}

/** Imports a branch as a new revision of the space (its live content unless standalone). */
export const importGitJob: JobKind<ImportGitData> = {
  name: 'git-import',
  retryLimit: 0,
  timeoutSeconds: 300,
  run: (ctx, data) => operation(ctx, data, 'import', () => importBranch(ctx, data)),
};

/** Exports the space's live content as one commit pushed to the branch. */
export const exportGitJob: JobKind<ExportGitData> = {
  name: 'git-export',
  retryLimit: 0,
  timeoutSeconds: 300,
  run: (ctx, data) => operation(ctx, data, 'export', () => exportBranch(ctx, data)),
};

interface FileVersionDraft {
  id: string;
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  sha256: string;
}

/**
 * Where a bound space's sync (./binding-sync.ts) puts a commit: already fetched, recorded on the
 * revision (`gitCommit`), and either on the live content or, for a conflict, in a new change
 * request made from the revision last synced.
 */
export interface ImportTarget {
  gitdir: string;
  commit: string;
  /** The branch's commit the content stands for, when `commit` is a merge of it made here (a conflict's). */
  recordAs?: string;
  changeRequest?: { baseRevisionId: string; subject: string };
}

export async function importBranch(ctx: RequestContext, data: ImportGitData, target?: ImportTarget) {
  const options = engineOptions(ctx, data);
  const { gitdir, commit } = target ?? (await fetchBranch(options));
  if (!commit) throw invalid(`ref: ${data.ref} is not a branch of ${options.remote.url}`);
  const space = await ctx.db.space.findUniqueOrThrow({ where: { id: data.spaceId } });
  const baseRevisionId = target?.changeRequest?.baseRevisionId ?? space.revisionId;
  const base = await loadPageTree(ctx, baseRevisionId);
  const pathToId = new Map([...base.paths].map(([pageId, pagePath]) => [pagePath, pageId]));
  const baseFiles = await revisionFiles(ctx, baseRevisionId);
  const fileByName = new Map(baseFiles.map((file) => [file.version.name, file]));
  // Bodies are set aside on disk as they are read and stored from there a slice at a time, in the transaction: memory
  // holds the pages' fields and ids, never the repository's text.
  const spool = await Spool.open(options.cacheDir);
  try {
    return await importRead(ctx, data, target, { options, gitdir, commit, baseRevisionId, base, pathToId, fileByName, spool });
  } finally {
    await spool.close();
  }
}

/** A repository's large page bodies read and written on the worker pool, each within the budget of a stored body's parse. */
const LARGE_BODIES_ON_THE_POOL: NonNullable<ReadOptions['largeBodies']> = {
  parse: (markdown) => runTask('parse-markdown', { markdown, headingOffset: 1 }, { budgetMs: parseBudgetMs() }).catch(nullOverBudget),
  render: (document) => runTask('render-markdown', { document }, { budgetMs: parseBudgetMs() }).catch(nullOverBudget),
};

function nullOverBudget(error: unknown): null {
  if (error instanceof TaskOverBudget) return null;
  throw error;
}

async function importRead(
  ctx: RequestContext,
  data: ImportGitData,
  target: ImportTarget | undefined,
  read: {
    options: EngineOptions;
    gitdir: string;
    commit: string;
    baseRevisionId: string;
    base: PageTree;
    pathToId: Map<string, string>;
    fileByName: Map<string, Awaited<ReturnType<typeof revisionFiles>>[number]>;
    spool: Spool;
  },
) {
  const { options, gitdir, commit, baseRevisionId, base, pathToId, fileByName, spool } = read;
  const bodies = new Map<string, SpooledText & { documentId: string }>();
  const repository = await readRepository(await filesOfCommit(gitdir, commit, data.projectDirectory), {
    limits: options.limits,
    pageId: (slugPath) => pathToId.get(slugPath) ?? newId('page'),
    fileId: (name) => fileByName.get(name)?.fileId ?? newId('file'),
    largeBodies: LARGE_BODIES_ON_THE_POOL,
    body: async (page, markdown) => {
      if (!markdown) return;
      // Parsed now, outside the transaction (the costly part of storing a body); set aside as what the transaction writes.
      const prepared = await prepareDocument(data.spaceId, markdown);
      bodies.set(page.pageId, { documentId: prepared.id, ...(await spool.append(JSON.stringify(prepared))) });
    },
  });
  const storeBodies = (tx: RequestContext) => storeSpooledDocuments(tx, data.spaceId, spool, bodies.values());

  // Files: bytes stored now (by digest: storing twice is harmless), a few at a time; versions written with the revision, in the repository's order.
  if (repository.files.length && !ctx.storage) throw new Error('this server has no file storage configured');
  const stored: Array<FileVersionDraft | null> = [];
  const storing = new InFlight(FILES_IN_FLIGHT);
  for (const [index, file] of repository.files.entries()) {
    await storing.add(
      async (): Promise<FileVersionDraft | null> => {
        const bytes = Buffer.from(await file.read());
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const existing = fileByName.get(file.name);
        if (existing && existing.fileId === file.fileId && existing.version.sha256 === sha256) return null;
        await ctx.storage!.put(sha256, bytes);
        const contentType = contentTypeOf(file.name);
        return { id: newId('fileVersion'), fileId: file.fileId, name: file.name, contentType, size: bytes.length, sha256, ...dimensionsOf(bytes, contentType) };
      },
      (version) => {
        stored[index] = version;
      },
    );
  }
  await storing.drain();
  const versions = stored.filter((version): version is FileVersionDraft => version !== null && version !== undefined);

  const now = ctx.clock.now();
  const pages: PageDraft[] = [];
  const place = (list: LayoutPage[], parentId: string | null) => {
    let position: string | null = null;
    for (const page of list) {
      position = keyBetween(position, null);
      const before = base.pages.get(page.pageId);
      const draft: PageDraft = {
        pageId: page.pageId,
        parentId,
        position,
        type: page.type,
        title: page.title,
        slug: page.slug,
        emoji: page.fields.emoji ?? null,
        icon: page.fields.icon ?? null,
        description: page.fields.description ?? null,
        documentId: page.type === 'document' ? (bodies.get(page.pageId)?.documentId ?? null) : null,
        hidden: page.fields.hidden ?? false,
        noIndex: page.fields.noIndex ?? false,
        noRobotsIndex: page.fields.noRobotsIndex ?? false,
        condition: page.fields.condition ?? null,
        layout: (page.fields.layout as Record<string, unknown> | undefined) ?? null,
        cover: page.fields.cover ?? null,
        variables: (page.fields.variables as Record<string, unknown> | undefined) ?? null,
        target: page.target,
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      };
      if (before && samePage(before, draft)) draft.updatedAt = before.updatedAt;
      pages.push(draft);
      place(page.children, page.pageId);
    }
  };
  place(repository.pages, null);

  const intoChangeRequest = target?.changeRequest;
  const written = await inTransaction(ctx, 'recorded-by-work', async (tx) => {
    const locked = await lockSpace(tx, data.spaceId);
    if (intoChangeRequest)
      return importAsChangeRequest(tx, data, locked.organizationId, intoChangeRequest, {
        base,
        pages,
        storeBodies,
        versions,
        commit: target?.recordAs ?? commit,
      });
    assertContentWritable(locked, null);
    if (!data.standalone && locked.revisionId !== baseRevisionId) throw conflict('the content changed while the repository was imported: try again');
    await storeBodies(tx);
    if (versions.length) await tx.db.fileVersion.createMany({ data: versions.map((version) => ({ ...version, spaceId: data.spaceId, createdAt: now })) });
    const revisionId = await writeRevision(tx, {
      spaceId: data.spaceId,
      changeRequestId: null,
      type: 'edits',
      parents: [baseRevisionId],
      base,
      pages,
      addedFiles: new Map(versions.map((version) => [version.fileId, version.id])),
    });
    if (target) await tx.db.revision.update({ where: { id: revisionId }, data: { gitCommit: target.recordAs ?? commit } });
    auditWrite(tx, {
      action: 'space.import',
      organizationId: locked.organizationId,
      target: { type: 'space', id: data.spaceId },
      payload: { source: 'git', standalone: data.standalone ?? false },
      actor: { id: data.userId },
    });
    if (!data.standalone) {
      await tx.db.space.update({ where: { id: data.spaceId }, data: { revisionId } });
      await reindexSpace(tx, data.spaceId, revisionId);
      emitEvent(tx, {
        kind: 'space.content_updated',
        organizationId: locked.organizationId,
        spaceId: data.spaceId,
        subjectId: data.spaceId,
        data: { revisionId },
      });
    }
    return { revisionId, changeRequestId: null as string | null };
  });
  return { commit, ...written, pages: pages.length, files: versions.length, warnings: repository.warnings.length };
}

/** A commit that conflicts with the space's edits, as a new change request from the revision last synced: nothing is lost, a person merges it. */
async function importAsChangeRequest(
  tx: RequestContext,
  data: ImportGitData,
  organizationId: string,
  target: { baseRevisionId: string; subject: string },
  draft: { base: PageTree; pages: PageDraft[]; storeBodies: (tx: RequestContext) => Promise<void>; versions: FileVersionDraft[]; commit: string },
) {
  const counted = await tx.db.space.update({
    where: { id: data.spaceId },
    data: { changeRequestNumber: { increment: 1 } },
    select: { changeRequestNumber: true },
  });
  const changeRequest = await tx.db.changeRequest.create({
    data: {
      id: newId('changeRequest'),
      spaceId: data.spaceId,
      number: counted.changeRequestNumber,
      status: 'open',
      subject: target.subject,
      createdById: data.userId,
      revisionId: target.baseRevisionId,
      revisionInitialId: target.baseRevisionId,
      revisionMergedAncestorId: target.baseRevisionId,
    },
  });
  await draft.storeBodies(tx);
  const now = tx.clock.now();
  if (draft.versions.length) {
    await tx.db.fileVersion.createMany({ data: draft.versions.map((version) => ({ ...version, spaceId: data.spaceId, createdAt: now })) });
  }
  const revisionId = await writeRevision(tx, {
    spaceId: data.spaceId,
    changeRequestId: changeRequest.id,
    type: 'edits',
    parents: [target.baseRevisionId],
    base: draft.base,
    pages: draft.pages,
    addedFiles: new Map(draft.versions.map((version) => [version.fileId, version.id])),
  });
  await tx.db.revision.update({ where: { id: revisionId }, data: { gitCommit: draft.commit } });
  await tx.db.changeRequest.update({ where: { id: changeRequest.id }, data: { revisionId } });
  await recountChangeRequests(tx, data.spaceId);
  auditWrite(tx, {
    action: 'change_request.create',
    organizationId,
    target: changeRequestTarget(changeRequest),
    payload: { source: 'git', commit: draft.commit },
    actor: { id: data.userId },
  });
  emitEvent(tx, { kind: 'change_request.opened', organizationId, spaceId: data.spaceId, changeRequestId: changeRequest.id, subjectId: changeRequest.id });
  return { revisionId, changeRequestId: changeRequest.id as string | null };
}

/** Spooled bodies stored per slice: what the transaction holds at once. */
const BODY_SLICE = 100;

/** Stores spooled bodies (each once) a slice at a time: their text, structures and links are dropped after each slice. */
async function storeSpooledDocuments(tx: RequestContext, spaceId: string, spool: Spool, bodies: Iterable<SpooledText & { documentId: string }>) {
  const unique = [...new Map([...bodies].map((body) => [body.documentId, body])).values()];
  for (let start = 0; start < unique.length; start += BODY_SLICE) {
    const prepared = await Promise.all(unique.slice(start, start + BODY_SLICE).map(async (body) => JSON.parse(await spool.read(body)) as PreparedDocument));
    await storePreparedDocuments(tx, spaceId, prepared);
  }
}

function samePage(before: PageState, after: PageDraft): boolean {
  return (
    before.title === after.title &&
    before.slug === after.slug &&
    before.documentId === after.documentId &&
    before.parentId === after.parentId &&
    before.description === after.description &&
    before.hidden === after.hidden
  );
}

/** A revision's pages as the layout writes them: fields and children; their bodies are read as each is written (bodiesInOrder). */
export function layoutOf(tree: PageTree): LayoutPage[] {
  const build = (parentId: string | null): LayoutPage[] => {
    const out: LayoutPage[] = [];
    for (const page of tree.children.get(parentId) ?? []) {
      out.push({
        pageId: page.pageId,
        type: page.type,
        title: page.title,
        slug: page.slug,
        fields: {
          ...(page.description ? { description: page.description } : {}),
          ...(page.emoji ? { emoji: page.emoji } : {}),
          ...(page.icon ? { icon: page.icon } : {}),
          ...(page.hidden ? { hidden: true } : {}),
          ...(page.noIndex ? { noIndex: true } : {}),
          ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
          ...(page.condition ? { condition: page.condition } : {}),
          ...(page.layout && Object.keys(page.layout).length ? { layout: page.layout } : {}),
          ...(page.cover ? { cover: page.cover } : {}),
          ...(page.variables && Object.keys(page.variables).length ? { variables: page.variables } : {}),
        } as LayoutPage['fields'],
        target: page.target,
        markdown: '',
        children: build(page.pageId),
      });
    }
    return out;
  };
  return build(null);
}

/** Files an import reads and stores at once (each holds its bytes meanwhile). */
const FILES_IN_FLIGHT = 4;

/** Bodies per statement when an export reads them: what it holds at once. */
const EXPORT_BODY_SLICE = 100;

/**
 * A revision's page bodies as their structured documents (parsed when they were stored: src/domain/content/bodies.ts),
 * read in the order the layout writes its pages (depth first), a slice per statement: only the current slice is held
 * (a request's loader would keep every body). A large one stays its JSON text, parsed on the pool that writes it.
 */
function documentsInOrder(ctx: RequestContext, tree: PageTree): (page: LayoutPage) => Promise<JSONDocument | string | null> {
  const order: string[] = [];
  const first = new Map<string, number>();
  const walk = (parentId: string | null) => {
    for (const page of tree.children.get(parentId) ?? []) {
      if (page.type === 'document' && page.documentId) {
        if (!first.has(page.documentId)) first.set(page.documentId, order.length);
        order.push(page.documentId);
      }
      walk(page.pageId);
    }
  };
  walk(null);
  let slice = new Map<string, JSONDocument | string>();
  return async (page) => {
    const documentId = tree.pages.get(page.pageId)?.documentId;
    if (!documentId) return null;
    if (!slice.has(documentId)) {
      const from = first.get(documentId) ?? 0;
      slice = await readStructuresLeavingLarge(ctx, [...new Set([documentId, ...order.slice(from, from + EXPORT_BODY_SLICE)])]);
    }
    return slice.get(documentId) ?? null;
  };
}

async function exportBranch(ctx: RequestContext, data: ExportGitData) {
  const options = engineOptions(ctx, data);
  const { gitdir, commit: parent } = await fetchBranch(options);
  const written = await exportCommit(ctx, data, gitdir, parent);
  if (written.changed) await pushCommit({ ...options, gitdir }, written.commit);
  return written;
}

/** The space's live content as a commit on top of `parent`, written in the cache (not pushed). */
export async function exportCommit(ctx: RequestContext, data: ExportGitData, gitdir: string, parent: string | null) {
  const options = engineOptions(ctx, data);
  const space = await ctx.db.space.findUniqueOrThrow({ where: { id: data.spaceId } });
  const tree = await loadPageTree(ctx, space.revisionId);
  const files = await revisionFiles(ctx, space.revisionId);
  // The repository's own .gitbook.yaml says where the content goes.
  let configText: string | undefined;
  if (parent) {
    const existing = (await filesOfCommit(gitdir, parent, data.projectDirectory)).find((file) => file.path === '.gitbook.yaml' || file.path === '.gitbook.yml');
    if (existing) configText = new TextDecoder().decode(await existing.read());
  }
  const config = readConfig(configText);
  // Each page's text goes to a blob as it is written: the commit is built from ids, not from the repository's text.
  const written = await writeRepository({ pages: layoutOf(tree), files: files.map((file) => ({ fileId: file.fileId, name: file.version.name })) }, config, {
    documentOf: documentsInOrder(ctx, tree),
    // Past its budget the export fails, naming the task (a 400 in the sync state).
    renderLarge: (body, file, paths) => runTask('render-markdown', { ...body, headingOffset: 1, file, paths }, { budgetMs: parseBudgetMs() }),
    store: (text: string) => writeTextBlob(gitdir, text),
  });
  const sha = new Map(files.map((file) => [file.fileId, file.version.sha256]));
  const user = await ctx.db.user.findUnique({ where: { id: data.userId }, select: { displayName: true, email: true } });
  const pushed = await commitFiles({
    ...options,
    gitdir,
    parent,
    projectDirectory: data.projectDirectory,
    files: written,
    bytesOf: async (fileId) => {
      const bytes = await ctx.storage?.get(sha.get(fileId)!);
      if (!bytes) throw new Error(`the bytes of file ${fileId} are missing from the file storage`);
      return bytes;
    },
    owned: (filePath) => ownedPath(config, filePath),
    message: data.commitMessage,
    author: {
      name: user?.displayName || 'docs-gateway',
      email: user?.email || 'docs-gateway@localhost',
      timestamp: Math.floor(ctx.clock.now().getTime() / 1000),
    },
  });
  return { commit: pushed.commit, changed: pushed.changed, files: written.length, revisionId: space.revisionId };
}
