import { stringify, parse } from 'yaml';
import { z } from 'zod';
import { invalid } from '../../errors.ts';
import { emoji } from '../shared/schemas.ts';
import type { PageState } from './tree.ts';

/**
 * YAML front matter of a page's markdown (`---` lines around it, at the very
 * top): on input it sets the page's fields, taking precedence over the same
 * fields of the change (as the official RevisionPageUpdate says); on output
 * the page's fields that differ from their defaults are written back into it,
 * so that markdown read and written again keeps them. The title is the page's
 * own field, read from front matter but never written there.
 */

// Both fences stand alone on their line, so a value ending in " ---" does not close it, and the first such
// line closes it (`??`: even right after the opening one). The blank line after the closing `---` belongs to
// it: what withFrontMatter writes reads back the same.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)??---[ \t]*(?:\r?\n(?:[ \t]*\r?\n)?|$)/;

/** The fields front matter may set, with the rules of the same change fields (src/domain/content/inputs.ts). */
const FrontMatterFields = z.strictObject({
  title: z.string().min(1).max(255).optional(),
  description: z.string().max(1000).optional(),
  emoji: z.union([emoji, z.literal('')]).optional(),
  icon: z.string().max(50).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
});

export type FrontMatter = z.output<typeof FrontMatterFields>;

/** Markdown split into its front matter (validated; `field` names it in errors) and its body. */
export function splitFrontMatter(markdown: string, field: string): { fields: FrontMatter; body: string } {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) return { fields: {}, body: markdown };
  let data: unknown;
  try {
    data = parse(match[1] ?? '') ?? {};
  } catch (error) {
    throw invalid(`${field}: front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = FrontMatterFields.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.length ? `.${issue.path.join('.')}` : '';
    const rule =
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')} is not a front matter field (title, description, emoji, icon, hidden, noIndex, noRobotsIndex)`
        : issue.message;
    throw invalid(`${field}: front matter${key}: ${rule}`);
  }
  return { fields: parsed.data, body: markdown.slice(match[0].length) };
}

type PageFields = Pick<PageState, 'description' | 'emoji' | 'icon' | 'hidden' | 'noIndex' | 'noRobotsIndex'>;

/** A page's markdown as read: its body, after front matter holding its fields that are not at their defaults. */
export function withFrontMatter(page: PageFields, body: string, extra: FrontMatter = {}): string {
  const fields = {
    ...extra,
    ...(page.description ? { description: page.description } : {}),
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    ...(page.hidden ? { hidden: true } : {}),
    ...(page.noIndex ? { noIndex: true } : {}),
    ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
  };
  if (Object.keys(fields).length) return `---\n${stringify(fields)}---\n\n${body}`;
  // A body opening with a thematic break (a divider) would be read back as front matter: an empty one goes first.
  return FRONT_MATTER.test(body) ? `---\n---\n\n${body}` : body;
}
