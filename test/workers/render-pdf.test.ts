import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../src/domain/content/model/from-markdown.ts';
import { pagesOf, pdfPlan, renderPdf } from '../../src/workers/tasks/render-pdf.ts';

/** The PDF export's layout of rich pages: what it draws for each block of the content model. */

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../content/fixtures', name), 'utf8');

describe('the PDF plan of rich pages', () => {
  const plan = pdfPlan([
    { title: 'Combined', depth: 0, document: documentFromMarkdown(fixture('combined.md')) },
    { title: 'Tables', depth: 1, document: documentFromMarkdown(fixture('tables.md')) },
    { title: 'Hints', depth: 1, document: documentFromMarkdown(fixture('hints.md')) },
    {
      title: 'Code',
      depth: 1,
      document: documentFromMarkdown('{% code title="server.js" %}\n```js\nlisten(4000)\n```\n{% endcode %}\n\n![A diagram](/files/file_d)\n'),
    },
  ]);

  it('starts each page with its title', () => {
    expect(plan.filter((step) => step.kind === 'page').map((step) => step.kind === 'page' && [step.title, step.depth])).toEqual([
      ['Combined', 0],
      ['Tables', 1],
      ['Hints', 1],
      ['Code', 1],
    ]);
  });

  it('titles each tab and step, labels each hint by its style, and gives code its title', () => {
    const labels = plan.flatMap((step) => (step.kind === 'label' ? [step.text] : []));
    expect(labels).toEqual(expect.arrayContaining(['npm', 'Docker', 'Step 1', 'Step 2', 'Troubleshooting', 'Info', 'Success', 'Warning', 'Danger']));
    const codes = plan.flatMap((step) => (step.kind === 'code' ? [[step.title, step.lines.join('\n')]] : []));
    expect(codes).toEqual(
      expect.arrayContaining([
        ['Terminal', 'npm install docs-gateway'],
        ['server.js', 'listen(4000)'],
      ]),
    );
  });

  it('draws tables as grids of their cells, cards without a header', () => {
    const tables = plan.flatMap((step) => (step.kind === 'table' ? [step] : []));
    expect(tables[0]).toMatchObject({
      header: ['Endpoint', 'Docs'],
      rows: [
        ['Spaces', 'Spaces'],
        ['Pages', 'Pages'],
      ],
    });
    expect(tables[1]).toMatchObject({ header: ['Operation', 'Method', 'Path'] });
    expect(tables[1]!.kind === 'table' && tables[1]!.rows[0]).toEqual(['List spaces', 'GET', '/v1/orgs/{id}/spaces']);
    const cards = tables.find((step) => step.kind === 'table' && step.header === null && step.rows[0]?.[0]?.includes('Quickstart'));
    expect(cards).toBeDefined();
  });

  it('draws images with their caption, from their file', () => {
    const images = plan.flatMap((step) => (step.kind === 'image' ? [step] : []));
    expect(images).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ alt: 'Configuration', caption: 'The settings' }),
        expect.objectContaining({ fileId: 'file_d', alt: 'A diagram' }),
      ]),
    );
  });

  it('renders the plan as a PDF, embedding the images it has the bytes of', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const structure = JSON.stringify(documentFromMarkdown(`${fixture('tables.md')}\n\n![A diagram](/files/file_d)\n\n![Relative](.gitbook/assets/r.png)\n`));
    const pages = [{ title: 'Code', depth: 0, structure, pagePath: 'code', pageHasChildren: false }];
    expect(
      pdfPlan(pagesOf({ title: 'Export', pages, filesByName: { 'r.png': 'file_r' } })).flatMap((step) => (step.kind === 'image' ? [step.fileId] : [])),
    ).toEqual(['file_d', 'file_r']);
    const withImage = await renderPdf({ title: 'Export', pages, images: new Map([['file_d', png]]) });
    const without = await renderPdf({ title: 'Export', pages });
    expect(withImage.subarray(0, 5).toString()).toBe('%PDF-');
    expect(withImage.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(without.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
  });
});
