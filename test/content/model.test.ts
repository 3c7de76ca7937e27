import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ALLOWED_CHILDREN } from '../../src/domain/content/model/containers.ts';
import { documentFromMarkdown } from '../../src/domain/content/model/from-markdown.ts';
import type { Block, Fragment, Inline, JSONDocument, Text } from '../../src/domain/content/model/nodes.ts';
import { textOf } from '../../src/domain/content/model/nodes.ts';
import { canonicalDocument } from '../../src/domain/content/model/normalize.ts';
import { officialDocumentError } from '../../src/domain/content/model/official-schema.ts';
import { resolveReferences, servable } from '../../src/domain/content/model/references.ts';
import { blocksText, textSections } from '../../src/domain/content/model/text.ts';
import { markdownFromDocument } from '../../src/domain/content/model/to-markdown.ts';

/**
 * The content model on its fixture corpus (test/content/fixtures/*.md, each construct of GitBook's
 * Markdown dialect alone and combined as real pages combine them): what each construct reads as,
 * that every document is valid under the official schema, both round trips, and that what the
 * dialect does not know stays as text.
 */

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixtures = fs
  .readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.md'))
  .map((name) => [name, fs.readFileSync(path.join(FIXTURES, name), 'utf8')] as const);

type AnyNode = Block | Inline | Text;

/** Every node of a document, depth first, fragments included. */
function allNodes(document: JSONDocument): AnyNode[] {
  const found: AnyNode[] = [];
  const walk = (node: AnyNode) => {
    found.push(node);
    if (node.object === 'text') return;
    for (const child of (node.nodes ?? []) as AnyNode[]) walk(child);
    for (const each of (node.fragments ?? []) as Fragment[]) for (const child of each.nodes) walk(child);
  };
  for (const node of document.nodes) walk(node);
  return found;
}

const read = (markdown: string) => documentFromMarkdown(markdown);
const first = (markdown: string, type: string) => {
  const node = allNodes(read(markdown)).find((each) => each.object !== 'text' && each.type === type);
  if (!node) throw new Error(`no ${type} in ${JSON.stringify(read(markdown))}`);
  return node as Block;
};
const types = (markdown: string) => read(markdown).nodes.map((node) => node.type);
const marksOf = (markdown: string) =>
  allNodes(read(markdown))
    .filter((node): node is Text => node.object === 'text')
    .flatMap((node) => node.leaves.map((leaf) => [leaf.text, leaf.marks.map((mark) => mark.type).join('+')]));

