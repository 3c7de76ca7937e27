import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, Inline, JSONDocument, Text } from '../../src/domain/content/model/nodes.ts';
import { canonicalDocument } from '../../src/domain/content/model/normalize.ts';
import { officialDocumentError } from '../../src/domain/content/model/official-schema.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesComponent, expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';
import { watchHealth } from '../support/health-watch.ts';
import { type OfficialClient, officialClient } from '../support/official.ts';

/**
 * Rich pages over the real server: GitBook's Markdown dialect written and read
 * as the official structured document (hints, tabs, tables, figures…), with
 * references by relative path resolved to the pages and files of the revision
 * read; a document of every node type written and read back the same; the
 * structured document as the official client and GraphQL read it; search
 * over the text of rich blocks.
 */

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const COMBINED = fs.readFileSync(path.join(import.meta.dirname, '../content/fixtures/combined.md'), 'utf8');

type AnyNode = Block | Inline | Text;
function allNodes(nodes: AnyNode[]): AnyNode[] {
  return nodes.flatMap((node) => [
    node,
    ...(node.object === 'text' ? [] : allNodes((node.nodes ?? []) as AnyNode[])),
    ...(node.object === 'text' ? [] : allNodes((node.fragments ?? []).flatMap((each) => each.nodes))),
  ]);
}

