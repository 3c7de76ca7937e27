import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LayoutPage, type ReadRepository, type RepoFile, readRepository, writeRepository } from '../../src/domain/git/layout.ts';

/**
 * GitBook's repository layout, with no I/O: a rich fixture repository (test/git/fixtures/rich:
 * SUMMARY.md with nesting, a group and a link, front matter, assets, links between pages, and the
 * content model's corpus as page bodies) read into pages and files and written back, both ways.
 */

const RICH = path.join(import.meta.dirname, 'fixtures', 'rich');
const LIMITS = { maxPages: 1000, maxFileBytes: 1024 * 1024 };

/** The files of a folder as the layout reads them (symbolic links as such). */
function filesOf(dir: string, prefix = ''): RepoFile[] {
  const out: RepoFile[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const stat = fs.lstatSync(full);
    const relative = prefix ? `${prefix}/${name}` : name;
    if (stat.isDirectory()) out.push(...filesOf(full, relative));
    else out.push({ path: relative, kind: stat.isSymbolicLink() ? 'symlink' : 'file', size: stat.size, read: async () => fs.readFileSync(full) });
  }
  return out;
}

/** Files given as text (a repository written in the test). */
function textFiles(files: Record<string, string>): RepoFile[] {
  return Object.entries(files).map(([filePath, text]) => {
    const bytes = Buffer.from(text);
    return { path: filePath, kind: 'file' as const, size: bytes.length, read: async () => bytes };
  });
}

/** Ids that are their path (so two reads of the same layout name pages alike). */
const byPath = { pageId: (slugPath: string) => `page_${slugPath.replace(/\//g, '__')}`, fileId: (name: string) => `file_${name.replace(/\W/g, '-')}` };

async function read(files: RepoFile[], ids = byPath): Promise<ReadRepository> {
  return readRepository(files, { limits: LIMITS, ...ids });
}

const outline = (pages: LayoutPage[]): unknown[] =>
  pages.map((page) => ({ title: page.title, slug: page.slug, type: page.type, ...(page.children.length ? { children: outline(page.children) } : {}) }));

/** Writes a read repository and returns the files as text (assets by the path they were read from). */
async function written(repository: ReadRepository): Promise<Map<string, string>> {
  const sources = new Map(repository.files.map((file) => [file.fileId, file]));
  const out = new Map<string, string>();
  for (const file of await writeRepository({ pages: repository.pages, files: repository.files }, repository.config)) {
    out.set(file.path, 'text' in file ? file.text : `<bytes of ${sources.get(file.fileId)!.path}>`);
  }
  return out;
}