describe('each construct of the dialect', () => {
  it('headings: # to ### are heading-1 to 3, deeper ones heading-3, an anchor after the text is its id', () => {
    expect(types('# A\n\n## B\n\n### C\n\n#### D\n\n###### E')).toEqual(['heading-1', 'heading-2', 'heading-3', 'heading-3', 'heading-3']);
    expect(first('## Setup <a href="#custom-id" id="custom-id"></a>', 'heading-2')).toMatchObject({ data: { id: 'custom-id' } });
    expect(textOf(first('## Setup <a href="#custom-id" id="custom-id"></a>', 'heading-2'))).toBe('Setup');
    // A page file of a Git repository, whose `#` is its title: `##` is heading-1.
    expect(documentFromMarkdown('## A\n\n### B', { headingOffset: 1 }).nodes.map((node) => node.type)).toEqual(['heading-1', 'heading-2']);
  });

  it('lists: ordered with their start, unordered, tasks with checked, nested', () => {
    expect(first('3. three\n4. four', 'list-ordered').data).toEqual({ start: 3 });
    expect(first('1. one', 'list-ordered').data).toEqual({});
    expect(first('* a\n* b', 'list-unordered').nodes).toHaveLength(2);
    const tasks = first('- [ ] open\n- [x] done', 'list-tasks');
    expect(tasks.nodes?.map((item) => (item as Block).data)).toEqual([{ checked: false }, { checked: true }]);
    const outer = first('* a\n  * b\n    1. c', 'list-unordered');
    expect(
      allNodes({ object: 'document', data: {}, nodes: [outer] })
        .filter((node) => node.object === 'block' && node.type.startsWith('list-') && node.type !== 'list-item')
        .map((node) => (node as Block).type),
    ).toEqual(['list-unordered', 'list-unordered', 'list-ordered']);
  });

  it('quotes, dividers, paragraphs', () => {
    expect(types('> quoted\n\n***\n\ntext')).toEqual(['blockquote', 'divider', 'paragraph']);
    expect(first('> a\n> > b', 'blockquote').nodes?.map((node) => (node as Block).type)).toEqual(['paragraph', 'blockquote']);
  });

  it('code: syntax from the info string, title, overflow and line numbers from {% code %} or the info string', () => {
    const code = first('{% code title="server.js" overflow="wrap" lineNumbers="true" %}\n```js\na\nb\n```\n{% endcode %}', 'code');
    expect(code.data).toEqual({ syntax: 'js', title: 'server.js', overflow: 'wrap', lineNumbers: true });
    expect(code.nodes?.map((line) => [(line as Block).type, textOf(line as Block)])).toEqual([
      ['code-line', 'a'],
      ['code-line', 'b'],
    ]);
    expect(first('```js title="x.js"\nx\n```', 'code').data).toEqual({ syntax: 'js', title: 'x.js' });
  });

  it('hints: each style, with blocks inside', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      const hint = first(`{% hint style="${style}" %}\n**Careful**\n\n* one\n{% endhint %}`, 'hint');
      expect(hint.data).toEqual({ style });
      expect(hint.nodes?.map((node) => (node as Block).type)).toEqual(['paragraph', 'list-unordered']);
    }
  });

  it('tabs: a tabs-item per tab, with its title', () => {
    const tabs = first('{% tabs %}\n{% tab title="macOS" %}\nmac\n{% endtab %}\n\n{% tab title="Linux" %}\nlinux\n{% endtab %}\n{% endtabs %}', 'tabs');
    expect(tabs.nodes?.map((tab) => [(tab as Block).type, (tab as Block).data?.title, textOf(tab as Block)])).toEqual([
      ['tabs-item', 'macOS', 'mac'],
      ['tabs-item', 'Linux', 'linux'],
    ]);
  });

  it('expandable: <details> with its summary as title and Markdown as body, open or not', () => {
    const expandable = first('<details>\n\n<summary>More **info**</summary>\n\nBody text.\n\n</details>', 'expandable');
    const [title, body] = expandable.fragments ?? [];
    expect(title).toMatchObject({ fragment: 'expandable-title', type: 'expandable-title' });
    expect(textOf(title!.nodes[0]!)).toBe('More **info**');
    expect(body).toMatchObject({ fragment: 'expandable-body', type: 'expandable-body' });
    expect(textOf(body!.nodes[0]!)).toBe('Body text.');
    expect(first('<details open>\n\n<summary>T</summary>\n\nB\n\n</details>', 'expandable').data).toEqual({ defaultExpanded: true });
    expect(textOf(first('<details>\n<summary>Compact</summary>\nAll in one block.\n</details>', 'expandable').fragments![1]!.nodes[0]!)).toBe(
      'All in one block.',
    );
  });

  it('math: $$ blocks and inline $$…$$, while a lone $ is money', () => {
    expect(first('$$\nE = mc^2\n$$', 'math').data).toEqual({ formula: 'E = mc^2' });
    expect(first('so $$a+b$$ holds', 'inline-math').data).toEqual({ formula: 'a+b' });
    expect(allNodes(read('costs $5 and $10')).some((node) => node.object === 'inline')).toBe(false);
  });

  it('images: Markdown images and figures (alt, width, caption, a dark variant, alignment) as images blocks', () => {
    expect(first('![A diagram](.gitbook/assets/d.png)', 'image').data).toEqual({ ref: { kind: 'url', url: '.gitbook/assets/d.png' }, alt: 'A diagram' });
    const figure = first('<figure><img src="a.png" alt="The editor" width="375"><figcaption><p>The <strong>editor</strong></p></figcaption></figure>', 'image');
    expect(figure.data).toEqual({ ref: { kind: 'url', url: 'a.png' }, alt: 'The editor', width: 375 });
    expect(figure.fragments?.[0]).toMatchObject({ fragment: 'caption' });
    expect(marksOf('<figure><img src="a.png" alt=""><figcaption><p>The <strong>editor</strong></p></figcaption></figure>')).toEqual([
      ['The ', ''],
      ['editor', 'bold'],
    ]);
    const dark = first(
      '<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt=""></picture><figcaption></figcaption></figure>',
      'image',
    );
    expect(dark.data).toEqual({ ref: { kind: 'url', url: 'light.png' }, refDark: { kind: 'url', url: 'dark.png' } });
    const aligned = first('<div align="center"><figure><img src="a.png" alt="a"></figure><figure><img src="b.png" alt="b"></figure></div>', 'images');
    expect(aligned.data).toEqual({ align: 'center' });
    expect(aligned.nodes).toHaveLength(2);
    expect(first('text ![icon](i.png) and <img src="l.png" alt="logo" data-size="line"> more', 'inline-image').data).toEqual({
      ref: { kind: 'url', url: 'i.png' },
      alt: 'icon',
    });
    expect(allNodes(read('a <img src="l.png" alt="logo" data-size="line"> b')).find((node) => node.object === 'inline')).toMatchObject({
      type: 'inline-image',
      data: { ref: { kind: 'url', url: 'l.png' }, alt: 'logo', size: 'line' },
    });
  });

  it('embeds, content references and files', () => {
    expect(first('{% embed url="https://example.test/v" %}', 'embed').data).toEqual({ url: 'https://example.test/v' });
    expect(types('{% embed url="https://example.test/v" %}\nCaption\n{% endembed %}')).toEqual(['embed', 'paragraph']);
    expect(first('{% content-ref url="guides/install.md" %}\n[install.md](guides/install.md)\n{% endcontent-ref %}', 'content-ref').data).toEqual({
      ref: { kind: 'url', url: 'guides/install.md' },
    });
    expect(first('{% content-ref url="/pages/page_1" %}\n[x](/pages/page_1)\n{% endcontent-ref %}', 'content-ref').data).toEqual({
      ref: { kind: 'page', page: 'page_1' },
    });
    expect(first('{% file src="/files/file_1" %}', 'file').data).toEqual({ ref: { kind: 'file', file: 'file_1' } });
  });

  it('tables: GFM tables and GitBook HTML tables (types, widths, hidden header), card views with target and cover', () => {
    const grid = first('| A | B |\n| :-: | --: |\n| 1 | [x](https://y.test) |', 'table');
    expect(grid.data).toMatchObject({
      view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
      definition: { c1: { id: 'c1', title: 'A', type: 'text', textAlignment: 'center' }, c2: { title: 'B', textAlignment: 'right' } },
      records: { r1: { values: { c1: 'r1-c1', c2: 'r1-c2' } } },
    });
    expect(grid.fragments?.map((each) => [each.fragment, textOf(each.nodes[0]!)])).toEqual([
      ['r1-c1', '1'],
      ['r1-c2', 'x'],
    ]);
    expect(allNodes({ object: 'document', data: {}, nodes: grid.fragments![1]!.nodes }).find((node) => node.object === 'inline')).toMatchObject({
      type: 'link',
      data: { ref: { kind: 'url', url: 'https://y.test' } },
    });
    const typed = first(
      '<table data-header-hidden><thead><tr><th width="200">Name</th><th data-type="number">N</th><th data-type="checkbox">On</th><th data-type="rating" data-max="5">R</th></tr></thead><tbody><tr><td>a</td><td>3</td><td>true</td><td>4</td></tr></tbody></table>',
      'table',
    );
    expect(typed.data).toMatchObject({
      view: { type: 'grid', hideHeader: true, columnWidths: { c1: 200 } },
      definition: { c2: { type: 'number' }, c3: { type: 'checkbox' }, c4: { type: 'rating', max: 5 } },
      records: { r1: { values: { c2: 3, c3: true, c4: 4 } } },
    });
    const cards = first(
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Quickstart</strong></td><td><a href="/pages/page_q">q</a></td><td><a href="/files/file_c">c.png</a></td></tr></tbody></table>',
      'table',
    );
    expect(cards.data).toMatchObject({
      view: { type: 'cards', columns: ['c1'], cardSize: 'medium', targetDefinition: 'c2', coverDefinition: 'c3' },
      records: { r1: { values: { c2: { kind: 'page', page: 'page_q' }, c3: ['file_c'] } } },
    });
  });

  it('steppers and columns', () => {
    const stepper = first('{% stepper %}\n{% step %}\n### One\n{% endstep %}\n\n{% step %}\nTwo\n{% endstep %}\n{% endstepper %}', 'stepper');
    expect(stepper.nodes?.map((step) => (step as Block).type)).toEqual(['stepper-step', 'stepper-step']);
    const columns = first(
      '{% columns %}\n{% column width="50%" %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}',
      'columns',
    );
    expect(columns.nodes?.map((column) => (column as Block).data)).toEqual([{ width: { unit: '%', value: 50 } }, {}]);
  });

  it('updates: a day is that day at midnight, UTC, and writes back as the day', () => {
    const updates = first('{% updates format="full" %}\n{% update date="2026-11-28" %}\nReleased\n{% endupdate %}\n{% endupdates %}', 'updates');
    expect((updates.nodes![0] as Block).data).toEqual({ date: '2026-11-28T00:00:00.000Z' });
    expect(markdownFromDocument(read('{% updates format="full" %}\n{% update date="2026-11-28" %}\nReleased\n{% endupdate %}\n{% endupdates %}'))).toContain(
      '{% update date="2026-11-28" %}',
    );
  });

  it('OpenAPI operations name a spec of the organization; integration blocks keep their props', () => {
    expect(first('{% openapi-operation spec="petstore" path="/pets" method="get" %}\n[x](y)\n{% endopenapi-operation %}', 'openapi-operation').data).toEqual({
      ref: { kind: 'openapi', spec: 'petstore' },
      path: '/pets',
      method: 'get',
    });
    expect(first('{% @github-files/github-code-block url="https://github.com/a/b" %}', 'integration').data).toEqual({
      integration: 'github-files',
      block: 'github-code-block',
      props: { url: 'https://github.com/a/b' },
    });
  });

  it('inlines: links to URLs, pages, anchors and files, marks, emoji, buttons and icons', () => {
    const refs = allNodes(read('[a](https://x.test) [b](/pages/p1) [c](#setup) [d](/pages/p1#setup) [e](/files/f1) [f](../x.md)'))
      .filter((node) => node.object === 'inline')
      .map((node) => (node as Inline).data?.ref);
    expect(refs).toEqual([
      { kind: 'url', url: 'https://x.test' },
      { kind: 'page', page: 'p1' },
      { kind: 'anchor', anchor: 'setup' },
      { kind: 'anchor', anchor: 'setup', page: 'p1' },
      { kind: 'file', file: 'f1' },
      { kind: 'url', url: '../x.md' },
    ]);
    expect(marksOf('**b** _i_ `c` ~~s~~ <kbd>k</kbd> H<sub>2</sub> x<sup>2</sup> **_bi_**')).toEqual([
      ['b', 'bold'],
      [' ', ''],
      ['i', 'italic'],
      [' ', ''],
      ['c', 'code'],
      [' ', ''],
      ['s', 'strikethrough'],
      [' ', ''],
      ['k', 'keyboard'],
      [' H', ''],
      ['2', 'subscript'],
      [' x', ''],
      ['2', 'superscript'],
      [' ', ''],
      ['bi', 'bold+italic'],
    ]);
    const color = allNodes(read('<mark style="color:red;">red</mark>')).find((node) => node.object === 'text') as Text;
    expect(color.leaves[0]!.marks).toEqual([{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }]);
    expect(first('go 🚀 now', 'emoji').data).toEqual({ code: '1f680' });
    expect(allNodes(read('© and ™ stay text')).some((node) => node.object === 'inline')).toBe(false);
    expect(first('<a href="https://x.test/start" class="button primary">Start</a>', 'button').data).toEqual({
      label: 'Start',
      kind: 'primary',
      ref: { kind: 'url', url: 'https://x.test/start' },
    });
    expect(first('<i class="fa-gear">:gear:</i>', 'icon').data).toEqual({ icon: 'gear' });
  });

  it('relative references resolve to pages and files of a revision, and a file block naming nothing links to it', () => {
    const document = read(
      '[install](../guides/install.md#step) ![d](../.gitbook/assets/d.png)\n\n{% file src="../.gitbook/assets/missing.pdf" %}\n\n{% content-ref url="../README.md" %}\n[x](../README.md)\n{% endcontent-ref %}',
    );
    const resolved = servable(
      resolveReferences(document, {
        pagePath: 'reference/api',
        pageHasChildren: false,
        pageByPath: (path) => ({ 'guides/install': 'page_install', '': undefined })[path],
        fileByName: (name) => (name === 'd.png' ? 'file_d' : undefined),
      }),
    );
    expect(officialDocumentError(resolved)).toBeNull();
    const refs = allNodes(resolved).flatMap((node) => (node.object === 'text' ? [] : [node.data?.ref].filter(Boolean)));
    expect(refs).toEqual([
      { kind: 'anchor', anchor: 'step', page: 'page_install' },
      { kind: 'file', file: 'file_d' },
      { kind: 'url', url: '../.gitbook/assets/missing.pdf' },
      { kind: 'url', url: '../README.md' },
    ]);
    expect(resolved.nodes.map((node) => node.type)).toEqual(['paragraph', 'paragraph', 'content-ref']);
  });
});

