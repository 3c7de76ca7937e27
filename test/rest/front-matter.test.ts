import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/context.ts';
import { applyChanges, prepareChanges } from '../../src/domain/content/changes.ts';
import { storeDocuments } from '../../src/domain/content/documents.ts';
import { DEFAULT_PAGE_LAYOUT } from '../../src/domain/content/presenter.ts';
import { writeRevision } from '../../src/domain/content/revisions.ts';
import { loadPageTree } from '../../src/domain/content/tree.ts';
import { inTransaction } from '../../src/domain/transaction.ts';
import { FRONT_MATTER_LIMITS, splitFrontMatter, withFrontMatter } from '../../src/domain/content/front-matter.ts';
import { TEST_URLS, createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';
import { probeHealthz } from '../support/stall-probe.ts';

/**
 * YAML front matter of page markdown, as GitBook writes it in a Git
 * repository: bounded before it is parsed (size, keys; duplicates found in one
 * pass), tags refused, its keys mapped to the page's official fields (layout,
 * cover, variables, condition…) and written back when the markdown is read;
 * unknown keys refused by the content batch and reported by repository input.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEIGBkZAB8bAv8HDz0lAAAAAElFTkSuQmCC';

/** A new space of a new team, and a change request open on it, for its admin. */
async function openChangeRequest(title: string) {
  const team = await buildTeam(t.database);
  const token = team.admin.token;
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title } })).json();
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const batch = (changes: unknown[]) => t.call('POST', `${base}/content?compat=false`, { token, body: { changes } });
  const written = async (changes: unknown[]) => {
    const response = await batch(changes);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { changes: Array<{ ref?: string; page: { id: string } }>; insertedFiles: Array<{ id: string; name: string }> };
  };
  const page = async (pageId: string) => {
    const response = await t.call('GET', `${base}/content/page/${pageId}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', 200, response.json());
    return response.json();
  };
  const graphPage = async (pageId: string) => {
    const graph = await t.graphql(
      token,
      `query($id: ID!, $pageId: ID!) { node(id: $id) { ... on ChangeRequest { content { page(id: $pageId) {
        markdown description icon hidden noIndex noRobotsIndex variables
        layout { width cover coverSize coverMask title description tableOfContents outline pagination metadata tags actions anchors }
        cover { ref refDark yPos height }
      } } } } }`,
      { id: changeRequest.id, pageId },
    );
    expect(graph.errors).toBeUndefined();
    return graph.data.node.content.page;
  };
  /** What the change request's content holds: its revision, and the space's page versions and bodies. */
  const snapshot = async () => ({
    revision: (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId,
    versions: await t.database.db.pageVersion.count({ where: { spaceId: space.id } }),
    documents: await t.database.db.document.count({ where: { spaceId: space.id } }),
  });
  return { team, token, space, changeRequest, base, batch, written, page, graphPage, snapshot };
}

/** Front matter as GitBook writes it: every layout option, a cover from the repository's assets, and the page's flags. */
const GITBOOK_PAGE = `---
description: How to install.
icon: rocket
cover: .gitbook/assets/cover.png
coverY: -42
layout:
  width: wide
  cover: { visible: true, size: hero }
  title: { visible: true }
  description: { visible: false }
  tableOfContents: { visible: true }
  outline: { visible: true }
  pagination: { visible: false }
  metadata: { visible: true }
hidden: true
noIndex: true
---

# Install

Run the installer.
`;

describe('GitBook front matter', () => {
  it('maps every key GitBook writes to the page, in REST and GraphQL, and writes them back: markdown → page → markdown is a fixed point', async () => {
    const { batch, written, page, graphPage } = await openChangeRequest('GitBook keys');
    const result = await written([
      { operation: 'insert_files', files: [{ name: 'cover.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', title: 'Install', document: { markdown: GITBOOK_PAGE }, ref: 'install' },
    ]);
    const fileId = result.insertedFiles[0]!.id;
    const pageId = result.changes.find((change) => change.ref === 'install')!.page.id;

    const read = await page(pageId);
    expect(read).toMatchObject({ title: 'Install', description: 'How to install.', icon: 'rocket', hidden: true, noIndex: true, noRobotsIndex: false });
    expect(read.layout).toEqual({
      ...DEFAULT_PAGE_LAYOUT,
      width: 'wide',
      cover: true,
      coverSize: 'hero',
      title: true,
      description: false,
      tableOfContents: true,
      outline: true,
      pagination: false,
      metadata: true,
    });
    // The cover's path is a file of the revision: it became a file reference.
    expect(read.cover).toEqual({ ref: { kind: 'file', file: fileId }, yPos: -42 });
    expect(read.markdown).toBe(`---
description: How to install.
hidden: true
noIndex: true
icon: rocket
cover: /files/${fileId}
coverY: -42
layout:
  width: wide
  cover:
    visible: true
    size: hero
  title:
    visible: true
  description:
    visible: false
  tableOfContents:
    visible: true
  outline:
    visible: true
  pagination:
    visible: false
  metadata:
    visible: true
---

# Install

Run the installer.
`);

    const graph = await graphPage(pageId);
    expect(graph).toMatchObject({ markdown: read.markdown, description: read.description, icon: read.icon, hidden: true, noIndex: true, variables: null });
    expect(graph.layout).toEqual(read.layout);
    expect(graph.cover).toEqual({ ref: read.cover.ref, refDark: null, yPos: -42, height: null });

    // Written back as read: the same page, and the same markdown again.
    const update = await batch([{ operation: 'update_page', page: pageId, document: { markdown: read.markdown } }]);
    expect(update.statusCode, update.body).toBe(200);
    const reread = await page(pageId);
    expect(reread.markdown).toBe(read.markdown);
    expect({ ...reread, updatedAt: undefined }).toEqual({ ...read, updatedAt: undefined });
  });

  it('reads back, byte for byte, what GitBook writes: every key, a cover by URL and a dark one, variables and a condition', async () => {
    const { written, page, graphPage } = await openChangeRequest('Byte for byte');
    const markdown = `---
description: >-
  Use the API, the SDK and the developer tools to build integrations, automate
  workflows and tailor the docs to your product
hidden: true
noIndex: true
noRobotsIndex: true
icon: money-bill-transfer
if: visitor.claims.unsigned.beta == true
cover:
  light: https://images.example.test/hero.png
  dark: https://images.example.test/hero-dark.png
coverY: 12.5
coverHeight: 324
layout:
  width: default
  cover:
    visible: true
    size: background
    mask: radial
  title:
    visible: false
  description:
    visible: false
  tableOfContents:
    visible: true
  outline:
    visible: false
  pagination:
    visible: true
  metadata:
    visible: true
  tags:
    visible: true
  actions:
    visible: true
  anchors:
    visible: false
vars:
  latest: v3.0.4
  major: 3
  stable: true
---

# Developers
`;
    const pageId = (await written([{ operation: 'insert_page', title: 'Developers', document: { markdown } }])).changes[0]!.page.id;
    const read = await page(pageId);
    expect(read.markdown).toBe(markdown);
    expect(read).toMatchObject({
      noRobotsIndex: true,
      condition: 'visitor.claims.unsigned.beta == true',
      variables: { latest: 'v3.0.4', major: 3, stable: true },
      cover: {
        ref: { kind: 'url', url: 'https://images.example.test/hero.png' },
        refDark: { kind: 'url', url: 'https://images.example.test/hero-dark.png' },
        yPos: 12.5,
        height: 324,
      },
      layout: { width: 'default', cover: true, coverSize: 'background', coverMask: 'radial', title: false, outline: false, anchors: false },
    });
    const graph = await graphPage(pageId);
    expect(graph).toMatchObject({ markdown, variables: read.variables, noRobotsIndex: true, layout: read.layout });
    expect(graph.cover).toEqual({ ...read.cover });
  });

  it('resolves a cover path relative to the page, a file id and a file of the batch; keeps any other address', async () => {
    const { token, space, changeRequest, written, page } = await openChangeRequest('Cover paths');
    const top = await written([
      { operation: 'insert_files', files: [{ ref: 'banner', name: 'banner image.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', title: 'Guides', document: { markdown: '# Guides\n' }, ref: 'guides' },
    ]);
    const fileId = top.insertedFiles[0]!.id;
    const guides = top.changes.find((change) => change.ref === 'guides')!.page.id;
    const cover = async (path: string) => {
      const change = { operation: 'insert_page', title: `Cover ${path}`, into: guides, document: { markdown: `---\ncover: ${path}\n---\n\nBody\n` } };
      return (await page((await written([change])).changes[0]!.page.id)).cover;
    };
    // guides/<page>.md is in the folder guides: the assets are one level up; URL-encoded as Markdown links are.
    expect(await cover('../.gitbook/assets/banner%20image.png')).toEqual({ ref: { kind: 'file', file: fileId }, yPos: 0 });
    expect(await cover('"/.gitbook/assets/banner image.png"')).toEqual({ ref: { kind: 'file', file: fileId }, yPos: 0 });
    expect(await cover(`/files/${fileId}`)).toEqual({ ref: { kind: 'file', file: fileId }, yPos: 0 });
    expect(await cover('.gitbook/assets/missing.png')).toEqual({ ref: { kind: 'url', url: '.gitbook/assets/missing.png' }, yPos: 0 });
    expect(await cover('https://example.test/cover.png')).toEqual({ ref: { kind: 'url', url: 'https://example.test/cover.png' }, yPos: 0 });
    // A file of the batch by its ref.
    const sameBatch = await written([
      { operation: 'insert_files', files: [{ ref: 'fresh', name: 'fresh.png', contentType: 'image/png', base64: PNG }] },
      { operation: 'insert_page', title: 'Fresh', document: { markdown: '---\ncover: ./fresh\n---\n' }, ref: 'fresh-page' },
    ]);
    expect((await page(sameBatch.changes.find((change) => change.ref === 'fresh-page')!.page.id)).cover).toEqual({
      ref: { kind: 'file', file: sameBatch.insertedFiles[0]!.id },
      yPos: 0,
    });
    // Once merged, the space reads the same covers (file ids are the space's files).
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token })).statusCode).toBe(200);
    const merged = (await t.call('GET', `/v1/spaces/${space.id}/content/path/fresh`, { token })).json();
    expect(merged.cover.ref).toEqual({ kind: 'file', file: sameBatch.insertedFiles[0]!.id });
  });
});

describe('page fields in the content batch', () => {
  it('sets, replaces and resets layout, cover and variables (official shapes), in REST, GraphQL and the change request changes', async () => {
    const { batch, written, page, graphPage, base, token } = await openChangeRequest('Batch fields');
    const files = await written([{ operation: 'insert_files', files: [{ name: 'c.png', contentType: 'image/png', base64: PNG }] }]);
    const fileId = files.insertedFiles[0]!.id;
    const pageId = (
      await written([
        {
          operation: 'insert_page',
          title: 'Options',
          layout: { width: 'wide', outline: false },
          cover: { ref: { kind: 'file', file: fileId }, refDark: { kind: 'url', url: 'https://example.test/dark.png' }, yPos: 7, height: 300 },
          variables: { product: 'Acme', seats: 10 },
          document: { markdown: 'Body\n' },
        },
      ])
    ).changes[0]!.page.id;
    const read = await page(pageId);
    expect(read.layout).toEqual({ ...DEFAULT_PAGE_LAYOUT, width: 'wide', outline: false });
    expect(read.cover).toEqual({ ref: { kind: 'file', file: fileId }, refDark: { kind: 'url', url: 'https://example.test/dark.png' }, yPos: 7, height: 300 });
    expect(read.variables).toEqual({ product: 'Acme', seats: 10 });
    expect(read.markdown).toBe(`---
cover:
  light: /files/${fileId}
  dark: https://example.test/dark.png
coverY: 7
coverHeight: 300
layout:
  width: wide
  outline:
    visible: false
vars:
  product: Acme
  seats: 10
---

Body
`);
    const graph = await graphPage(pageId);
    expect(graph).toMatchObject({ markdown: read.markdown, variables: read.variables, layout: read.layout });
    expect(graph.cover).toEqual(read.cover);

    // A layout replaces the page's (what it leaves out is at its default); {} and null reset.
    await written([{ operation: 'update_page', page: pageId, layout: { tableOfContents: false } }]);
    expect((await page(pageId)).layout).toEqual({ ...DEFAULT_PAGE_LAYOUT, tableOfContents: false });
    const changes = (await t.call('GET', `${base}/changes`, { token })).json();
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes', 200, changes);
    await written([{ operation: 'update_page', page: pageId, layout: {}, cover: null, variables: {} }]);
    const reset = await page(pageId);
    expect(reset.layout).toEqual(DEFAULT_PAGE_LAYOUT);
    expect(reset).not.toHaveProperty('cover');
    expect(reset).not.toHaveProperty('variables');
    expect(reset.markdown).toBe('Body\n');

    // Refused: a file the change request lacks, a layout option or variable it does not know.
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ cover: { ref: { kind: 'file', file: 'file_missing' } } }, /^changes\.0\.cover\.ref\.file: no file "file_missing" in the change request$/],
      [{ cover: { ref: { kind: 'url', url: 'javascript:alert(1)' } } }, /^changes\.0\.cover\.ref\.url: must be an http\(s\) address or a path/],
      [{ layout: { width: 'full' } }, /^changes\.0\.layout\.width: /],
      [{ layout: { sidebar: false } }, /^changes\.0\.layout: /],
      [{ variables: { 'not a name': 1 } }, /^changes\.0\.variables/],
      [{ variables: { nested: { a: 1 } } }, /^changes\.0\.variables\.nested: must be a string of up to 256 characters, a number or a boolean/],
    ];
    for (const [fields, message] of refusals) {
      const response = await batch([{ operation: 'update_page', page: pageId, ...fields }]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
  });

  it('shows a layout, cover and variables changed in a change request as official change attributes, and merges them three ways', async () => {
    const { space, token, written, base } = await openChangeRequest('Attributes');
    const pageId = (await written([{ operation: 'insert_page', title: 'Merged', document: { markdown: 'Body\n' } }])).changes[0]!.page.id;
    const firstId = base.split('/').at(-1)!;
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${firstId}/merge`, { token })).statusCode).toBe(200);
    // Two change requests edit different fields of the same page: both are kept by the merges.
    const open = async () => (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json().id as string;
    const [left, right] = [await open(), await open()];
    const edit = (changeRequestId: string, fields: Record<string, unknown>) =>
      t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content`, {
        token,
        body: { changes: [{ operation: 'update_page', page: pageId, ...fields }] },
      });
    expect((await edit(left, { layout: { title: false } })).statusCode).toBe(200);
    expect((await edit(right, { cover: { ref: { kind: 'url', url: 'https://example.test/c.png' } }, variables: { v: '1' } })).statusCode).toBe(200);

    const changes = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${left}/changes`, { token })).json();
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes', 200, changes);
    expect(changes.changes[0].attributes).toEqual({ layout: { before: DEFAULT_PAGE_LAYOUT, after: { ...DEFAULT_PAGE_LAYOUT, title: false } } });
    const other = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${right}/changes`, { token })).json();
    expect(other.changes[0].attributes).toEqual({
      cover: { after: { ref: { kind: 'url', url: 'https://example.test/c.png' }, yPos: 0 } },
      variables: { after: { v: '1' } },
    });

    for (const id of [left, right]) expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${id}/merge`, { token })).statusCode).toBe(200);
    const merged = (await t.call('GET', `/v1/spaces/${space.id}/content/page/${pageId}`, { token })).json();
    expect(merged.layout).toEqual({ ...DEFAULT_PAGE_LAYOUT, title: false });
    expect(merged.cover).toEqual({ ref: { kind: 'url', url: 'https://example.test/c.png' }, yPos: 0 });
    expect(merged.variables).toEqual({ v: '1' });
  });
});

