import { markdownFromDocumentInput } from '../../domain/content/model/document-input.ts';
import { documentFromMarkdown } from '../../domain/content/model/from-markdown.ts';
import { markdownFromDocument } from '../../domain/content/model/to-markdown.ts';
import type { JSONDocument } from '../../domain/content/model/nodes.ts';
import { type RepositoryPaths, repositoryHrefOf } from '../../domain/content/model/repository-hrefs.ts';
import { withBlockKeys } from '../../domain/content/model/text.ts';

/**
 * A page body's Markdown read into its structured document, top-level blocks keyed
 * (src/domain/content/bodies.ts). The content model is pure (no I/O, no context), the
 * one part of the domain a worker may run: its cost grows with the page.
 */
export function parseMarkdown({ markdown, headingOffset }: { markdown: string; headingOffset?: number }): JSONDocument {
  return withBlockKeys(documentFromMarkdown(markdown, headingOffset ? { headingOffset } : {}));
}

/** A client's structured document checked (a DomainError naming `field` when it is not valid) and written as Markdown. */
export function markdownOfDocumentInput({ input, field }: { input: unknown; field: string }): string {
  return markdownFromDocumentInput(input, field);
}

/**
 * A structured document written as Markdown, given parsed or as its JSON text (parsed here, off the
 * event loop): a Git import's large bodies once their links are resolved, an export's with its
 * references pointing at the repository's files (`file`, the one it is written to, and `paths`).
 */
export function renderMarkdown({
  document,
  structure,
  headingOffset,
  file,
  paths,
}: {
  document?: JSONDocument;
  structure?: string;
  headingOffset?: number;
  file?: string;
  paths?: RepositoryPaths;
}): string {
  const parsed = document ?? (JSON.parse(structure!) as JSONDocument);
  return markdownFromDocument(parsed, {
    ...(headingOffset ? { headingOffset } : {}),
    ...(file && paths ? { hrefOf: repositoryHrefOf(file, paths) } : {}),
  });
}
