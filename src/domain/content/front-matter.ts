import { dump } from 'js-yaml';
import { CST, type Document, Lexer, isAlias, isMap, isPair, isScalar, parseDocument, visit } from 'yaml';
import { z } from 'zod';
import { invalid } from '../../errors.ts';
import { MAX_PAGE_VARIABLES, type PageCover, type PageLayout, type PageVariables, coverAddress, pageFields, variableName, variableValue } from './inputs.ts';
import type { PageState } from './tree.ts';

/**
 * YAML front matter of a page's markdown (`---` lines around it, at the very
 * top), with the keys GitBook writes in a Git repository: on input it sets the
 * page's fields, taking precedence over the same fields of the change (as the
 * official RevisionPageUpdate says); on output the page's fields that differ
 * from their defaults are written back into it, so that markdown read and
 * written again keeps them. The title is the page's own field, read from front
 * matter but never written there.
 */

// Both fences stand alone on their line, so a value ending in " ---" does not close it, and the first such
// line closes it (`??`: even right after the opening one). The blank line after the closing `---` belongs to
// it: what withFrontMatter writes reads back the same.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)??---[ \t]*(?:\r?\n(?:[ \t]*\r?\n)?|$)/;

/**
 * Front matter is bounded before it is parsed, so that what it costs to read
 * stays small whatever a client sends: its length, and its keys and list items
 * (counted by YAML's tokenizer, which stops at the first one over).
 */
export const FRONT_MATTER_LIMITS = { maxCharacters: 16_384, maxEntries: 500, maxAliases: 100 } as const;

/** The tokens that open a key or a list item (`:`, `?`, `-`, `,`, `{`, `[`): at least as many as there are keys and items. */
const ENTRY_TOKENS = new Set<string | null>(['map-value-ind', 'explicit-key-ind', 'seq-item-ind', 'comma', 'flow-map-start', 'flow-seq-start']);

/** Explicit YAML tags that only say what the value already is: any other tag (`!!js/function`, `!custom`) is refused. */
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

/** A page's fields as front matter sets them: the content batch's names and rules (inputs.ts). */
export interface FrontMatter {
  title?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
  layout?: PageLayout;
  cover?: PageCover;
  variables?: PageVariables;
}

/**
 * How unknown keys and invalid values are taken: `strict` (the content batch)
 * refuses the page with a 400 naming the first; `repository` (content from a
 * repository or a site: Git sync, imports) leaves them out and reports each as a
 * warning, so the page is still written. Either way a front matter that is not
 * YAML, too large, with a duplicate key or a tag is refused.
 */
export interface FrontMatterOptions {
  mode?: 'strict' | 'repository';
}

export interface SplitFrontMatter {
  fields: FrontMatter;
  body: string;
  /** Keys and values left out (repository mode), each as `<field>: front matter.<key>: <why>`. */
  warnings: string[];
}

/** A mapping of names chosen by its writer (variables), each name and value checked on its own. */
class NamedValues {
  constructor(
    readonly name: z.ZodType,
    readonly value: z.ZodType,
    readonly max: number,
  ) {}
}

// What a key holds: a rule for its value, the keys of a mapping, or names of its writer's.
type KeySpec = { [key: string]: z.ZodType | NamedValues | KeySpec };

const visible = { visible: z.boolean() };
/** GitBook's `layout:` (its page options), as it writes them. */
const LAYOUT_KEYS: KeySpec = {
  width: z.enum(['default', 'wide'], { error: 'must be default or wide' }),
  cover: {
    visible: z.boolean(),
    size: z.enum(['hero', 'full', 'background'], { error: 'must be hero, full or background' }),
    mask: z.enum(['none', 'radial'], { error: 'must be none or radial' }),
  },
  title: visible,
  description: visible,
  tableOfContents: visible,
  outline: visible,
  pagination: visible,
  metadata: visible,
  tags: visible,
  actions: visible,
  anchors: visible,
};
/** The keys of a page's front matter: GitBook's, and `title` and `emoji`, which are this server's. */
const FRONT_MATTER_KEYS: KeySpec = {
  title: pageFields.title.unwrap(),
  description: pageFields.description.unwrap(),
  emoji: pageFields.emoji.unwrap(),
  icon: pageFields.icon.unwrap(),
  hidden: z.boolean(),
  noIndex: z.boolean(),
  noRobotsIndex: z.boolean(),
  if: pageFields.condition.unwrap(),
  cover: z.union([coverAddress, z.strictObject({ light: coverAddress.optional(), dark: coverAddress.optional() })], {
    error: 'must be the address or path of an image, or its light and dark variants ({light, dark})',
  }),
  coverY: z.number().finite(),
  coverHeight: z.number().min(10).max(700),
  layout: LAYOUT_KEYS,
  vars: new NamedValues(variableName, variableValue, MAX_PAGE_VARIABLES),
};

/** The parts of a page GitBook's `layout:` shows or hides (`<part>: {visible}`), in the order it writes them: official layout options of the same names. */
const LAYOUT_VISIBILITY = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'] as const;

