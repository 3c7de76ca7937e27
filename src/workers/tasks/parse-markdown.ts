import { documentFromMarkdown } from '../../domain/content/model/from-markdown.ts';
import type { JSONDocument } from '../../domain/content/model/nodes.ts';
import { withBlockKeys } from '../../domain/content/model/text.ts';

/**
 * A page body's Markdown read into its structured document, top-level blocks keyed
 * (src/domain/content/bodies.ts). The content model is pure (no I/O, no context), the
 * one part of the domain a worker may run: its cost grows with the page.
 */
export function parseMarkdown({ markdown }: { markdown: string }): JSONDocument {
  return withBlockKeys(documentFromMarkdown(markdown));
}
