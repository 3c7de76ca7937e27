import { z } from 'zod';
import { openApiComponent } from '../../lib/openapi-components.ts';
import { TEXT_COLORS } from './model/nodes.ts';

/**
 * The structured document (the official `JSONDocument`) as this server answers
 * it (`format=document`, the content model of ./model/) and takes it in a
 * content change (./document-input.ts checks it node by node, against the
 * official schema, and says which node is wrong): described once, as zod
 * schemas that /v1/openapi.json defines as components under the official names
 * and references everywhere, answers and inputs alike.
 *
 * The recursion has two hubs: `DocumentBlock`, the union of every block type,
 * and `DocumentInline`, of every inline type. Whatever holds blocks refers to
 * the first, never to a union of its own: the official schemas' many
 * overlapping unions (DocumentBlocksTopLevels, DocumentBlocksEssentials, ...)
 * make cycles that reference tools follow forever (Swagger UI never opened an
 * operation answering a document). Which blocks a container may hold is the
 * official schema's rule, which every document served keeps
 * (./model/containers.ts); this description does not repeat it.
 *
 * A node type is added as a schema registered with `openApiComponent` under
 * its official name, then listed in its hub.
 */

export const DOCUMENT_MARK_TYPES = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'] as const;
const key = z.string().describe('Identifies the node; top-level blocks have keys derived from their content, which comments name');

export const ContentRef = openApiComponent(
  'ContentRef',
  z
    .union([
      z.object({
        kind: z.literal('url'),
        url: z.string().describe('An address, or a path relative to the page not (yet) naming a page or file of the revision'),
      }),
      z.object({ kind: z.literal('page'), page: z.string().describe('The id of a page of the same space'), space: z.string().optional() }),
      z.object({ kind: z.literal('file'), file: z.string().describe('The id of a file of the same space'), space: z.string().optional() }),
      z.object({
        kind: z.literal('anchor'),
        anchor: z.string().describe('A heading anchor'),
        page: z.string().optional().describe('The page it is in (the same page when absent)'),
        space: z.string().optional(),
      }),
      z.object({ kind: z.literal('openapi'), spec: z.string().describe("The slug of one of the organization's OpenAPI specs") }),
    ])
    .describe('What a link, an image or a block refers to: a URL, a page, a file, an anchor, an OpenAPI spec'),
);

export const DocumentTextMark = openApiComponent(
  'DocumentTextMark',
  z
    .object({
      object: z.literal('mark').optional(),
      type: z.enum(DOCUMENT_MARK_TYPES),
      data: z
        .object({ text: z.enum(TEXT_COLORS), background: z.enum(TEXT_COLORS) })
        .optional()
        .describe('The colors of a color mark'),
    })
    .describe('A mark on a run of text: bold, italic, strikethrough, code, keyboard, superscript, subscript, or color'),
);

export const DocumentTextLeaf = openApiComponent(
  'DocumentTextLeaf',
  z
    .object({ object: z.literal('leaf').optional(), text: z.string(), marks: z.array(DocumentTextMark).optional() })
    .describe('A run of text with the same marks'),
);

export const DocumentText = openApiComponent(
  'DocumentText',
  z.object({ object: z.literal('text'), key: key.optional(), leaves: z.array(DocumentTextLeaf) }).describe('Text: its runs (leaves)'),
);

/** An inline of `type` with its `data` (void: no nodes). */
function voidInlineOf<const T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({ object: z.literal('inline'), type: z.literal(type), key: key.optional(), isVoid: z.boolean().optional(), data });
}

const imageData = {
  ref: ContentRef,
  refDark: ContentRef.optional().describe('The image shown in dark mode'),
  alt: z.string().optional(),
};

export const DocumentInlineImage = openApiComponent(
  'DocumentInlineImage',
  voidInlineOf(
    'inline-image',
    z.object({ ...imageData, caption: z.string().optional(), size: z.enum(['original', 'line']).optional().describe('line: as high as the text') }),
  ).describe('An image in text'),
);
export const DocumentInlineMath = openApiComponent(
  'DocumentInlineMath',
  voidInlineOf('inline-math', z.object({ formula: z.string().describe('TeX') })).describe('A formula in text (`$$…$$`)'),
);
export const DocumentInlineEmoji = openApiComponent(
  'DocumentInlineEmoji',
  voidInlineOf('emoji', z.object({ code: z.string().describe('Its code points in hex, joined by dashes (`1f680`)') })).describe('An emoji'),
);
export const DocumentInlineIcon = openApiComponent(
  'DocumentInlineIcon',
  voidInlineOf('icon', z.object({ icon: z.string(), color: z.enum(TEXT_COLORS).optional() })).describe('An icon (`<i class="fa-…">`)'),
);
export const DocumentInlineButton = openApiComponent(
  'DocumentInlineButton',
  voidInlineOf('button', z.object({ label: z.string(), kind: z.enum(['primary', 'secondary']), ref: ContentRef })).describe(
    'A button linking somewhere (`<a class="button primary">`)',
  ),
);
export const DocumentInlineLink = openApiComponent(
  'DocumentInlineLink',
  z
    .object({
      object: z.literal('inline'),
      type: z.literal('link'),
      key: key.optional(),
      isVoid: z.boolean().optional(),
      data: z.object({ ref: ContentRef }),
      nodes: z.array(z.union([DocumentText, DocumentInlineImage])),
    })
    .describe('A link to a URL, a page, an anchor or a file'),
);