/** A space with an open change request holding a page "Target" (slug target) and a file diagram.png. */
async function workspace() {
  const team = await buildTeam(t.database);
  const token = team.admin.token;
  const rest = async (method: string, url: string, body?: unknown) => {
    const response = await t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const space = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Rich' });
  const changeRequest = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Rich pages' });
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const batch = async (changes: unknown[]) => (await rest('POST', `${base}/content?compat=false`, { changes })).changes as any[];
  const written = await rest('POST', `${base}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', title: 'Target', slug: 'target', document: { markdown: 'The target.\n' } },
      { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: PNG }] },
    ],
  });
  return {
    team,
    token,
    space,
    changeRequest,
    base,
    rest,
    batch,
    targetId: written.changes[0].page.id as string,
    fileId: written.insertedFiles[0].id as string,
  };
}

describe('rich pages', () => {
  it('reads a page written in the dialect as its blocks, its relative references resolved in the revision', async () => {
    const { base, rest, batch, targetId, fileId } = await workspace();
    const markdown = `${COMBINED}\nSee [the target](target.md) and ![a diagram](.gitbook/assets/diagram.png).\n\n{% content-ref url="target.md" %}\n[target.md](target.md)\n{% endcontent-ref %}\n`;
    const [created] = await batch([{ operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown } }]);
    const page = await rest('GET', `${base}/content/page/${created.page.id}?format=document`);
    const document = page.document as JSONDocument;
    expect(officialDocumentError(document)).toBeNull();
    expect(document.nodes.map((node) => node.type)).toEqual(['heading-2', 'tabs', 'heading-2', 'table', 'stepper', 'columns', 'paragraph', 'content-ref']);
    const refs = allNodes(document.nodes).flatMap((node) => (node.object !== 'text' && node.data?.ref ? [node.data.ref] : []));
    expect(refs).toEqual(
      expect.arrayContaining([
        { kind: 'page', page: targetId },
        { kind: 'file', file: fileId },
      ]),
    );
    expect(document.nodes.at(-1)!.data).toEqual({ ref: { kind: 'page', page: targetId } });
    // The markdown reads back as written, the dialect being what is stored (but a link to a page id the
    // content lacks, which the content batch keeps as its text).
    expect((await rest('GET', `${base}/content/page/${created.page.id}`)).markdown).toBe(markdown.replace('[Pages](/pages/page_pages)', 'Pages'));
  });

  it('writes a document of every node type the dialect knows, which reads back the same, stored as the dialect', async () => {
    const { base, rest, batch, targetId, fileId } = await workspace();
    const input = everyNodeType(targetId, fileId);
    expect(officialDocumentError(input)).toBeNull();
    const [created] = await batch([{ operation: 'insert_page', title: 'Everything', document: { document: input } }]);
    const read = (await rest('GET', `${base}/content/page/${created.page.id}?format=document`)).document as JSONDocument;
    expect(canonicalDocument(read)).toEqual(canonicalDocument(input));
    // As /v1/openapi.json describes it too (src/domain/content/document-schema.ts).
    expectMatchesComponent('JSONDocument', read);
    const { markdown } = await rest('GET', `${base}/content/page/${created.page.id}`);
    for (const written of [
      '{% hint style="warning" %}',
      '{% tab title="macOS" %}',
      '{% code title="app.js" lineNumbers="true" %}',
      '<details>',
      `{% file src="/files/${fileId}" %}`,
      '{% embed url="https://example.test/video" %}',
      `{% content-ref url="/pages/${targetId}" %}`,
      '{% stepper %}',
      '{% columns %}',
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
      '$$\nE = mc^2\n$$',
      '<figure>',
      '<kbd>K</kbd>',
      '| Name',
      '<table data-view="cards">',
    ]) {
      expect(markdown).toContain(written);
    }
    // Written back as markdown, the page reads as the same document again.
    await batch([{ operation: 'update_page', page: created.page.id, document: { markdown } }]);
    const again = (await rest('GET', `${base}/content/page/${created.page.id}?format=document`)).document as JSONDocument;
    expect(canonicalDocument(again)).toEqual(canonicalDocument(read));
  });

  it('serves the document of a revision through the official client and GraphQL alike', async () => {
    const { team, space, changeRequest, rest, batch, targetId, fileId } = await workspace();
    const [created] = await batch([
      { operation: 'insert_page', title: 'Everything', slug: 'everything', document: { document: everyNodeType(targetId, fileId) } },
    ]);
    await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const revisionId = (await rest('GET', `/v1/spaces/${space.id}`)).revision as string;
    const client = official(team.admin);
    const { data } = await client.spaces.getPageDocumentInRevisionById(space.id, revisionId, created.page.id, {});
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document', 200, data);
    const graphql = await t.graphql(
      team.admin.token,
      `query($space: ID!, $revision: ID!, $page: ID!) { revision(spaceId: $space, id: $revision) { page(id: $page) { document } } }`,
      { space: space.id, revision: revisionId, page: created.page.id },
    );
    expect(graphql.errors).toBeUndefined();
    expect((graphql.data as any).revision.page.document).toEqual(data);
  });

  it('finds the words of list items, table cells, hints and tabs, each apart from the next', async () => {
    const { team, space, changeRequest, rest, batch } = await workspace();
    const markdown =
      '* Write in change requests\n* Review and merge\n\nPublish the site.\n\n| Step | Owner |\n| --- | --- |\n| Translate | Ops |\n\n{% hint style="info" %}\nAbout quotas\n{% endhint %}\n\n{% tabs %}\n{% tab title="Linux" %}\nUse apt\n{% endtab %}\n{% endtabs %}\n';
    await batch([{ operation: 'insert_page', title: 'Overview', document: { markdown } }]);
    await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    for (const word of ['review', 'publish', 'translate', 'ops', 'quotas', 'apt', 'linux']) {
      const found = await t.call('GET', `/v1/spaces/${space.id}/search?query=${word}`, { token: team.admin.token });
      expect(found.statusCode).toBe(200);
      expect(
        found.json().items.map((item: { title: string }) => item.title),
        word,
      ).toContain('Overview');
    }
    // Words of two list items, or of an item and the paragraph after it, are not one word.
    for (const glued of ['requestsreview', 'mergepublish']) {
      expect((await t.call('GET', `/v1/spaces/${space.id}/search?query=${glued}`, { token: team.admin.token })).json().items).toEqual([]);
    }
  });
});

const text = (value: string, marks: string[] = []): Text => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const block = (type: string, data: Record<string, unknown>, nodes: AnyNode[]): Block => ({ object: 'block', type, isVoid: false, data, nodes });
const voidBlock = (type: string, data: Record<string, unknown>, extra: Partial<Block> = {}): Block => ({ object: 'block', type, isVoid: true, data, ...extra });
const paragraph = (...nodes: AnyNode[]) => block('paragraph', {}, nodes);

/** A document holding every block, inline and mark the dialect writes, with references to a page and a file. */
function everyNodeType(pageId: string, fileId: string): JSONDocument {
  const link = (ref: unknown, label: string): Inline => ({ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [text(label)] });
  return {
    object: 'document',
    data: {},
    nodes: [
      block('heading-1', {}, [text('Title')]),
      block('heading-2', { id: 'custom-anchor' }, [text('Section')]),
      block('heading-3', {}, [text('Sub')]),
      paragraph(
        text('Plain, '),
        text('bold', ['bold']),
        text(', '),
        text('italic', ['italic']),
        text(', '),
        text('code', ['code']),
        text(', '),
        text('gone', ['strikethrough']),
        text(', '),
        text('K', ['keyboard']),
        text(' H'),
        text('2', ['subscript']),
        text('O x'),
        text('2', ['superscript']),
        text(' '),
        { object: 'text', leaves: [{ object: 'leaf', text: 'red', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] }] },
        text(' '),
        link({ kind: 'url', url: 'https://example.test/a' }, 'a link'),
        text(' '),
        link({ kind: 'page', page: pageId }, 'a page'),
        text(' '),
        link({ kind: 'anchor', anchor: 'setup', page: pageId }, 'an anchor'),
        text(' '),
        link({ kind: 'file', file: fileId }, 'a file'),
        text(' '),
        { object: 'inline', type: 'inline-image', isVoid: true, data: { ref: { kind: 'file', file: fileId }, alt: 'pixel' } },
        text(' '),
        { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'a+b' } },
        text(' '),
        { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f680' } },
        text(' '),
        { object: 'inline', type: 'icon', isVoid: true, data: { icon: 'gear' } },
        text(' '),
        { object: 'inline', type: 'button', isVoid: true, data: { label: 'Start', kind: 'primary', ref: { kind: 'url', url: 'https://example.test/start' } } },
      ),
      block('paragraph', { align: 'center' }, [text('Centered')]),
      block('list-unordered', {}, [
        block('list-item', {}, [paragraph(text('one')), block('list-ordered', { start: 3 }, [block('list-item', {}, [paragraph(text('three'))])])]),
      ]),
      block('list-tasks', {}, [
        block('list-item', { checked: true }, [paragraph(text('done'))]),
        block('list-item', { checked: false }, [paragraph(text('open'))]),
      ]),
      block('blockquote', {}, [paragraph(text('Quoted'))]),
      voidBlock('divider', {}),
      block('code', { syntax: 'js', title: 'app.js', lineNumbers: true }, [
        block('code-line', {}, [text('const a = 1;')]),
        block('code-line', {}, [text('a++;')]),
      ]),
      block('hint', { style: 'warning' }, [paragraph(text('Careful'))]),
      block('tabs', {}, [block('tabs-item', { title: 'macOS' }, [paragraph(text('brew'))]), block('tabs-item', { title: 'Linux' }, [paragraph(text('apt'))])]),
      voidBlock(
        'expandable',
        {},
        {
          fragments: [
            { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph(text('More'))] },
            { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph(text('Hidden'))] },
          ],
        },
      ),
      voidBlock('math', { formula: 'E = mc^2' }),
      block('images', {}, [
        voidBlock(
          'image',
          { ref: { kind: 'file', file: fileId }, alt: 'Diagram', width: 300 },
          { fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('The diagram'))] }] },
        ),
      ]),
      voidBlock('file', { ref: { kind: 'file', file: fileId } }),
      voidBlock('embed', { url: 'https://example.test/video' }),
      voidBlock('content-ref', { ref: { kind: 'page', page: pageId } }),
      voidBlock(
        'table',
        {
          view: { type: 'grid', columns: ['name', 'value'], hideHeader: false },
          definition: {
            name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
            value: { id: 'value', title: 'Value', type: 'text', textAlignment: 'left' },
          },
          records: { first: { orderIndex: 'a0', values: { name: 'n1', value: 'v1' } } },
        },
        {
          fragments: [
            { object: 'fragment', fragment: 'n1', nodes: [paragraph(text('alpha'))] },
            { object: 'fragment', fragment: 'v1', nodes: [paragraph(link({ kind: 'url', url: 'https://example.test/v' }, 'one'))] },
          ],
        },
      ),
      voidBlock(
        'table',
        {
          view: { type: 'cards', columns: ['title'], cardSize: 'medium', targetDefinition: 'target' },
          definition: {
            title: { id: 'title', title: 'Title', type: 'text', textAlignment: 'left' },
            target: { id: 'target', title: 'Target', type: 'content-ref' },
          },
          records: { card: { orderIndex: 'a0', values: { title: 'card-title', target: { kind: 'page', page: pageId } } } },
        },
        { fragments: [{ object: 'fragment', fragment: 'card-title', nodes: [paragraph(text('Quickstart', ['bold']))] }] },
      ),
      block('stepper', {}, [block('stepper-step', {}, [paragraph(text('First'))]), block('stepper-step', {}, [paragraph(text('Second'))])]),
      block('columns', {}, [block('column', { width: { unit: '%', value: 50 } }, [paragraph(text('Left'))]), block('column', {}, [paragraph(text('Right'))])]),
      voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'get' }),
      voidBlock('integration', { integration: 'github-files', block: 'github-code-block', props: { url: 'https://github.com/a/b' } }),
      block('if', { expression: 'visitor.claims.plan == "pro"' }, [paragraph(text('For pro plans'))]),
      block('updates', { format: 'full' }, [block('update', { date: '2026-11-28T00:00:00.000Z' }, [paragraph(text('Released'))])]),
    ],
  };
}

describe('large pages', () => {
  it('reads a large rich page on the worker pool when it is written, answering /healthz meanwhile', async () => {
    const { base, rest, batch } = await workspace();
    let markdown = '';
    while (markdown.length < 120_000) markdown += `${COMBINED}\n`;
    const { result: created, slowestMs } = await watchHealth(
      t,
      async () => (await batch([{ operation: 'insert_page', title: 'Large', document: { markdown } }]))[0],
    );
    expect(slowestMs).toBeLessThan(1000);
    const document = (await rest('GET', `${base}/content/page/${created.page.id}?format=document`)).document as JSONDocument;
    expect(document.nodes.filter((node) => node.type === 'tabs').length).toBe(Math.ceil(120_000 / (COMBINED.length + 1)));
  }, 120_000);

  /** A structured document of one paragraph whose one text holds `lines` lines. */
  const linesDocument = (lines: number) => ({
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'ab\n'.repeat(lines), marks: [] }] }] }],
  });

  it('stores a structured document of 200,000 lines in one paragraph, each a line of its Markdown', async () => {
    const { base, rest, batch } = await workspace();
    // Each line one element of the Markdown syntax tree: past about 100,000 they were once passed as arguments, a 500.
    const [created] = await batch([{ operation: 'insert_page', title: 'Lines', document: { document: linesDocument(200_000) } }]);
    const markdown = (await rest('GET', `${base}/content/page/${created.page.id}?format=markdown`)).markdown as string;
    expect(markdown.match(/^ab\\$/gm)?.length).toBe(200_000);
  }, 120_000);

  it('reads a large structured document on the worker pool, answering /healthz meanwhile, and refuses what is too long', async () => {
    const { base, token, changeRequest, space } = await workspace();
    // 3 MB of JSON whose Markdown would be 4,000,000 characters: seconds of work, none of it on the event loop.
    const { result, slowestMs, probes } = await watchHealth(t, async () => {
      const started = performance.now();
      const response = await t.call('POST', `${base}/content?compat=false`, {
        token,
        body: { changes: [{ operation: 'insert_page', title: 'Too long', document: { document: linesDocument(1_000_000) } }] },
      });
      return { response, ms: performance.now() - started };
    });
    expect(result.response.statusCode, result.response.body).toBe(400);
    // Too long once written, or (a machine under load) not written within the budget: either way named.
    expect(result.response.json().error.message).toMatch(
      /^changes\.0\.document\.document: (its markdown would be 4000000 characters|too large to read within)/,
    );
    console.log(`1,000,000 lines refused in ${result.ms.toFixed(0)} ms; /healthz at most ${slowestMs.toFixed(0)} ms (${probes} probes)`);
    // Compared within the run, not with a wall clock: no wait near the request's own time.
    expect(slowestMs).toBeLessThan(result.ms / 4);
    // Nothing written: the change request holds its one page.
    const pages = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token })).json().pages;
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['Target']);
  }, 120_000);
});
