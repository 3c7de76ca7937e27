import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { documentFromHtml } from '../../src/domain/content/model/from-html.ts';
import { documentFromMarkdown } from '../../src/domain/content/model/from-markdown.ts';
import { type Block, type JSONDocument, textOf } from '../../src/domain/content/model/nodes.ts';
import { officialDocumentError } from '../../src/domain/content/model/official-schema.ts';
import { markdownFromDocument } from '../../src/domain/content/model/to-markdown.ts';

/**
 * Web pages' HTML read into the content model (the website import's conversion; test/rest/import.test.ts
 * imports a whole rich page over HTTP): which markup becomes which block, what does not, and that every
 * document is valid and written as Markdown that reads back as the same Markdown.
 */

const html = (markup: string) => parse(`<main>${markup}</main>`, { comment: false, blockTextElements: { script: true, style: true } }).querySelector('main')!;
const read = (markup: string) => documentFromHtml(html(markup));
const types = (markup: string) => read(markup).nodes.map((node) => node.type);

/** The document is valid, and its Markdown reads back as a document written as the same Markdown. */
function expectSound(document: JSONDocument) {
  expect(officialDocumentError(document)).toBeNull();
  const markdown = markdownFromDocument(document);
  expect(markdownFromDocument(documentFromMarkdown(markdown))).toBe(markdown);
  return markdown;
}

function depthOf(blocks: Block[]): number {
  return Math.max(
    0,
    ...blocks.map(
      (node) =>
        1 + depthOf([...((node.nodes ?? []) as Block[]), ...(node.fragments ?? []).flatMap((each) => each.nodes)].filter((each) => each.object === 'block')),
    ),
  );
}

describe('callouts', () => {
  it.each([
    ['<div class="admonition note"><p class="admonition-title">Note</p><p>x</p></div>', 'info'],
    ['<div class="alert alert-danger" role="alert">x</div>', 'danger'],
    ['<div class="markdown-alert markdown-alert-caution"><p class="markdown-alert-title">Caution</p><p>x</p></div>', 'warning'],
    ['<aside class="starlight-aside starlight-aside--tip"><p class="starlight-aside__title">Tip</p><div><p>x</p></div></aside>', 'success'],
    ['<div class="custom-block warning"><p class="custom-block-title">WARNING</p><p>x</p></div>', 'warning'],
    ['<p class="note">x</p>', 'info'],
    ['<blockquote class="callout" data-callout="bug"><p>x</p></blockquote>', 'danger'],
  ])('%s is a %s hint, its title naming the style left out', (markup, style) => {
    const document = read(markup);
    expect(document.nodes.map((node) => [node.type, node.data?.style, textOf(node)])).toEqual([['hint', style, 'x']]);
    expectSound(document);
  });

  it('keeps a title of its own, in bold, and makes what a hint may not hold fit', () => {
    const document = read(
      '<div class="admonition tip"><p class="admonition-title">Before you start</p><pre><code class="language-sh">npm i</code></pre></div>',
    );
    expect(expectSound(document)).toBe('{% hint style="success" %}\n**Before you start**\n\n`npm i`\n{% endhint %}\n');
  });

  it('leaves elements whose class only contains a callout word alone', () => {
    expect(types('<div class="page-info"><p>a</p></div><div class="notes-list"><p>b</p></div><span class="tip">c</span>')).toEqual([
      'paragraph',
      'paragraph',
      'paragraph',
    ]);
  });
});

describe('code', () => {
  it('takes a title only from an element around the code that holds nothing else', () => {
    expect(read('<div><p>Run:</p><pre><code>x</code></pre></div>').nodes.map((node) => [node.type, node.data])).toEqual([
      ['paragraph', {}],
      ['code', {}],
    ]);
    const titled = read('<figure><figcaption>Shell</figcaption><pre data-language="bash">x\ny\n</pre></figure>');
    expect(titled.nodes.map((node) => [node.type, node.data, (node.nodes ?? []).length])).toEqual([['code', { syntax: 'bash', title: 'Shell' }, 2]]);
    expect(read('<div data-filename="a.py"><pre class="language-python"><span class="linenos">1</span>x</pre></div>').nodes[0]).toMatchObject({
      type: 'code',
      data: { syntax: 'python', title: 'a.py' },
    });
    expect(textOf(read('<div data-filename="a.py"><pre class="language-python"><span class="linenos">1</span>x</pre></div>').nodes[0]!)).toBe('x');
  });
});

describe('structure', () => {
  it('reads tables without a header, with spans and blocks in cells, as HTML tables', () => {
    const document = read('<table><tr><td><ul><li>a</li></ul></td><td colspan="2">b</td></tr><tr><td>c</td></tr></table>');
    expect(document.nodes[0]).toMatchObject({ type: 'table', data: { view: { type: 'grid', hideHeader: true, columns: ['c1', 'c2', 'c3'] } } });
    expect(expectSound(document)).toMatch(/^<table data-header-hidden>/);
  });

  it('reads tabs whose panels follow in order, and a tab list without panels as empty tabs', () => {
    const document = read(
      '<div><div role="tablist"><span role="tab">A</span><span role="tab">B</span></div><div role="tabpanel"><p>a</p></div><div role="tabpanel"><p>b</p></div></div><div role="tablist"><span role="tab">Alone</span></div>',
    );
    expect(document.nodes.map((node) => [node.type, (node.nodes as Block[]).map((tab) => [tab.data?.title, textOf(tab)])])).toEqual([
      [
        'tabs',
        [
          ['A', 'a'],
          ['B', 'b'],
        ],
      ],
      ['tabs', [['Alone', '']]],
    ]);
    expectSound(document);
  });

  it('bounds the nesting of containers: deeper quotes, lists and details are read as their content', () => {
    for (const [open, close] of [
      ['<blockquote>', '</blockquote>'],
      ['<ul><li>', '</li></ul>'],
      ['<details><summary>s</summary>', '</details>'],
      ['<div class="admonition note">', '</div>'],
    ]) {
      const document = read(`${open!.repeat(300)}<p>deep</p>${close!.repeat(300)}`);
      expect(depthOf(document.nodes)).toBeLessThanOrEqual(40);
      expect(expectSound(document)).toContain('deep');
    }
  });

  it('keeps the text of what it has no block for, and leaves out what is not content', () => {
    const document = read(
      '<p>A <abbr title="x">TLA</abbr>, <u>under</u> and <button>Copy</button><svg><text>icon</text></svg><input value="v"> <a href="#top">top</a>.</p><a class="card" href="/guide/"><h3>Guide</h3><p>Read it</p></a>',
    );
    expect(expectSound(document)).toBe('A TLA, under and [top](#top).\n\n### [Guide](/guide/)\n\n[Read it](/guide/)\n');
  });
});