describe('the fixture corpus', () => {
  it.each(fixtures)('%s reads as a document valid under the official schema', (_name, markdown) => {
    expect(officialDocumentError(servable(read(markdown)))).toBeNull();
  });

  it.each(fixtures)('%s: markdown → document → markdown is a fixed point after one normalization', (_name, markdown) => {
    const once = markdownFromDocument(read(markdown));
    expect(markdownFromDocument(read(once))).toBe(once);
  });

  it.each(fixtures)('%s: document → markdown → document gives the same tree', (_name, markdown) => {
    const document = read(markdown);
    expect(canonicalDocument(read(markdownFromDocument(document)))).toEqual(canonicalDocument(document));
  });

  it('combines constructs as real pages do: code and hints in tabs, links in tables, images and details in steps', () => {
    const document = read(fixtures.find(([name]) => name === 'combined.md')![1]);
    const tab = (allNodes(document).find((node) => node.object === 'block' && node.type === 'tabs-item') as Block).nodes as Block[];
    expect(tab.map((node) => node.type)).toEqual(['code', 'hint']);
    expect(tab[0]!.data).toMatchObject({ title: 'Terminal', syntax: 'bash' });
    const table = allNodes(document).find((node) => node.object === 'block' && node.type === 'table') as Block;
    expect(
      allNodes({ object: 'document', data: {}, nodes: table.fragments!.flatMap((each) => each.nodes) }).filter((node) => node.object === 'inline'),
    ).toHaveLength(2);
    const steps = (allNodes(document).find((node) => node.object === 'block' && node.type === 'stepper') as Block).nodes as Block[];
    expect(steps.map((step) => (step.nodes as Block[]).map((node) => node.type))).toEqual([
      ['heading-3', 'images'],
      ['heading-3', 'expandable'],
    ]);
  });

  it('keeps what the dialect does not know as text: unknown tags, raw HTML, unclosed and stray tags, footnotes', () => {
    const text = blocksText(read(fixtures.find(([name]) => name === 'unknown.md')![1]).nodes).join('\n');
    for (const kept of [
      '{% swagger method="get" path="/legacy"',
      '{% swagger-description %}',
      '{% include "../.gitbook/includes/snippet.md" %}',
      '{% custom-widget foo="bar" %}',
      '<div class="custom">raw <span>html</span></div>',
      '<!-- a comment -->',
      '{% endhint %}',
      '{% hint style="info" %}',
      'never closed',
      'Some text with {% inline tag %} in it.',
      'Footnote[^1].',
      '[^1]: The footnote.',
    ]) {
      expect(text).toContain(kept);
    }
  });
});