/** The hub of inlines: what a paragraph, a heading or a caption holds besides text. */
export const DocumentInline = openApiComponent(
  'DocumentInline',
  z
    .discriminatedUnion('type', [DocumentInlineLink, DocumentInlineImage, DocumentInlineMath, DocumentInlineEmoji, DocumentInlineIcon, DocumentInlineButton])
    .describe('An inline: a link, an image, a formula, an emoji, an icon or a button'),
);

/** Text and inlines: what a paragraph or a heading holds. */
const inlines = z.array(z.union([DocumentText, DocumentInline]));

/** A block of `type` (or one of `type`s) with its `data` and `nodes`. */
function blockOf<const T extends readonly [string, ...string[]], D extends z.ZodType, N extends z.ZodType>(types: T, data: D, nodes: N) {
  return z.object({
    object: z.literal('block'),
    type: types.length === 1 ? z.literal(types[0]) : z.enum(types),
    key: key.optional(),
    isVoid: z.boolean().optional(),
    data: data.optional(),
    nodes,
  });
}

/** A block of `type` that holds blocks (the hub, named by a getter: it is defined below). */
function containerOf<const T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    object: z.literal('block'),
    type: z.literal(type),
    key: key.optional(),
    isVoid: z.boolean().optional(),
    data: data.optional(),
    get nodes() {
      return z.array(DocumentBlock);
    },
  });
}

/** A void block of `type` with its `data`. */
function voidBlockOf<const T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({ object: z.literal('block'), type: z.literal(type), key: key.optional(), isVoid: z.boolean().optional(), data });
}

export const DocumentFragment = openApiComponent(
  'DocumentFragment',
  z
    .object({
      object: z.literal('fragment'),
      fragment: z.string().describe('Its name: `caption`, `expandable-title`, `expandable-body`, or the name a table cell gives'),
      type: z.string().optional(),
      key: key.optional(),
      get nodes() {
        return z.array(DocumentBlock);
      },
    })
    .describe("Blocks a void block holds apart from its data: an image's caption, an expandable's title and body, a table's text cells"),
);

const noData = z.object({});
const align = z.enum(['start', 'center', 'end']).optional();
const length = z.union([z.number(), z.object({ unit: z.string(), value: z.number() })]);

