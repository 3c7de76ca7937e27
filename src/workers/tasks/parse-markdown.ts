import { markdownFromDocumentInput } from '../../domain/content/document-input.ts';
import { documentFromMarkdown } from '../../domain/content/model/from-markdown.ts';
import { markdownFromDocument } from '../../domain/content/model/to-markdown.ts';
import type { JSONDocument } from '../../domain/content/model/nodes.ts';
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

/** A structured document written as Markdown (a Git import's large bodies, once their links are resolved). */
export function renderMarkdown({ document }: { document: JSONDocument }): string {
  return markdownFromDocument(document);
}