describe('what containers hold', () => {
  const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as { components: { schemas: Record<string, any> } };
  const schemas = spec.components.schemas;
  /** The block types a schema's `nodes` items may be, following $refs and oneOfs. */
  const typesOf = (schema: any): string[] => {
    if (schema.$ref) return typesOf(schemas[schema.$ref.split('/').at(-1)]);
    if (schema.oneOf) return schema.oneOf.flatMap(typesOf);
    if (schema.allOf) return schema.allOf.flatMap(typesOf);
    return schema.properties?.type?.enum ?? [];
  };
  const childTypes = (name: string, fragment?: string) => {
    const schema = schemas[name];
    if (fragment) {
      const branch = schema.properties.fragments.items.oneOf.find((each: any) => each.allOf[1].properties.fragment.enum[0] === fragment);
      return typesOf(branch.allOf[1].properties.nodes.items).sort();
    }
    return typesOf(schema.properties.nodes.items).sort();
  };

  it.each([
    ['document', 'JSONDocument'],
    ['if', 'DocumentBlockIf'],
    ['list-item', 'DocumentBlockListItem'],
    ['blockquote', 'DocumentBlockQuote'],
    ['hint', 'DocumentBlockHint'],
    ['tabs-item', 'DocumentBlockTabsItem'],
    ['stepper-step', 'DocumentBlockStepperStep'],
    ['column', 'DocumentBlockColumn'],
    ['update', 'DocumentBlockUpdate'],
  ] as const)('%s holds what the official %s says', (container, schema) => {
    expect([...ALLOWED_CHILDREN[container]].sort()).toEqual(childTypes(schema));
  });

  it('expandable-body holds what the official DocumentBlockExpandable says', () => {
    expect([...ALLOWED_CHILDREN['expandable-body']].sort()).toEqual(childTypes('DocumentBlockExpandable', 'expandable-body'));
  });

  it('makes what a container may not hold fit: an image in a list, code in a hint, a hint in a quote', () => {
    const document = read(
      '* item\n\n  ![i](https://x.test/i.png)\n\n{% hint style="info" %}\n```js\ncode()\n```\n{% endhint %}\n\n> {% hint style="info" %}\n> quoted hint\n> {% endhint %}',
    );
    expect(officialDocumentError(document)).toBeNull();
    expect(allNodes(document).find((node) => node.object === 'inline')).toMatchObject({ type: 'inline-image' });
    const hint = first('{% hint style="info" %}\n```js\ncode()\n```\n{% endhint %}', 'hint');
    expect(marksOf('{% hint style="info" %}\n```js\ncode()\n```\n{% endhint %}')).toEqual([['code()', 'code']]);
    expect(hint.nodes?.map((node) => (node as Block).type)).toEqual(['paragraph']);
  });
});