export const DocumentBlockHeading = openApiComponent(
  'DocumentBlockHeading',
  blockOf(['heading-1', 'heading-2', 'heading-3'], z.object({ id: z.string().optional().describe('Its anchor, when set'), align }), inlines).describe(
    'A heading (`#` to `###` in Markdown; deeper ones are heading-3)',
  ),
);
export const DocumentBlockParagraph = openApiComponent('DocumentBlockParagraph', blockOf(['paragraph'], z.object({ align }), inlines).describe('A paragraph'));
export const DocumentBlockCodeLine = openApiComponent(
  'DocumentBlockCodeLine',
  blockOf(['code-line'], noData, z.array(DocumentText)).describe('A line of code'),
);
export const DocumentBlockCode = openApiComponent(
  'DocumentBlockCode',
  blockOf(
    ['code'],
    z.object({
      syntax: z.string().optional().describe('The language, as a fenced block names it'),
      title: z.string().optional(),
      overflow: z.enum(['scroll', 'wrap']).optional(),
      lineNumbers: z.boolean().optional(),
      fullWidth: z.boolean().optional(),
      expandable: z.boolean().optional(),
    }),
    z.array(DocumentBlockCodeLine),
  ).describe('A block of code, one node per line (`{% code title … %}` around a fence)'),
);
export const DocumentBlockDivider = openApiComponent('DocumentBlockDivider', voidBlockOf('divider', noData).describe('A divider'));
export const DocumentBlockQuote = openApiComponent('DocumentBlockQuote', containerOf('blockquote', noData).describe('A quote'));
export const DocumentBlockListItem = openApiComponent(
  'DocumentBlockListItem',
  containerOf('list-item', z.object({ checked: z.boolean().optional().describe('Whether the task is done (items of list-tasks)') })).describe(
    'An item of a list: blocks',
  ),
);
export const DocumentBlockListOrdered = openApiComponent(
  'DocumentBlockListOrdered',
  blockOf(
    ['list-ordered'],
    z.object({ start: z.number().int().optional().describe('The number of the first item (1 when absent)') }),
    z.array(DocumentBlockListItem),
  ).describe('A numbered list'),
);
export const DocumentBlockListUnordered = openApiComponent(
  'DocumentBlockListUnordered',
  blockOf(['list-unordered'], noData, z.array(DocumentBlockListItem)).describe('A bulleted list'),
);
export const DocumentBlockListTasks = openApiComponent(
  'DocumentBlockListTasks',
  blockOf(['list-tasks'], noData, z.array(DocumentBlockListItem)).describe('A task list'),
);
export const DocumentBlockHint = openApiComponent(
  'DocumentBlockHint',
  containerOf('hint', z.object({ style: z.enum(['info', 'success', 'warning', 'danger']), icon: z.string().optional() })).describe(
    'A hint (`{% hint style %}`)',
  ),
);
export const DocumentBlockTabsItem = openApiComponent(
  'DocumentBlockTabsItem',
  containerOf('tabs-item', z.object({ title: z.string().optional() })).describe('A tab (`{% tab title %}`)'),
);
export const DocumentBlockTabs = openApiComponent(
  'DocumentBlockTabs',
  blockOf(['tabs'], z.object({ fullWidth: z.boolean().optional() }), z.array(DocumentBlockTabsItem)).describe('Tabs (`{% tabs %}`)'),
);
export const DocumentBlockStepperStep = openApiComponent('DocumentBlockStepperStep', containerOf('stepper-step', noData).describe('A step (`{% step %}`)'));
export const DocumentBlockStepper = openApiComponent(
  'DocumentBlockStepper',
  blockOf(['stepper'], noData, z.array(DocumentBlockStepperStep)).describe('Steps (`{% stepper %}`)'),
);
export const DocumentBlockColumn = openApiComponent(
  'DocumentBlockColumn',
  containerOf('column', z.object({ width: length.optional(), verticalAlignment: z.enum(['top', 'middle', 'bottom']).optional() })).describe(
    'A column (`{% column width %}`)',
  ),
);
export const DocumentBlockColumns = openApiComponent(
  'DocumentBlockColumns',
  blockOf(['columns'], z.object({ fullWidth: z.boolean().optional() }), z.array(DocumentBlockColumn)).describe('Columns (`{% columns %}`)'),
);
export const DocumentBlockIf = openApiComponent(
  'DocumentBlockIf',
  containerOf('if', z.object({ expression: z.string() })).describe('Content shown when an expression holds (`{% if … %}`)'),
);
export const DocumentBlockUpdate = openApiComponent(
  'DocumentBlockUpdate',
  containerOf('update', z.object({ date: z.string().describe('When (a timestamp)') })).describe('An update (`{% update date %}`)'),
);
export const DocumentBlockUpdates = openApiComponent(
  'DocumentBlockUpdates',
  blockOf(['updates'], z.object({ format: z.enum(['numeric', 'full', 'short']) }), z.array(DocumentBlockUpdate)).describe('Updates (`{% updates %}`)'),
);
export const DocumentBlockExpandable = openApiComponent(
  'DocumentBlockExpandable',
  voidBlockOf('expandable', z.object({ defaultExpanded: z.boolean().optional() }))
    .extend({ fragments: z.array(DocumentFragment).describe('Its title (`expandable-title`) and body (`expandable-body`)') })
    .describe('An expandable block (`<details><summary>`)'),
);
export const DocumentBlockImage = openApiComponent(
  'DocumentBlockImage',
  voidBlockOf('image', z.object({ ...imageData, width: length.optional(), height: length.optional() }))
    .extend({ fragments: z.array(DocumentFragment).optional().describe('Its caption (`caption`)') })
    .describe('An image (`<figure><img><figcaption>`)'),
);
export const DocumentBlockImages = openApiComponent(
  'DocumentBlockImages',
  blockOf(
    ['images'],
    z.object({ align: z.enum(['center', 'left', 'right']).optional(), fullWidth: z.boolean().optional(), withFrame: z.boolean().optional() }),
    z.array(DocumentBlockImage),
  ).describe('Images'),
);
export const DocumentBlockMath = openApiComponent('DocumentBlockMath', voidBlockOf('math', z.object({ formula: z.string() })).describe('A formula (`$$…$$`)'));
export const DocumentBlockFile = openApiComponent(
  'DocumentBlockFile',
  voidBlockOf('file', z.object({ ref: ContentRef })).describe('A file (`{% file src %}`)'),
);
export const DocumentBlockEmbed = openApiComponent(
  'DocumentBlockEmbed',
  voidBlockOf('embed', z.object({ url: z.string(), fullWidth: z.boolean().optional() })).describe('An embedded page (`{% embed url %}`)'),
);
export const DocumentBlockContentRef = openApiComponent(
  'DocumentBlockContentRef',
  voidBlockOf('content-ref', z.object({ ref: ContentRef })).describe('A reference to a page, file or URL (`{% content-ref url %}`)'),
);
export const DocumentBlockOpenAPIOperation = openApiComponent(
  'DocumentBlockOpenAPIOperation',
  voidBlockOf('openapi-operation', z.object({ ref: ContentRef, path: z.string(), method: z.string() })).describe(
    "An operation of one of the organization's OpenAPI specs (`{% openapi-operation spec path method %}`)",
  ),
);
export const DocumentBlockOpenAPI = openApiComponent(
  'DocumentBlockOpenAPI',
  voidBlockOf('swagger', z.object({ ref: ContentRef, path: z.string(), method: z.string() })).describe(
    'An operation of an OpenAPI document at an address (`{% openapi src path method %}`)',
  ),
);
export const DocumentBlockIntegration = openApiComponent(
  'DocumentBlockIntegration',
  voidBlockOf('integration', z.object({ integration: z.string(), block: z.string(), props: z.record(z.string(), z.unknown()) })).describe(
    "An integration's block (`{% @integration/block … %}`)",
  ),
);
export const DocumentBlockTable = openApiComponent(
  'DocumentBlockTable',
  voidBlockOf(
    'table',
    z.object({
      view: z
        .record(z.string(), z.unknown())
        .describe('grid (`columns`, `hideHeader`, `columnWidths`) or cards (`columns`, `cardSize`, `targetDefinition`, `coverDefinition`)'),
      definition: z.record(z.string(), z.object({ id: z.string(), title: z.string(), type: z.string() }).loose()).describe('Its columns, by id'),
      records: z
        .record(z.string(), z.object({ orderIndex: z.string(), values: z.record(z.string(), z.unknown()) }))
        .describe('Its rows, by id, in `orderIndex` order; a text cell names the fragment holding it'),
      fullWidth: z.boolean().optional(),
    }),
  )
    .extend({ fragments: z.array(DocumentFragment).describe('The text cells') })
    .describe('A table (GFM, or GitBook HTML tables and cards)'),
);

