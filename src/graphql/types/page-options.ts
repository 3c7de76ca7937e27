import type { PageCover as PageCoverValue, PageLayout as PageLayoutValue } from '../../domain/content/inputs.ts';
import { pageLayout } from '../../domain/content/presenter.ts';
import { builder } from '../builder.ts';
import { restEnum } from './common.ts';
import { Page } from './content.ts';

/** A page's layout, its cover and its variables: the official page's `layout`, `cover` and `variables`, as REST presents them. */

const PageWidth = restEnum<NonNullable<PageLayoutValue['width']>>('PageWidth', 'The width of a page (REST `layout.width`)', {
  default: 'The standard content width',
  wide: 'Wider content: tables, code and cards get more room',
});

const PageCoverSize = restEnum<NonNullable<PageLayoutValue['coverSize']>>('PageCoverSize', 'How large a cover is drawn (REST `layout.coverSize`)', {
  hero: 'Above the title, at the width of the content',
  full: 'Above the title, at the full width of the page',
  background: 'Behind the title',
});

const PageCoverMask = restEnum<NonNullable<PageLayoutValue['coverMask']>>('PageCoverMask', 'The mask over a cover image (REST `layout.coverMask`)', {
  none: 'No mask',
  radial: 'A radial fade',
});

type Layout = ReturnType<typeof pageLayout>;

/** The parts of a page its layout shows or hides. */
const PARTS = {
  title: 'the title',
  description: 'the description',
  tableOfContents: 'the table of contents',
  outline: 'the outline (the headings of the page)',
  pagination: 'the links to the previous and next pages',
  metadata: 'the page metadata (last modified, authors)',
  tags: 'the tags of the page',
  actions: 'the page actions',
  anchors: 'the anchor links of headings and other linkable blocks',
} as const;
const shown = (part: keyof typeof PARTS) => ({ description: `Whether ${PARTS[part]} is shown`, resolve: (layout: Layout) => layout[part] as boolean });

const PageLayout = builder.objectRef<Layout>('PageLayout').implement({
  description:
    'How a page is shown (REST `layout`, official RevisionPageLayoutOptions): every option, those the page did not set at their defaults; front matter sets them as GitBook writes them (`layout:`)',
  fields: (t) => ({
    width: t.field({ type: PageWidth, description: 'The width of the page', resolve: (layout) => layout.width as NonNullable<PageLayoutValue['width']> }),
    cover: t.boolean({ description: 'Whether the cover is shown', resolve: (layout) => layout.cover as boolean }),
    coverSize: t.field({
      type: PageCoverSize,
      description: 'How large the cover is drawn',
      resolve: (layout) => layout.coverSize as NonNullable<PageLayoutValue['coverSize']>,
    }),
    coverMask: t.field({
      type: PageCoverMask,
      description: 'The mask over the cover image',
      resolve: (layout) => layout.coverMask as NonNullable<PageLayoutValue['coverMask']>,
    }),
    title: t.boolean(shown('title')),
    description: t.boolean(shown('description')),
    tableOfContents: t.boolean(shown('tableOfContents')),
    outline: t.boolean(shown('outline')),
    pagination: t.boolean(shown('pagination')),
    metadata: t.boolean(shown('metadata')),
    tags: t.boolean(shown('tags')),
    actions: t.boolean(shown('actions')),
    anchors: t.boolean(shown('anchors')),
  }),
});

type Cover = PageCoverValue & { yPos: number };

const PageCover = builder.objectRef<Cover>('PageCover').implement({
  description:
    'The cover of a page (REST `cover`, official RevisionPageDocumentCover); front matter sets it as GitBook writes it (`cover`, `coverY`, `coverHeight`)',
  fields: (t) => ({
    ref: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The image, as REST `cover.ref`: `{kind: "file", file}` (a file of the revision) or `{kind: "url", url}`; null when none',
      resolve: (cover) => cover.ref ?? null,
    }),
    refDark: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The image in dark mode, in the same form; null when none',
      resolve: (cover) => cover.refDark ?? null,
    }),
    yPos: t.float({ description: 'The vertical position of the image (GitBook `coverY`)', resolve: (cover) => cover.yPos }),
    height: t.float({
      nullable: true,
      description: 'The height of the cover in pixels (GitBook `coverHeight`); null when not set',
      resolve: (cover) => cover.height ?? null,
    }),
  }),
});

builder.objectFields(Page, (t) => ({
  layout: t.field({
    type: PageLayout,
    nullable: true,
    description: 'How the page is shown (REST `layout`); null for a group or a link',
    resolve: ({ page }) => (page.type === 'document' ? pageLayout(page) : null),
  }),
  cover: t.field({
    type: PageCover,
    nullable: true,
    description: 'Its cover image (REST `cover`); null when it has none, and for a group or a link',
    resolve: ({ page }) => (page.type === 'document' && page.cover ? (page.cover as Cover) : null),
  }),
  variables: t.field({
    type: 'JSON',
    nullable: true,
    description: 'Its variables, by name (REST `variables`: strings, numbers and booleans; GitBook `vars:` in front matter); null when none',
    resolve: ({ page }) => (page.type === 'document' ? page.variables : null),
  }),
}));
