import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesComponent, expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * Page lookups (`…/content/page/{pageId}`, `…/content/path/{pagePath}`, in a
 * space and in a change request) answer the page and every page under it in
 * the variant of the official RevisionPage oneOf: documents with their body in
 * the format asked, groups, links.
 */

let t: TestApp;
beforeAll(async () => {
  // No kept trees or answers: the test turns pages into groups and links in the database.
  t = await createTestApp({ responseCacheBytes: 0, pageTreeCacheBytes: 0 });
});

/**
 * A space whose content is Guide (→ Intro, Elsewhere (a link)) and Section (a
 * group → Setup), merged; and a change request on it. Groups are top-level
 * pages in the official model, and links hold no pages.
 */
async function setup() {
  const team = await buildTeam(t.database);
  const token = team.admin.token;
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title: 'Shapes' } })).json();
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
  const edit = async (changes: unknown[]) => {
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, { token, body: { changes } });
    expect(response.statusCode, response.body).toBe(200);
    return (ref: string) => response.json().changes.find((change: any) => change.ref === ref).page.id as string;
  };
  const top = await edit([
    { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n' }, ref: 'guide' },
    { operation: 'insert_page', title: 'Section', document: {}, ref: 'section' },
  ]);
  const [guide, section] = [top('guide'), top('section')];
  const elsewhere = (
    await edit([
      { operation: 'insert_page', title: 'Intro', into: guide, document: { markdown: 'Intro text\n' } },
      { operation: 'insert_page', title: 'Elsewhere', into: guide, document: {}, ref: 'elsewhere' },
      { operation: 'insert_page', title: 'Setup', into: section, document: { markdown: 'Setup text\n' } },
    ])
  )('elsewhere');
  const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token });
  expect(merged.statusCode, merged.body).toBe(200);
  // The API writes documents only; groups and links come from imports and older content.
  const revision = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
  const versionOf = async (pageId: string) => (await t.database.db.revisionPage.findFirstOrThrow({ where: { revisionId: revision, pageId } })).versionId;
  await t.database.db.pageVersion.update({ where: { id: await versionOf(section) }, data: { type: 'group', documentId: null } });
  await t.database.db.pageVersion.update({
    where: { id: await versionOf(elsewhere) },
    data: { type: 'link', documentId: null, target: { kind: 'url', url: 'https://example.test/elsewhere' } },
  });
  const open = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
  return { token, space, changeRequest: open, guide, section };
}

/** A new space of a new team, and a change request open on it, for its admin. */
async function openChangeRequest(title: string) {
  const team = await buildTeam(t.database);
  const token = team.admin.token;
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title } })).json();
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
  return { team, token, space, changeRequest, base: `/v1/spaces/${space.id}/change-requests/${changeRequest.id}` };
}

