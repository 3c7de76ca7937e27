import { markdownFromDocumentInput } from '../../domain/content/model/document-input.ts';
import { documentFromMarkdown } from '../../domain/content/model/from-markdown.ts';
import { markdownFromDocument } from '../../domain/content/model/to-markdown.ts';
import type { JSONDocument, Ref } from '../../domain/content/model/nodes.ts';
import { hrefOfRef } from '../../domain/content/model/references.ts';
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
 * A structured document written as Markdown: a Git import's large bodies once their links are
 * resolved, an export's with the address of each reference it holds (`hrefs`, by the reference's
 * JSON; others as the model writes them).
 */
export function renderMarkdown({ document, headingOffset, hrefs }: { document: JSONDocument; headingOffset?: number; hrefs?: Record<string, string> }): string {
  return markdownFromDocument(document, {
    ...(headingOffset ? { headingOffset } : {}),
    ...(hrefs ? { hrefOf: (ref: Ref) => hrefs[JSON.stringify(ref)] ?? hrefOfRef(ref) } : {}),
  });
}
