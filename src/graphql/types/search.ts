import { searchOrganization, searchSpace } from '../../domain/search/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { builder } from '../builder.ts';
import { Organization } from './organization.ts';
import { Space } from './space.ts';

type PageResult = Awaited<ReturnType<typeof searchSpace>>['items'][number];
type SpaceResult = Awaited<ReturnType<typeof searchOrganization>>['items'][number];

const SearchSectionResult = builder.objectRef<PageResult['sections'][number]>('SearchSectionResult').implement({
  description: 'A section of a page that matched, with an excerpt',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    path: t.exposeString('path', { description: 'The page path and the section anchor' }),
    score: t.exposeFloat('score'),
    body: t.exposeString('body', { description: 'An excerpt around the words found' }),
    url: t.string({ resolve: (section) => section.urls.app }),
  }),
});

const SearchPageResult = builder.objectRef<PageResult>('SearchPageResult').implement({
  description: 'A page that matched a search, ranked',
  fields: (t) => ({
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    path: t.exposeString('path'),
    score: t.exposeFloat('score'),
    rank: t.exposeInt('rank'),
    ancestors: t.stringList({ description: 'Titles of its ancestors, from the top', resolve: (page) => page.ancestors.map((ancestor) => ancestor.title) }),
    sections: t.field({ type: [SearchSectionResult], resolve: (page) => page.sections }),
    url: t.string({ resolve: (page) => page.urls.app }),
  }),
});

const SearchSpaceResult = builder.objectRef<SpaceResult>('SearchSpaceResult').implement({
  description: 'A space with the pages of it that matched',
  fields: (t) => ({
    space: t.field({ type: Space, resolve: (result, _args, ctx) => spaceRecord(ctx, result.id) }),
    score: t.exposeFloat('score'),
    pages: t.field({ type: [SearchPageResult], resolve: (result) => result.pages as PageResult[] }),
  }),
});

builder.objectField(Space, 'search', (t) =>
  t.field({
    type: [SearchPageResult],
    description: 'Pages of the space content matching the query, best first',
    args: {
      query: t.arg.string({ required: true, description: 'Words to find (each as a prefix), at most 512 characters' }),
      first: t.arg.int({ description: 'How many results (20 when absent, at most 100)' }),
    },
    resolve: async (space, { query, first }, ctx) => (await searchSpace(ctx, space.id, { query, ...(first != null ? { limit: first } : {}) })).items,
  }),
);

builder.objectField(Organization, 'search', (t) =>
  t.field({
    type: [SearchSpaceResult],
    description: 'Pages of every space of the organization matching the query, grouped by space',
    args: {
      query: t.arg.string({ required: true, description: 'Words to find (each as a prefix), at most 512 characters' }),
      first: t.arg.int({ description: 'How many results (20 when absent, at most 100)' }),
    },
    resolve: async (organization, { query, first }, ctx) =>
      (await searchOrganization(ctx, organization.id, { query, ...(first != null ? { limit: first } : {}) })).items,
  }),
);