describe('front matter limits', () => {
  it('refuses front matter too large, with too many keys, a duplicate key, a tag or too many aliases, naming the first only, and writes nothing', async () => {
    const { batch, snapshot } = await openChangeRequest('Limits');
    const before = await snapshot();
    const keys = (count: number, line = (index: number) => `k${index}: v`) => Array.from({ length: count }, (_, index) => line(index)).join('\n');
    const laughs = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(', ')}]`),
    ].join('\n');
    const cases: Array<[string, string | RegExp]> = [
      // The issue's reproduction: 20,000 keys (209 KB) once cost seconds of a stalled server and a 149 KB answer.
      [keys(20_000), `changes.0.document.markdown: front matter is 188889 characters, more than the ${FRONT_MATTER_LIMITS.maxCharacters} it may have`],
      [
        keys(FRONT_MATTER_LIMITS.maxEntries + 1),
        `changes.0.document.markdown: front matter has more than ${FRONT_MATTER_LIMITS.maxEntries} keys and list items`,
      ],
      [`description: d\nvars:\n${keys(600, (index) => `  - ${index}`)}`, /front matter has more than 500 keys and list items$/],
      [`description: one\nicon: gear\ndescription: two\nicon: tag`, 'changes.0.document.markdown: front matter: the key "description" is there twice'],
      [`layout:\n  title: {visible: true}\n  title: {visible: false}`, 'changes.0.document.markdown: front matter.layout: the key "title" is there twice'],
      // Unknown keys: the first is named, not every one.
      [keys(400), /^changes\.0\.document\.markdown: front matter: k0 is not a front matter field \(title, description, [^)]*\)$/],
      [
        'description: !!js/function "function () { return 1 }"',
        'changes.0.document.markdown: front matter.description: the YAML tag !!js/function is not accepted',
      ],
      ['layout: !gitbook {width: wide}', 'changes.0.document.markdown: front matter.layout: the YAML tag !gitbook is not accepted'],
      ['vars:\n  built: !!timestamp 2001-12-14', 'changes.0.document.markdown: front matter.vars.built: the YAML tag !!timestamp is not accepted'],
      [
        `${laughs}\ndescription: x`,
        `changes.0.document.markdown: front matter repeats its anchors (&name) through aliases (*name) more than the ${FRONT_MATTER_LIMITS.maxAliases} times it may`,
      ],
      ['? [a, b]\n: c', 'changes.0.document.markdown: front matter: keys must be plain names, not collections'],
    ];
    for (const [yaml, message] of cases) {
      const response = await batch([{ operation: 'insert_page', title: 'Refused', document: { markdown: `---\n${yaml}\n---\n\nBody\n` } }]);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
      const text = response.json().error.message;
      if (typeof message === 'string') expect(text).toBe(message);
      else expect(text).toMatch(message);
      expect(text.length).toBeLessThan(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('keeps stderr clean: an unknown tag is refused without the YAML parser writing a warning outside the log', async () => {
    const { batch } = await openChangeRequest('Quiet');
    const written = vi.spyOn(process.stderr, 'write');
    const warned = vi.spyOn(process, 'emitWarning');
    for (const yaml of ['description: !!js/function "f"', 'cover: !custom x', 'layout: !!set {a}', 'icon: !!binary aGk=']) {
      const response = await batch([{ operation: 'insert_page', title: 'Tagged', document: { markdown: `---\n${yaml}\n---\n` } }]);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/the YAML tag !\S+ is not accepted$/);
    }
    expect(warned).not.toHaveBeenCalled();
    expect(written).not.toHaveBeenCalled();
  });

  it('answers /healthz within a second while it refuses the 20,000-key front matter, and while it reads 50 pages of front matter at the limits', async () => {
    const { batch, written } = await openChangeRequest('Stalls');
    const url = await t.listen();
    const probe = probeHealthz(url);
    const refused = await batch([
      { operation: 'insert_page', document: { markdown: `---\n${Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n')}\n---\n` } },
    ]);
    expect(refused.statusCode).toBe(400);
    // As large as allowed and as slow to read as YAML gets within the limits: comments, and the most keys.
    const filler = Array.from({ length: 2_000 }, (_, index) => `# ${String(index).padStart(5, '0')}`).join('\n');
    const heavy = `description: heavy\nvars:\n${Array.from({ length: 100 }, (_, index) => `  v${index}: [${index}]`.replace(/\[|\]/g, '')).join('\n')}\n`;
    const front = `${heavy}${filler}`.slice(0, FRONT_MATTER_LIMITS.maxCharacters);
    const pages = Array.from({ length: 50 }, (_, index) => ({
      operation: 'insert_page',
      title: `Heavy ${index}`,
      document: { markdown: `---\n${front}\n---\n\nBody\n` },
    }));
    const result = await written(pages);
    expect(result.changes).toHaveLength(50);
    const { worstMs, answered } = await probe.stop();
    expect(answered).toBeGreaterThan(0);
    expect(worstMs).toBeLessThan(1_000);
  });
});