describe('reading a repository', () => {
  it('reads the table of contents, groups, links, front matter and assets', async () => {
    const repository = await read(filesOf(RICH));
    expect(outline(repository.pages)).toEqual([
      { title: 'Introduction', slug: 'introduction', type: 'document' },
      {
        title: 'Getting started',
        slug: 'getting-started',
        type: 'document',
        children: [
          { title: 'Install', slug: 'install', type: 'document' },
          { title: 'Configure [advanced]', slug: 'configure', type: 'document' },
        ],
      },
      { title: 'Changelog', slug: 'changelog', type: 'link' },
      {
        title: 'Guides',
        slug: 'guides',
        type: 'group',
        children: [
          { title: 'Writing pages', slug: 'writing', type: 'document' },
          { title: 'Blocks', slug: 'blocks', type: 'document' },
        ],
      },
    ]);
    const [intro, started, link] = repository.pages;
    expect(intro!.fields).toEqual({ description: 'What this documentation covers.', icon: 'house' });
    expect(started!.fields.layout).toEqual({ width: 'wide', title: true, description: false });
    const configure = started!.children[1]!;
    expect(configure.fields.hidden).toBe(true);
    expect(configure.fields.cover).toEqual({ ref: { kind: 'file', file: 'file_diagram-png' }, yPos: 0 });
    expect(link!.target).toEqual({ kind: 'url', url: 'https://example.test/changelog' });
    // Links between pages and to assets are references by id in the space; the title is not in the body.
    expect(intro!.markdown).toContain('[Getting started](/pages/page_getting-started)');
    expect(intro!.markdown).toContain('[install](/pages/page_getting-started__install#requirements)');
    expect(intro!.markdown).toContain('<img src="/files/file_diagram-png" alt="A diagram">');
    expect(intro!.markdown).not.toContain('Introduction');
    // The page's `## Next` is its first heading level.
    expect(intro!.markdown).toContain('\n# Next\n');
    expect(repository.files.map((file) => [file.name, file.path])).toEqual([
      ['diagram.png', '.gitbook/assets/diagram.png'],
      ['report.pdf', '.gitbook/assets/report.pdf'],
    ]);
    expect(repository.warnings).toEqual([]);
  });

  it('writes back the same bytes: repository → space → repository is a fixed point', async () => {
    const files = filesOf(RICH);
    const out = await written(await read(files));
    const expected = new Map<string, string>();
    for (const file of files) {
      expected.set(file.path, file.path.startsWith('.gitbook/assets/') ? `<bytes of ${file.path}>` : Buffer.from(await file.read()).toString('utf8'));
    }
    expect(Object.fromEntries(out)).toEqual(Object.fromEntries(expected));
  });

  it('reads what it writes: space → repository → space is a fixed point, and writing is deterministic', async () => {
    const first = await read(filesOf(RICH));
    const out = await writeRepository(first, first.config);
    expect(await writeRepository(first, first.config)).toEqual(out);
    const sources = new Map(first.files.map((file) => [file.fileId, file]));
    const again = await read(
      out.map((file) =>
        'text' in file
          ? { path: file.path, kind: 'file' as const, size: Buffer.byteLength(file.text), read: async () => Buffer.from(file.text) }
          : { ...sources.get(file.fileId)!, path: file.path, kind: 'file' as const },
      ),
    );
    expect(again.pages).toEqual(first.pages);
    expect(again.files.map(({ fileId, name }) => ({ fileId, name }))).toEqual(first.files.map(({ fileId, name }) => ({ fileId, name })));
  });

  it('builds the tree from the folders without a SUMMARY.md', async () => {
    const repository = await read(
      textFiles({
        'README.md': '# Home\n\nHello.\n',
        'api/README.md': '# API\n',
        'api/auth.md': '---\ntitle: Authentication\n---\n\nTokens.\n',
        'api/errors.md': 'No heading here.\n',
        'tutorials/first.md': '# First steps\n',
        'zeta.md': '# Zeta\n',
      }),
    );
    expect(outline(repository.pages)).toEqual([
      { title: 'Home', slug: 'home', type: 'document' },
      {
        title: 'API',
        slug: 'api',
        type: 'document',
        children: [
          { title: 'Authentication', slug: 'auth', type: 'document' },
          { title: 'Errors', slug: 'errors', type: 'document' },
        ],
      },
      { title: 'tutorials', slug: 'tutorials', type: 'group', children: [{ title: 'First steps', slug: 'first', type: 'document' }] },
      { title: 'Zeta', slug: 'zeta', type: 'document' },
    ]);
  });

  it('reads the content under .gitbook.yaml root, with its own readme and summary names', async () => {
    const repository = await read(
      textFiles({
        '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\nredirects:\n  old/page: intro.md\n',
        'docs/intro.md': '# Welcome\n\nSee [setup](setup.md).\n',
        'docs/toc.md': '# Table of contents\n\n* [Welcome](intro.md)\n* [Setup](setup.md)\n',
        'docs/setup.md': '# Setup\n',
        'src/index.ts': 'export {};\n',
      }),
    );
    expect(repository.config).toMatchObject({ root: 'docs', readme: 'intro.md', summary: 'toc.md', redirects: { 'old/page': 'intro.md' } });
    expect(outline(repository.pages)).toEqual([
      { title: 'Welcome', slug: 'welcome', type: 'document' },
      { title: 'Setup', slug: 'setup', type: 'document' },
    ]);
    expect(repository.pages[0]!.markdown).toBe('See [setup](/pages/page_setup).\n');
    const out = await writeRepository(repository, repository.config);
    expect(out.map((file) => file.path)).toEqual(['docs/intro.md', 'docs/setup.md', 'docs/toc.md']);
  });

  it('refuses paths in SUMMARY.md that are absolute or leave the root', async () => {
    await expect(read(textFiles({ 'SUMMARY.md': '* [Secret](../../etc/passwd.md)\n' }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('SUMMARY.md:1: the path "../../etc/passwd.md" is absolute or leaves the repository\'s root'),
    });
    await expect(read(textFiles({ 'SUMMARY.md': '* [Secret](/etc/passwd.md)\n' }))).rejects.toMatchObject({ status: 400 });
    await expect(read(textFiles({ '.gitbook.yaml': 'root: ../elsewhere\n' }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('.gitbook.yaml: root "../elsewhere" must be a relative path inside the repository'),
    });
  });

  it('does not follow links out of the root, ignores symbolic links and reports LFS pointers', async () => {
    const lfs = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    const repository = await read([
      ...textFiles({
        'README.md': '# Home\n\n[out](../../secret.md) and ![big](.gitbook/assets/big.png)\n',
        'SUMMARY.md': '* [Home](README.md)\n* [Large](large.md)\n',
        'large.md': lfs,
        '.gitbook/assets/big.png': lfs,
      }),
      { path: 'linked.md', kind: 'symlink', size: 11, read: async () => Buffer.from('/etc/passwd') },
    ]);
    expect(repository.warnings).toEqual([
      'linked.md: a symbolic link, ignored',
      'README.md: the link "../../secret.md" leaves the repository\'s root and is not followed',
      'large.md: a Git LFS pointer file; its content is in LFS storage, which is not read: the page is left empty',
      '.gitbook/assets/big.png: a Git LFS pointer file; its content is in LFS storage, which is not read: the file is left out',
    ]);
    expect(repository.files).toEqual([]);
    expect(repository.pages[0]!.markdown).toContain('[out](../../secret.md)');
  });

  it('refuses more pages or larger files than the limits, naming the limit', async () => {
    const many = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`p${index}.md`, `# Page ${index}\n`]));
    await expect(readRepository(textFiles(many), { ...byPath, limits: { maxPages: 4, maxFileBytes: 1000 } })).rejects.toMatchObject({
      status: 400,
      message: 'url: the repository holds more than 4 pages, the most a space imports from Git (GIT_MAX_PAGES)',
    });
    await expect(
      readRepository(textFiles({ 'README.md': `# Big\n\n${'x'.repeat(2000)}\n` }), { ...byPath, limits: { maxPages: 4, maxFileBytes: 1000 } }),
    ).rejects.toMatchObject({ status: 400, message: 'url: README.md is 2,008 bytes, more than the 1,000 a file may hold (GIT_MAX_FILE_BYTES)' });
  });
});