/** Markdown split into its front matter (`field` names it in errors) and its body. */
export function splitFrontMatter(markdown: string, field: string, options: FrontMatterOptions = {}): SplitFrontMatter {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) return { fields: {}, body: markdown, warnings: [] };
  const text = match[1] ?? '';
  const data = parseBounded(text, field);
  const warnings: string[] = [];
  const report = (path: string, message: string) => {
    if (options.mode !== 'repository') throw invalid(`${field}: front matter${path}: ${message}`);
    warnings.push(`${field}: front matter${path}: ${message}; left out`);
  };
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) throw invalid(`${field}: front matter must be a mapping of keys (key: value lines)`);
  const read = readKeys(data ?? {}, FRONT_MATTER_KEYS, '', 'a front matter field', report);
  return { fields: pageFieldsOf(read), body: markdown.slice(match[0].length), warnings };
}

/** YAML parsed within the limits, duplicate keys and tags refused, aliases bounded; null when empty. */
function parseBounded(text: string, field: string): unknown {
  if (text.length > FRONT_MATTER_LIMITS.maxCharacters) {
    throw invalid(`${field}: front matter is ${text.length} characters, more than the ${FRONT_MATTER_LIMITS.maxCharacters} it may have`);
  }
  let entries = 0;
  for (const token of new Lexer().lex(text)) {
    if (!ENTRY_TOKENS.has(CST.tokenType(token)) || ++entries <= FRONT_MATTER_LIMITS.maxEntries) continue;
    throw invalid(`${field}: front matter has more than ${FRONT_MATTER_LIMITS.maxEntries} keys and list items`);
  }
  // Duplicate keys are found below in one pass: the parser's own check costs the square of the keys.
  const document = parseDocument(text, { uniqueKeys: false, logLevel: 'silent', prettyErrors: false });
  const [error] = document.errors;
  if (error) throw invalid(`${field}: front matter is not valid YAML (${error.message.split('\n')[0]})`);
  checkNodes(document, field);
  try {
    return document.toJS({ maxAliasCount: FRONT_MATTER_LIMITS.maxAliases }) ?? null;
  } catch (thrown) {
    const message = (thrown as Error).message.split('\n')[0];
    if (/alias count/i.test(message ?? '')) {
      throw invalid(`${field}: front matter repeats its anchors (&name) through aliases (*name) more than the ${FRONT_MATTER_LIMITS.maxAliases} times it may`);
    }
    throw invalid(`${field}: front matter is not valid YAML (${message})`);
  }
}

/** Refuses the first key used twice in a mapping, a key that is not a plain name, and any tag but the plain ones, naming it. */
function checkNodes(document: Document, field: string) {
  visit(document, (_key, node, ancestors) => {
    if (!node) return;
    const where = () => `${field}: front matter${pathOf(ancestors)}`;
    if (isPair(node)) {
      if (!isScalar(node.key)) throw invalid(`${where()}: keys must be plain names, not ${isAlias(node.key) ? 'aliases' : 'collections'}`);
      return;
    }
    const tag = (node as { tag?: string }).tag;
    if (tag !== undefined && !PLAIN_TAGS.has(tag)) throw invalid(`${where()}: the YAML tag ${tag.replace(/^tag:yaml\.org,2002:/, '!!')} is not accepted`);
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (name === undefined) continue;
        if (seen.has(name)) throw invalid(`${where()}: the key "${name}" is there twice`);
        seen.add(name);
      }
    }
  });
}

/** `.a.b` for the keys of the mappings a node is in (empty at the top). */
function pathOf(ancestors: readonly unknown[]): string {
  const keys = ancestors.flatMap((ancestor) => (isPair(ancestor) && isScalar(ancestor.key) ? [String(ancestor.key.value)] : []));
  return keys.map((key) => `.${key}`).join('');
}

/** The keys of a mapping that its spec knows, each valid; every other one reported (and left out). */
function readKeys(value: unknown, spec: KeySpec, path: string, what: string, report: (path: string, message: string) => void): Record<string, unknown> {
  const known = Object.keys(spec);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    report(path, `must be a mapping of ${known.join(', ')}`);
    return {};
  }
  const read: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(spec, key)) {
      report(path, `${key} is not ${what} (${known.join(', ')})`);
      continue;
    }
    const rule = spec[key]!;
    if (rule instanceof z.ZodType) {
      const parsed = rule.safeParse(item);
      if (parsed.success) read[key] = parsed.data;
      else report(`${path}.${key}${parsed.error.issues[0]!.path.map((part) => `.${String(part)}`).join('')}`, parsed.error.issues[0]!.message);
    } else if (rule instanceof NamedValues) {
      read[key] = readNamedValues(item, rule, `${path}.${key}`, report);
    } else {
      read[key] = readKeys(item, rule, `${path}.${key}`, `a key of ${key}`, report);
    }
  }
  return read;
}

function readNamedValues(value: unknown, rule: NamedValues, path: string, report: (path: string, message: string) => void): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    report(path, 'must be a mapping of names to values');
    return {};
  }
  const read: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const problem = rule.name.safeParse(name).error ?? rule.value.safeParse(item).error;
    if (problem) report(`${path}.${name}`, problem.issues[0]!.message);
    else if (Object.keys(read).length >= rule.max) report(`${path}.${name}`, `a page has at most ${rule.max} of them`);
    else read[name] = item;
  }
  return read;
}