describe('bounded work', () => {
  it.each([
    ['a hundred thousand quotes on one line', `${'>'.repeat(100_000)} x`],
    ['twenty thousand nested hints', `${'{% hint style="info" %}\n'.repeat(20_000)}x\n${'{% endhint %}\n'.repeat(20_000)}`],
    ['fifty thousand unclosed hints', '{% hint style="info" %}\n\n'.repeat(50_000)],
    ['a hundred thousand nested divs', `${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`],
    ['fifty thousand unclosed <kbd>', 'a <kbd> b '.repeat(50_000)],
  ])('%s reads as a valid document, its text kept', (_name, markdown) => {
    const document = read(markdown);
    expect(officialDocumentError(document)).toBeNull();
    expect(blocksText(document.nodes).join('').length).toBeGreaterThan(0);
  });
});

describe('text for search', () => {
  it('keeps blocks, list items and table cells apart, so no words run together', () => {
    const [intro, section] = textSections(
      'Overview',
      read('* Write in change requests\n* Review and merge\n\nPublish\n\n## Tables\n\n| a | b |\n|---|---|\n| left | right |'),
    );
    expect(intro!.body.split('\n')).toEqual(['Write in change requests', 'Review and merge', 'Publish']);
    expect(section).toMatchObject({ sectionId: 'tables', title: 'Tables' });
    expect(section!.body.split('\n')).toEqual(expect.arrayContaining(['left', 'right']));
  });

  it('gives repeated headings distinct anchors', () => {
    expect(textSections('P', read('## Steps\n\na\n\n## Steps\n\nb')).map((section) => section.sectionId)).toEqual(['', 'steps', 'steps-2']);
  });
});