describe('page lookups in the official shape', () => {
  it('answer a page with pages, groups and links under it, in both formats, by id and by path, in the space and a change request', async () => {
    const { token, space, changeRequest, guide, section } = await setup();
    const bases = [
      ['/v1/spaces/{spaceId}/content', `/v1/spaces/${space.id}/content`],
      ['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`],
    ];
    for (const [template, base] of bases) {
      for (const format of ['markdown', 'document']) {
        const byId = await t.call('GET', `${base}/page/${guide}?format=${format}`, { token });
        expect(byId.statusCode, byId.body).toBe(200);
        const page = byId.json();
        expectMatchesSchema('GET', `${template}/page/{pageId}`, 200, page);
        const byPath = await t.call('GET', `${base}/path/guide?format=${format}`, { token });
        expect(byPath.json()).toEqual(page);
        expectMatchesSchema('GET', `${template}/path/{pagePath}`, 200, byPath.json());

        const [intro, link] = page.pages;
        expect([page.type, intro.type, link.type]).toEqual(['document', 'document', 'link']);
        expect(link).toMatchObject({ kind: 'link', target: { kind: 'url', url: 'https://example.test/elsewhere' } });

        const groupById = await t.call('GET', `${base}/page/${section}?format=${format}`, { token });
        expect(groupById.statusCode, groupById.body).toBe(200);
        const group = groupById.json();
        expectMatchesSchema('GET', `${template}/page/{pageId}`, 200, group);
        expect(group).toMatchObject({ type: 'group', path: 'section' });
        expect(group).not.toHaveProperty('markdown');
        const [setupPage] = group.pages;
        expect(setupPage.title).toBe('Setup');

        if (format === 'markdown') {
          expect([page.markdown, intro.markdown, setupPage.markdown]).toEqual(['# Guide\n', 'Intro text\n', 'Setup text\n']);
        } else {
          for (const document of [page, intro, setupPage]) {
            expect(document.markdown).toBeUndefined();
            expect(document.document.object).toBe('document');
          }
          expect(setupPage.document.nodes[0].nodes[0].leaves[0].text).toBe('Setup text');
        }
      }
      // A link has no address of its own: found by id, not by path.
      expect((await t.call('GET', `${base}/path/guide/elsewhere`, { token })).statusCode).toBe(404);
      expect((await t.call('GET', `${base}/path/section/setup`, { token })).statusCode).toBe(200);
    }
  });
});

describe('front matter', () => {
  it('sets the page fields from YAML front matter, over the change fields, and gives it back in the markdown read', async () => {
    const { token, changeRequest, base } = await openChangeRequest('Front matter');
    const markdown =
      '---\ntitle: Configuration\ndescription: "Every setting: where and why"\nemoji: "⚙️"\nhidden: true\nnoIndex: true\n---\n\n# Settings\n\nSet `PORT`.\n';
    const inserted = await t.call('POST', `${base}/content?compat=false`, {
      token,
      body: { changes: [{ operation: 'insert_page', title: 'Overridden', description: 'Overridden too', document: { markdown }, ref: 'page' }] },
    });
    expect(inserted.statusCode, inserted.body).toBe(200);
    const pageId = inserted.json().changes[0].page.id;

    const read = (await t.call('GET', `${base}/content/page/${pageId}`, { token })).json();
    expect(read).toMatchObject({
      title: 'Configuration',
      description: 'Every setting: where and why',
      emoji: '⚙️',
      hidden: true,
      noIndex: true,
      path: 'configuration',
    });
    expect(read.markdown).toBe("---\ndescription: 'Every setting: where and why'\nemoji: ⚙️\nhidden: true\nnoIndex: true\n---\n\n# Settings\n\nSet `PORT`.\n");
    // The stored body has no front matter: the structured document starts at the heading.
    const structured = (await t.call('GET', `${base}/content/page/${pageId}?format=document`, { token })).json();
    expect(structured.document.nodes[0].type).toBe('heading-1');

    // Written back as read, the page is the same; a field absent from front matter is left as it is, one set there changes.
    const write = async (written: string) => {
      const response = await t.call('POST', `${base}/content?compat=false`, {
        token,
        body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: written } }] },
      });
      expect(response.statusCode, response.body).toBe(200);
      return (await t.call('GET', `${base}/content/page/${pageId}`, { token })).json();
    };
    expect((await write(read.markdown)).markdown).toBe(read.markdown);
    expect((await write(read.markdown.replace('hidden: true\n', ''))).hidden).toBe(true);
    const reread = await write(read.markdown.replace('hidden: true\n', 'hidden: false\n'));
    expect(reread.hidden).toBe(false);
    expect(reread.markdown).toBe(read.markdown.replace('hidden: true\n', ''));

    const graph = await t.graphql(
      token,
      'query($id: ID!, $pageId: ID!) { node(id: $id) { ... on ChangeRequest { content { page(id: $pageId) { markdown } } } } }',
      {
        id: changeRequest.id,
        pageId,
      },
    );
    expect(graph.data.node.content.page.markdown).toBe(reread.markdown);
  });

  it('keeps a description holding " ---" and the fields after it when its markdown is read and written back', async () => {
    const { token, base } = await openChangeRequest('Dashes');
    const batch = async (change: Record<string, unknown>) => {
      const response = await t.call('POST', `${base}/content?compat=false`, { token, body: { changes: [change] } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().changes[0].page.id as string;
    };
    const pageId = await batch({
      operation: 'insert_page',
      title: 'Trade-offs',
      description: 'Pros and cons ---',
      hidden: true,
      document: { markdown: '# Trade-offs\n' },
    });
    const read = (await t.call('GET', `${base}/content/page/${pageId}`, { token })).json();
    expect(read).toMatchObject({ title: 'Trade-offs', description: 'Pros and cons ---', hidden: true });

    await batch({ operation: 'update_page', page: pageId, document: { markdown: read.markdown } });
    const reread = (await t.call('GET', `${base}/content/page/${pageId}`, { token })).json();
    expect(reread).toMatchObject({ title: 'Trade-offs', description: 'Pros and cons ---', hidden: true, markdown: read.markdown });
  });

  it('refuses front matter that is not YAML, a field it does not know or a value of the wrong type, and changes nothing', async () => {
    const { token, space, changeRequest } = await openChangeRequest('Refused');
    const before = (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId;
    const cases: Array<[string, RegExp]> = [
      ['---\ntitle: [unclosed\n---\nBody\n', /^changes\.0\.document\.markdown: front matter is not valid YAML/],
      ['---\nlayouts: wide\n---\nBody\n', /^changes\.0\.document\.markdown: front matter: layouts is not a front matter field/],
      ['---\nhidden: "yes"\n---\nBody\n', /^changes\.0\.document\.markdown: front matter\.hidden: /],
    ];
    for (const [markdown, message] of cases) {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
        token,
        body: { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown } }] },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId).toBe(before);
  });
});

