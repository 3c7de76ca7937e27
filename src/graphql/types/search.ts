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
    id: t.exposeString('id', { description: "The section's anchor (a slug of its heading); the page id for the text before the first heading" }),
    title: t.exposeString('title', { description: 'Its heading; the page title for the text before the first heading' }),
    path: t.exposeString('path', { description: 'The page path and the section anchor' }),
    score: t.exposeFloat('score', { description: "Relevance, higher is better: the database engine's rank, comparable only within one search" }),
    body: t.exposeString('body', { description: 'An excerpt around the words found' }),
    url: t.string({ description: "Its address in the web application: the page's, with the section anchor", resolve: (section) => section.urls.app }),
  }),
});

const SearchPageResult = builder.objectRef<PageResult>('SearchPageResult').implement({
  description: 'A page that matched a search, ranked',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The page id' }),
    title: t.exposeString('title', { description: 'The page title' }),
    description: t.exposeString('description', { description: 'The page description; empty when it has none' }),
    path: t.exposeString('path', { description: 'The page path in its space' }),
    score: t.exposeFloat('score', { description: 'The score of its best section: higher is better, comparable only within one search' }),
    rank: t.exposeInt('rank', { description: 'Its place among all the pages found, from 1 for the best' }),
    ancestors: t.stringList({ description: 'Titles of its ancestors, from the top', resolve: (page) => page.ancestors.map((ancestor) => ancestor.title) }),
    sections: t.expose('sections', { type: [SearchSectionResult], description: 'Its sections that matched, best first' }),
    url: t.string({ description: 'Its address in the web application', resolve: (page) => page.urls.app }),
  }),
});

const SearchSpaceResult = builder.objectRef<SpaceResult>('SearchSpaceResult').implement({
  description: 'A space with the pages of it that matched',
  fields: (t) => ({
    space: t.field({ type: Space, description: 'The space', resolve: (result, _args, ctx) => spaceRecord(ctx, result.id) }),
    score: t.exposeFloat('score', { description: 'The score of its best page' }),
    pages: t.field({ type: [SearchPageResult], description: 'Its pages that matched, best first', resolve: (result) => result.pages as PageResult[] }),
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