/** The page fields of front matter read by its keys. */
function pageFieldsOf(read: Record<string, unknown>): FrontMatter {
  const fields: FrontMatter = {};
  for (const key of ['title', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (key in read) (fields as Record<string, unknown>)[key] = read[key];
  }
  if ('if' in read) fields.condition = read.if as string;
  if ('layout' in read) fields.layout = layoutOf(read.layout as Record<string, Record<string, unknown> | string>);
  if ('cover' in read || 'coverY' in read || 'coverHeight' in read) {
    const image = read.cover as string | { light?: string; dark?: string } | undefined;
    const [light, dark] = typeof image === 'object' ? [image.light, image.dark] : [image, undefined];
    fields.cover = {
      ...(light !== undefined ? { ref: { kind: 'url', url: light } } : {}),
      ...(dark !== undefined ? { refDark: { kind: 'url', url: dark } } : {}),
      yPos: (read.coverY as number | undefined) ?? 0,
      ...('coverHeight' in read ? { height: read.coverHeight as number } : {}),
    };
  }
  if ('vars' in read) fields.variables = read.vars as PageVariables;
  return fields;
}

/** GitBook's `layout:` as the official layout options. */
function layoutOf(layout: Record<string, Record<string, unknown> | string>): PageLayout {
  const options: Record<string, unknown> = {};
  if (layout.width !== undefined) options.width = layout.width;
  const cover = (layout.cover ?? {}) as Record<string, unknown>;
  if (cover.visible !== undefined) options.cover = cover.visible;
  if (cover.size !== undefined) options.coverSize = cover.size;
  if (cover.mask !== undefined) options.coverMask = cover.mask;
  for (const key of LAYOUT_VISIBILITY) {
    const shown = (layout[key] as Record<string, unknown> | undefined)?.visible;
    if (shown !== undefined) options[key] = shown;
  }
  return options as PageLayout;
}

/** The official layout options as GitBook's `layout:`, in the order it writes them. */
function layoutKeysOf(layout: PageLayout): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  if (layout.width !== undefined) keys.width = layout.width;
  const cover = {
    ...(layout.cover !== undefined ? { visible: layout.cover } : {}),
    ...(layout.coverSize !== undefined ? { size: layout.coverSize } : {}),
    ...(layout.coverMask !== undefined ? { mask: layout.coverMask } : {}),
  };
  if (Object.keys(cover).length) keys.cover = cover;
  for (const key of LAYOUT_VISIBILITY) if (layout[key] !== undefined) keys[key] = { visible: layout[key] };
  return keys;
}

type PageFields = Pick<PageState, 'description' | 'emoji' | 'icon' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition' | 'layout' | 'cover' | 'variables'>;

export interface WithFrontMatterOptions {
  /** Keys written first (`title` for text served to readers). */
  extra?: { title?: string };
  /** Whether the page's condition is written (`if:`): not for the readers of a published site, as the official API never shows them one. */
  condition?: boolean;
  /** How a cover that is a file of the content is written: `/files/<file id>` unless said (a Git export writes its path). */
  filePath?: (fileId: string) => string;
}

/** A page's markdown as read: its body, after front matter holding its fields that are not at their defaults. */
export function withFrontMatter(page: PageFields, body: string, options: WithFrontMatterOptions = {}): string {
  const { extra = {}, condition = true, filePath = (fileId: string) => `/files/${fileId}` } = options;
  const cover = page.cover as PageCover | null;
  const address = (ref: NonNullable<PageCover['ref']>) => (ref.kind === 'file' ? filePath(ref.file) : ref.url);
  const fields = {
    ...extra,
    ...(page.description ? { description: page.description } : {}),
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.hidden ? { hidden: true } : {}),
    ...(page.noIndex ? { noIndex: true } : {}),
    ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    ...(condition && page.condition ? { if: page.condition } : {}),
    ...(cover
      ? {
          ...(cover.refDark
            ? { cover: { ...(cover.ref ? { light: address(cover.ref) } : {}), dark: address(cover.refDark) } }
            : cover.ref
              ? { cover: address(cover.ref) }
              : {}),
          coverY: cover.yPos ?? 0,
          ...(cover.height !== undefined ? { coverHeight: cover.height } : {}),
        }
      : {}),
    ...(page.layout && Object.keys(page.layout).length ? { layout: layoutKeysOf(page.layout as PageLayout) } : {}),
    // By name, in code point order: PostgreSQL keeps JSON objects in an order of its own.
    ...(page.variables && Object.keys(page.variables).length
      ? { vars: Object.fromEntries(Object.entries(page.variables).sort(([a], [b]) => (a < b ? -1 : 1))) }
      : {}),
  };
  if (Object.keys(fields).length) return `---\n${dump(fields, { lineWidth: 80, noRefs: true })}---\n\n${body}`;
  // A body opening with a thematic break (a divider) would be read back as front matter: an empty one goes first.
  return FRONT_MATTER.test(body) ? `---\n---\n\n${body}` : body;
}