describe('structured documents as input', () => {
  it('refuses a document whose markdown would be longer than a page body may be, and changes nothing', async () => {
    const { token, space, changeRequest } = await openChangeRequest('Long documents');
    const before = (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId;
    const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x'.repeat(100_000), marks: [] }] }] };
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token,
      body: { changes: [{ operation: 'insert_page', title: 'Long', document: { document: { object: 'document', nodes: Array(11).fill(paragraph) } } }] },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.message).toMatch(/^changes\.0\.document\.document: its markdown would be \d+ characters, more than the 1000000/);
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId).toBe(before);
  });

  it('writes a page from the document `format=document` reads, which reads back the same', async () => {
    const { token, base } = await openChangeRequest('Documents');
    const batch = async (changes: unknown[]) => {
      const response = await t.call('POST', `${base}/content?compat=false`, { token, body: { changes } });
      return response;
    };
    const markdown = [
      '# Install',
      'Run **npm** with `install`, _then_ ~~wait~~ see [the guide](https://example.test/guide) and a * star.',
      '## Steps',
      '3. First\n4. Second',
      '- [x] done\n- [ ] todo',
      '```sh\nnpm install\nnpm start\n```',
      '> Quoted **note**\n>\n> - one\n> - two',
      '---',
      '### End',
    ].join('\n\n');
    const written = await batch([{ operation: 'insert_page', title: 'From markdown', document: { markdown: `${markdown}\n` }, ref: 'a' }]);
    expect(written.statusCode, written.body).toBe(200);
    const source = written.json().changes[0].page.id;
    const document = (await t.call('GET', `${base}/content/page/${source}?format=document`, { token })).json().document;
    // /v1/openapi.json describes it (its JSONDocument, src/domain/content/document-schema.ts), every block type of it here.
    expectMatchesComponent('JSONDocument', document);
    const types = new Set<string>();
    const collect = (node: { type?: string; nodes?: unknown[] }) => {
      if (node.type) types.add(node.type);
      for (const child of node.nodes ?? []) collect(child as typeof node);
    };
    collect(document);
    expect([...types].sort()).toEqual(
      [
        'blockquote',
        'code',
        'code-line',
        'divider',
        'heading-1',
        'heading-2',
        'heading-3',
        'link',
        'list-item',
        'list-ordered',
        'list-tasks',
        'list-unordered',
        'paragraph',
      ].sort(),
    );

    const copied = await batch([{ operation: 'insert_page', title: 'From its document', document: { document }, ref: 'b' }]);
    expect(copied.statusCode, copied.body).toBe(200);
    const copy = copied.json().changes[0].page.id;
    const reread = (await t.call('GET', `${base}/content/page/${copy}?format=document`, { token })).json().document;
    expect(reread).toEqual(document);
    const asMarkdown = (await t.call('GET', `${base}/content/page/${copy}`, { token })).json().markdown;
    expect(asMarkdown).toContain('Run **npm** with `install`, _then_ ~~wait~~ see [the guide](https://example.test/guide) and a \\* star.');

    // A page link survives as a page reference.
    const linking = await batch([
      {
        operation: 'insert_page',
        title: 'Links',
        document: {
          document: {
            object: 'document',
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                nodes: [
                  { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: source } }, nodes: [{ object: 'text', leaves: [{ text: 'see' }] }] },
                ],
              },
            ],
          },
        },
      },
    ]);
    expect(linking.statusCode, linking.body).toBe(200);
    const links = (await t.call('GET', `${base}/content/page/${linking.json().changes[0].page.id}`, { token })).json();
    expect(links.markdown).toBe(`[see](/pages/${source})\n`);
  });

  it('reads a document beginning with a divider as markdown that writes back the same page', async () => {
    const { token, base } = await openChangeRequest('Dividers');
    const batch = async (change: Record<string, unknown>) => {
      const response = await t.call('POST', `${base}/content?compat=false`, { token, body: { changes: [change] } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().changes[0].page.id as string;
    };
    const divider = { object: 'block', type: 'divider', nodes: [] };
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text }] }] });
    // Dividers around a paragraph read as front matter that is not YAML fields; two dividers in a row as empty front matter.
    for (const nodes of [
      [divider, paragraph('Between'), divider, paragraph('After')],
      [divider, divider, paragraph('Kept')],
    ]) {
      const pageId = await batch({ operation: 'insert_page', title: 'Divided', document: { document: { object: 'document', nodes } } });
      const document = (await t.call('GET', `${base}/content/page/${pageId}?format=document`, { token })).json().document;
      expect(document.nodes.map((node: any) => node.type)).toEqual(nodes.map((node) => node.type));
      const { markdown } = (await t.call('GET', `${base}/content/page/${pageId}`, { token })).json();

      await batch({ operation: 'update_page', page: pageId, document: { markdown } });
      expect((await t.call('GET', `${base}/content/page/${pageId}`, { token })).json().markdown).toBe(markdown);
      expect((await t.call('GET', `${base}/content/page/${pageId}?format=document`, { token })).json().document).toEqual(document);
    }
  });

  it('refuses a document with a node it does not know, naming the node, and changes nothing', async () => {
    const { token, space, changeRequest } = await openChangeRequest('Bad documents');
    const before = (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId;
    const paragraph = (leaf: unknown) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [leaf] }] });
    const cases: Array<[unknown, string]> = [
      [{ nodes: [] }, 'changes.0.document.document.object: must be "document" (a structured document)'],
      [
        { object: 'document', nodes: [paragraph({ text: 'ok' }), { object: 'block', type: 'carousel', nodes: [] }] },
        'changes.0.document.document.nodes.1.type: must be a block of type paragraph, heading-1',
      ],
      // Known to the official schema, but with no notation in GitBook's markdown.
      [
        { object: 'document', nodes: [{ object: 'block', type: 'drawing', isVoid: true, data: {} }] },
        'changes.0.document.document.nodes.0.type: drawing cannot be written as markdown',
      ],
      // The official schema's own rules, named by where they fail.
      [
        { object: 'document', nodes: [{ object: 'block', type: 'hint', data: { style: 'loud' }, nodes: [paragraph({ text: 'x' })] }] },
        'changes.0.document.document.nodes.0',
      ],
      [
        { object: 'document', nodes: [paragraph({ text: 'x', marks: [{ type: 'underline' }] })] },
        'changes.0.document.document.nodes.0.nodes.0.leaves.0.marks.0.type: must be one of bold, italic, strikethrough, code',
      ],
      // Names every object inherits are not marks.
      [
        { object: 'document', nodes: [paragraph({ text: 'x', marks: [{ type: 'bold' }, { type: 'constructor' }] })] },
        'changes.0.document.document.nodes.0.nodes.0.leaves.0.marks.1.type: must be one of bold, italic, strikethrough, code',
      ],
      [
        { object: 'document', nodes: [paragraph({ text: 'x', marks: [{ type: 'toString' }] })] },
        'changes.0.document.document.nodes.0.nodes.0.leaves.0.marks.0.type: must be one of bold, italic, strikethrough, code',
      ],
      [{ object: 'document', nodes: [paragraph({ text: 42 })] }, 'changes.0.document.document.nodes.0.nodes.0.leaves.0.text: must be a string'],
    ];
    for (const [document, message] of cases) {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
        token,
        body: { changes: [{ operation: 'insert_page', title: 'Page', document: { document } }] },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe(400);
      expect(response.json().error.message.startsWith(message), response.json().error.message).toBe(true);
    }
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId).toBe(before);
  });
});
