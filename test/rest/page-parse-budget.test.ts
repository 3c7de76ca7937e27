import { beforeAll, describe, expect, it } from 'vitest';
import { configureParseBudget } from '../../src/domain/content/bodies.ts';
import { DEFAULT_PARSE_BUDGET_MS, INLINE_BODY_CHARACTERS } from '../../src/domain/content/model/budgets.ts';
import type { JSONDocument } from '../../src/domain/content/model/nodes.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * A large page body whose parse goes past its budget on the worker pool (a busy machine, or
 * PAGE_PARSE_BUDGET_MS set low) reads as its text in plain paragraphs, and that stand-in is kept
 * as provisional: once a parse fits, the body reads as its blocks and its links are stored.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('a page body whose parse went past its budget', () => {
  it('reads as plain paragraphs meanwhile, and as its blocks with its links once parsed within the budget', async () => {
    const team = await buildTeam(t.database);
    const rest = async (method: string, url: string, body?: unknown) => {
      const response = await t.call(method, url, { token: team.admin.token, ...(body === undefined ? {} : { body }) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response.json();
    };
    const space = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Budget' });
    const changeRequest = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Large page' });
    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
    const marker = `budget-marker-${space.id}`;
    const markdown = `{% hint style="info" %}\nSee [the guide](https://example.com/guide), ${marker}.\n{% endhint %}\n\n${'A paragraph that fills the page.\n\n'.repeat(600)}`;
    expect(markdown.length).toBeGreaterThan(INLINE_BODY_CHARACTERS);
    const kept = async () => {
      const [structure] = await t.database.db.documentStructure.findMany({
        where: { document: { contains: marker } },
        select: { documentId: true, modelVersion: true },
      });
      const links = await t.database.db.documentLink.findMany({ where: { documentId: structure!.documentId }, select: { kind: true, target: true } });
      return { modelVersion: structure!.modelVersion, links };
    };

    let page: { id: string };
    const graphqlFirstBlock = async () => {
      const revision = (await rest('GET', base)).revision as string;
      const answer = await t.graphql(
        team.admin.token,
        'query($space: ID!, $revision: ID!, $page: ID!) { revision(spaceId: $space, id: $revision) { page(id: $page) { document } } }',
        {
          space: space.id,
          revision,
          page: page.id,
        },
      );
      expect(answer.errors).toBeUndefined();
      return (answer.data as any).revision.page.document.nodes[0].type as string;
    };
    configureParseBudget(1);
    try {
      [{ page }] = (
        await rest('POST', `${base}/content?compat=false`, { changes: [{ operation: 'insert_page', title: 'Large', slug: 'large', document: { markdown } }] })
      ).changes;
      const read = (await rest('GET', `${base}/content/page/${page.id}?format=document`)).document as JSONDocument;
      expect(read.nodes[0]).toMatchObject({ object: 'block', type: 'paragraph' });
      expect(JSON.stringify(read.nodes[0])).toContain(marker);
      expect(read.nodes.some((node) => node.type === 'hint')).toBe(false);
      expect(await kept()).toEqual({ modelVersion: 0, links: [] });
      expect(await graphqlFirstBlock()).toBe('paragraph');
    } finally {
      configureParseBudget(DEFAULT_PARSE_BUDGET_MS);
    }

    // Within the budget again: the next read parses the body, keeps its structure under this model, and stores its link.
    const read = (await rest('GET', `${base}/content/page/${page.id}?format=document`)).document as JSONDocument;
    expect(read.nodes[0]).toMatchObject({ object: 'block', type: 'hint' });
    expect(await kept()).toEqual({ modelVersion: 1, links: [{ kind: 'url', target: 'https://example.com/guide' }] });
    expect((await rest('GET', `${base}/content/page/${page.id}`)).markdown).toBe(markdown);
    // GraphQL's answer holding the stand-in was not cached either.
    expect(await graphqlFirstBlock()).toBe('hint');
  });
});
