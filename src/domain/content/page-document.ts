import type { RequestContext } from '../../context.ts';
import { structureOf } from './bodies.ts';
import type { DocumentReading } from './inputs.ts';
import { revisionFilesByName } from './links.ts';
import { loader } from '../loaders.ts';
import type { Block, JSONDocument } from './model/nodes.ts';
import { hasRelativeReferences, resolveReferences, servable } from './model/references.ts';
import { headingAnchor } from './model/text.ts';
import { textOf } from './model/nodes.ts';
import type { PageState, PageTree } from './tree.ts';

/** A page body in the official structured form (JSONDocument). */
export interface PageDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Array<Record<string, unknown>>;
}

/**
 * A page's body as the official JSONDocument, read as `reading` asks: the one
 * place a page's document is made, for every read that answers one (REST
 * `.../revisions/{revisionId}/page/{pageId}/document`, `format=document` of the
 * page reads, GraphQL `Page.document`). A group or a link has no body: its
 * document is empty.
 *
 * The document is the body's kept structure (./bodies.ts), with the references
 * it makes by relative path (`../guides/install.md`, `.gitbook/assets/a.png`)
 * resolved in `tree`, the revision the page is read in.
 */
export async function pageDocument(ctx: RequestContext, tree: PageTree, page: PageState, reading: DocumentReading = {}): Promise<PageDocument> {
  const structure = await structureOf(ctx, page.type === 'document' ? page.documentId : null);
  const document = servable(await resolvedIn(ctx, tree, page, structure));
  return (reading.evaluated ? evaluated(document) : document) as unknown as PageDocument;
}

/** A document with its relative references resolved against the pages and files of the revision of `tree`. */
async function resolvedIn(ctx: RequestContext, tree: PageTree, page: PageState, document: JSONDocument): Promise<JSONDocument> {
  if (!hasRelativeReferences(document)) return document;
  const fileIdsByName = await loader(ctx, revisionFilesByName).load(tree.revisionId);
  const pageIdsByPath = new Map([...tree.paths].map(([pageId, path]) => [path, pageId]));
  return resolveReferences(document, {
    ...placeOf(tree, page),
    pageByPath: (path) => pageIdsByPath.get(path),
    fileByName: (name) => fileIdsByName.get(name),
  });
}

/** Where a page is, for resolving the relative paths its body holds: its path, and whether pages are under it. */
export function placeOf(tree: PageTree, page: PageState): { pagePath: string; pageHasChildren: boolean } {
  return { pagePath: tree.paths.get(page.pageId) ?? page.slug, pageHasChildren: (tree.children.get(page.pageId)?.length ?? 0) > 0 };
}

/**
 * What evaluating a document computes here: the anchor of each heading
 * (`meta.id`, as renderers link to sections and build a page's outline), its
 * `data.id` when it has one, else a slug of its text, unique in the page - the
 * anchors search gives its sections. The stored documents hold no expressions
 * (no variables; conditional blocks are kept as they are): evaluating only
 * deterministic inputs (`deterministic-only`) is the same.
 */
function evaluated(document: JSONDocument): JSONDocument {
  const taken = new Map<string, number>();
  const walk = (nodes: Block[]): Block[] =>
    nodes.map((node) => {
      if (node.object !== 'block') return node;
      if (/^heading-[1-3]$/.test(node.type)) return { ...node, meta: { ...(node.meta ?? {}), id: headingAnchor(node, textOf(node).trim(), taken) } };
      return node.nodes ? { ...node, nodes: walk(node.nodes as Block[]) } : node;
    });
  return { ...document, nodes: walk(document.nodes) };
}
