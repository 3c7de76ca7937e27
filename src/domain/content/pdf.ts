import { createRequire } from 'node:module';
import path from 'node:path';
import { type Token, type Tokens, lexer } from 'marked';
import type PDFKitDocument from 'pdfkit';

/**
 * Content as a PDF (pdfkit): each page of the content starts a new sheet with
 * its title; markdown blocks are laid out as headings, paragraphs, lists, code
 * and quotes. DejaVu fonts (from npm) cover Latin, Greek and Cyrillic text.
 */

const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = {
  regular: path.join(fonts, 'DejaVuSans.ttf'),
  bold: path.join(fonts, 'DejaVuSans-Bold.ttf'),
  mono: path.join(fonts, 'DejaVuSansMono.ttf'),
};

export interface PdfPage {
  title: string;
  /** Depth in the page tree, from 0: indents the title in the outline. */
  depth: number;
  markdown: string;
}

/** Plain text of inline tokens (marks dropped, links as their text). */
function inlineText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => ('tokens' in token && token.tokens ? inlineText(token.tokens) : 'text' in token ? String(token.text) : token.raw))
    .join('');
}

function renderBlocks(doc: PDFKit.PDFDocument, tokens: Token[], indent = 0): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        doc
          .moveDown(0.5)
          .font(FONT.bold)
          .fontSize([18, 15, 13][Math.min(heading.depth, 3) - 1] ?? 12)
          .text(inlineText(heading.tokens), { indent });
        doc.moveDown(0.3);
        break;
      }
      case 'paragraph':
      case 'text':
        doc
          .font(FONT.regular)
          .fontSize(11)
          .text(inlineText((token as Tokens.Paragraph).tokens) || (token as Tokens.Text).text, { indent });
        doc.moveDown(0.4);
        break;
      case 'list': {
        const list = token as Tokens.List;
        list.items.forEach((item, index) => {
          const marker = list.ordered ? `${(typeof list.start === 'number' ? list.start : 1) + index}.` : '•';
          doc
            .font(FONT.regular)
            .fontSize(11)
            .text(`${marker} ${inlineText(item.tokens.flatMap((inner) => ('tokens' in inner && inner.tokens ? inner.tokens : [inner])))}`, {
              indent: indent + 12,
            });
        });
        doc.moveDown(0.4);
        break;
      }
      case 'code':
        doc
          .font(FONT.mono)
          .fontSize(9.5)
          .fillColor('#333333')
          .text((token as Tokens.Code).text, { indent: indent + 12 });
        doc.fillColor('black').moveDown(0.5);
        break;
      case 'blockquote':
        doc.fillColor('#555555');
        renderBlocks(doc, (token as Tokens.Blockquote).tokens, indent + 16);
        doc.fillColor('black');
        break;
      case 'hr':
        doc
          .moveTo(doc.page.margins.left, doc.y)
          .lineTo(doc.page.width - doc.page.margins.right, doc.y)
          .stroke()
          .moveDown(0.5);
        break;
      case 'space':
        break;
      default:
        doc.font(FONT.regular).fontSize(11).text(token.raw.trim(), { indent });
        doc.moveDown(0.4);
    }
  }
}

export async function renderPdf(title: string, pages: PdfPage[]): Promise<Buffer> {
  // Loaded on first use, also from the bundle: pdfkit need not sit in every server's memory.
  const { default: PDFDocument } = (await import('pdfkit')) as { default: typeof PDFKitDocument };
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Producer: 'docs-gateway' }, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (!pages.length) {
    doc.addPage().font(FONT.bold).fontSize(20).text(title);
  }
  for (const page of pages) {
    doc.addPage();
    doc.outline.addItem(`${'  '.repeat(page.depth)}${page.title}`);
    doc.font(FONT.bold).fontSize(22).text(page.title).moveDown(0.6);
    renderBlocks(doc, lexer(page.markdown));
  }
  doc.end();
  return done;
}