describe('strict and repository front matter', () => {
  it('refuses an unknown key, a key of layout it does not know and a bad value in the content batch', async () => {
    const { batch, snapshot } = await openChangeRequest('Strict');
    const before = await snapshot();
    const cases: Array<[string, string | RegExp]> = [
      ['tags:\n  - changelog', /^changes\.0\.document\.markdown: front matter: tags is not a front matter field \(title, description, emoji, icon, hidden/],
      [
        'layout:\n  sidebar:\n    visible: false',
        /^changes\.0\.document\.markdown: front matter\.layout: sidebar is not a key of layout \(width, cover, title,/,
      ],
      ['layout:\n  title: true', 'changes.0.document.markdown: front matter.layout.title: must be a mapping of visible'],
      ['layout: editorial', /^changes\.0\.document\.markdown: front matter\.layout: must be a mapping of width, cover, title/],
      ['coverY: high', /^changes\.0\.document\.markdown: front matter\.coverY: /],
      ['cover: javascript:alert(1)', 'changes.0.document.markdown: front matter.cover: must be an http(s) address or a path to a file of the content'],
      ['vars:\n  v: [1, 2]', /^changes\.0\.document\.markdown: front matter\.vars\.v: must be a string of up to 256 characters/],
      ['- a\n- b', 'changes.0.document.markdown: front matter must be a mapping of keys (key: value lines)'],
    ];
    for (const [yaml, message] of cases) {
      const response = await batch([{ operation: 'insert_page', title: 'Strict', document: { markdown: `---\n${yaml}\n---\n\nBody\n` } }]);
      expect(response.statusCode, response.body).toBe(400);
      if (typeof message === 'string') expect(response.json().error.message).toBe(message);
      else expect(response.json().error.message).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('writes a page from a repository with its unknown keys and bad values left out, each reported as a warning', async () => {
    const { space, token } = await openChangeRequest('Repository');
    const markdown = `---
description: From Git
tags:
  - changelog
layout:
  width: wide
  sidebar:
    visible: false
  title:
    visible: false
coverY: high
vars:
  ok: yes
  bad: [1, 2]
---

# From Git
`;
    // What Git sync does with a repository's files: bodies read as a repository's, then written as a revision of the space.
    const ctx = createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS });
    const { changes, warnings } = await prepareChanges([{ operation: 'insert_page', document: { markdown } }], { mode: 'repository' });
    expect(warnings).toEqual([
      'changes.0.document.markdown: front matter: tags is not a front matter field (title, description, emoji, icon, hidden, noIndex, noRobotsIndex, if, cover, coverY, coverHeight, layout, vars); left out',
      'changes.0.document.markdown: front matter.layout: sidebar is not a key of layout (width, cover, title, description, tableOfContents, outline, pagination, metadata, tags, actions, anchors); left out',
      expect.stringMatching(/^changes\.0\.document\.markdown: front matter\.coverY: .+; left out$/),
      'changes.0.document.markdown: front matter.vars.bad: must be a string of up to 256 characters, a number or a boolean; left out',
    ]);
    const pageId = await inTransaction(ctx, 'recorded-by-work', async (tx) => {
      const current = await tx.db.space.findUniqueOrThrow({ where: { id: space.id } });
      const base = await loadPageTree(tx, current.revisionId);
      const applied = await applyChanges(tx, space.id, base, changes, () => loadPageTree(tx, current.revisionId));
      await storeDocuments(tx, space.id, applied.markdowns);
      const revisionId = await writeRevision(tx, {
        spaceId: space.id,
        changeRequestId: null,
        type: 'edits',
        parents: [current.revisionId],
        base,
        pages: applied.pages.values(),
      });
      await tx.db.space.update({ where: { id: space.id }, data: { revisionId } });
      return applied.outcomes[0]!.pageId;
    });
    const read = (await t.call('GET', `/v1/spaces/${space.id}/content/page/${pageId}`, { token })).json();
    expect(read).toMatchObject({ title: 'From Git', description: 'From Git', layout: { ...DEFAULT_PAGE_LAYOUT, width: 'wide', title: false } });
    expect(read).not.toHaveProperty('cover');
    expect(read.variables).toEqual({ ok: 'yes' });
    expect(read.markdown).toBe("---\ndescription: From Git\nlayout:\n  width: wide\n  title:\n    visible: false\nvars:\n  ok: 'yes'\n---\n\n# From Git\n");

    // What is never a warning: front matter that is not YAML, over the limits, with a duplicate key or a tag.
    for (const yaml of ['description: [unclosed', 'a: 1\na: 2', 'icon: !!js/function f']) {
      await expect(prepareChanges([{ operation: 'insert_page', document: { markdown: `---\n${yaml}\n---\n` } }], { mode: 'repository' })).rejects.toThrow(
        /^changes\.0\.document\.markdown: front matter/,
      );
    }
  });
});

describe('withFrontMatter, for exports', () => {
  const page = {
    description: null,
    emoji: null,
    icon: null,
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    condition: 'visitor.claims.beta',
    layout: null,
    cover: { ref: { kind: 'file', file: 'file_1' }, refDark: { kind: 'url', url: 'https://example.test/dark.png' }, yPos: 0 },
    variables: null,
  };

  it('writes a file cover where the export keeps the file, and leaves the condition out for readers', () => {
    const filePath = (fileId: string) => (fileId === 'file_1' ? '../.gitbook/assets/cover image.png' : `/files/${fileId}`);
    expect(withFrontMatter(page, 'Body\n', { filePath })).toBe(
      '---\nif: visitor.claims.beta\ncover:\n  light: ../.gitbook/assets/cover image.png\n  dark: https://example.test/dark.png\ncoverY: 0\n---\n\nBody\n',
    );
    expect(withFrontMatter(page, 'Body\n', { condition: false, extra: { title: 'Beta' } })).toBe(
      '---\ntitle: Beta\ncover:\n  light: /files/file_1\n  dark: https://example.test/dark.png\ncoverY: 0\n---\n\nBody\n',
    );
    // A cover without an image (GitBook writes `coverY: 0` alone) reads back as itself.
    const bare = { ...page, condition: null, cover: { yPos: 0 } };
    expect(withFrontMatter(bare, 'Body\n')).toBe('---\ncoverY: 0\n---\n\nBody\n');
    expect(splitFrontMatter(withFrontMatter(bare, 'Body\n'), 'markdown')).toEqual({ fields: { cover: { yPos: 0 } }, body: 'Body\n', warnings: [] });
  });
});