/** The hub: every block type. */
export const DocumentBlock: z.ZodType = openApiComponent(
  'DocumentBlock',
  z
    .discriminatedUnion('type', [
      DocumentBlockHeading,
      DocumentBlockParagraph,
      DocumentBlockListOrdered,
      DocumentBlockListUnordered,
      DocumentBlockListTasks,
      DocumentBlockListItem,
      DocumentBlockCode,
      DocumentBlockCodeLine,
      DocumentBlockQuote,
      DocumentBlockDivider,
      DocumentBlockHint,
      DocumentBlockTabs,
      DocumentBlockTabsItem,
      DocumentBlockStepper,
      DocumentBlockStepperStep,
      DocumentBlockColumns,
      DocumentBlockColumn,
      DocumentBlockIf,
      DocumentBlockUpdates,
      DocumentBlockUpdate,
      DocumentBlockExpandable,
      DocumentBlockImages,
      DocumentBlockImage,
      DocumentBlockMath,
      DocumentBlockFile,
      DocumentBlockEmbed,
      DocumentBlockContentRef,
      DocumentBlockOpenAPIOperation,
      DocumentBlockOpenAPI,
      DocumentBlockIntegration,
      DocumentBlockTable,
    ])
    .describe('A block'),
);

export const JSONDocument = openApiComponent(
  'JSONDocument',
  z
    .object({
      object: z.literal('document'),
      data: z.record(z.string(), z.unknown()).optional(),
      nodes: z.array(DocumentBlock),
    })
    .describe(
      "A structured document, as GitBook's Markdown dialect reads (docs/api.md): headings, paragraphs, lists, code, quotes, dividers, hints, tabs, steppers, columns, expandables, images, files, embeds, content references, tables, formulas, OpenAPI operations, integration blocks, conditional blocks and updates; marked text, links, images, formulas, emoji, icons and buttons",
    ),
);
