import { createRequire } from 'node:module';
import path from 'node:path';
import type PDFKitDocument from 'pdfkit';
import type { JSONDocument as ModelDocument } from '../../domain/content/model/nodes.ts';
import { hasRelativeReferences, resolveReferences, servable } from '../../domain/content/model/references.ts';
import { pushAll } from '../../lib/arrays.ts';

/** The nodes of a structured document (src/domain/content/model/nodes.ts), as far as a PDF reads them. */
interface Text {
  object: 'text';
  leaves: Array<{ text: string; marks: Array<{ type: string }> }>;
}
interface Inline {
  object: 'inline';
  type: string;
  data?: Record<string, unknown>;
  nodes?: Array<Text | Inline>;
}
interface Fragment {
  fragment: string;
  nodes: Block[];
}
interface Block {
  object: 'block';
  type: string;
  data?: Record<string, unknown>;
  nodes?: Array<Block | Inline | Text>;
  fragments?: Fragment[];
}
interface JSONDocument {
  nodes: Block[];
}

function emojiCharacter(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
  } catch {
    return '';
  }
}

/**
 * Content as a PDF (pdfkit). Each page of the content starts a new sheet with
 * its title; its structured document is first laid out as a plan - headings,
 * runs of marked text, lists, code with its title, hints with their label,
 * tabs and steps each titled, tables as grids, images - which is then drawn.
 * The plan is what the tests read (a PDF's text is glyph ids). DejaVu fonts
 * (from npm) cover Latin, Greek and Cyrillic text. A task of the worker pool:
 * its cost grows with the content.
 */

const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = {
  regular: path.join(fonts, 'DejaVuSans.ttf'),
  bold: path.join(fonts, 'DejaVuSans-Bold.ttf'),
  italic: path.join(fonts, 'DejaVuSans-Oblique.ttf'),
  boldItalic: path.join(fonts, 'DejaVuSans-BoldOblique.ttf'),
  mono: path.join(fonts, 'DejaVuSansMono.ttf'),
};

export interface PdfPage {
  title: string;
  /** Depth in the page tree, from 0: indents the title in the outline. */
  depth: number;
  document: JSONDocument;
}

/** A run of text with its marks. */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** Where a link leads (a URL; pages and files of the content are named, not linked). */
  link?: string;
}

export type PlanStep =
  | { kind: 'page'; title: string; depth: number }
  | { kind: 'heading'; level: number; text: string; indent: number }
  | { kind: 'text'; runs: Run[]; indent: number; tone?: 'quote' | 'caption' | 'note' }
  | { kind: 'item'; marker: string; runs: Run[]; indent: number }
  | { kind: 'code'; title?: string; lines: string[]; indent: number }
  | { kind: 'label'; text: string; indent: number; tone: 'info' | 'success' | 'warning' | 'danger' | 'title' }
  | { kind: 'rule'; indent: number }
  | { kind: 'image'; fileId?: string; alt: string; caption?: string; indent: number }
  | { kind: 'table'; header: string[] | null; rows: string[][]; indent: number };

const HINT_LABELS = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' } as const;

type AnyNode = Block | Inline | Text;

/** The plan of a content's pages: what renderPdf draws, in order. */
export function pdfPlan(pages: PdfPage[]): PlanStep[] {
  const plan: PlanStep[] = [];
  for (const page of pages) {
    plan.push({ kind: 'page', title: page.title, depth: page.depth });
    planBlocks(page.document.nodes, 0, plan);
  }
  return plan;
}

function runsOf(nodes: AnyNode[], link?: string): Run[] {
  const runs: Run[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if (!leaf.text) continue;
        const types = new Set(leaf.marks.map((mark) => mark.type));
        runs.push({
          text: leaf.text,
          ...(types.has('bold') ? { bold: true } : {}),
          ...(types.has('italic') ? { italic: true } : {}),
          ...(types.has('code') ? { code: true } : {}),
          ...(link ? { link } : {}),
        });
      }
      continue;
    }
    if (node.object !== 'inline') continue;
    const data = node.data ?? {};
    switch (node.type) {
      case 'link': {
        const ref = data.ref as { kind?: string; url?: string } | undefined;
        pushAll(runs, runsOf((node.nodes ?? []) as AnyNode[], ref?.kind === 'url' && /^https?:/i.test(String(ref.url)) ? String(ref.url) : undefined));
        break;
      }
      case 'emoji':
        runs.push({ text: emojiCharacter(String(data.code ?? '')) });
        break;
      case 'inline-math':
        runs.push({ text: String(data.formula ?? ''), code: true });
        break;
      case 'inline-image':
        runs.push({ text: `[${String(data.alt ?? 'image')}]`, italic: true });
        break;
      case 'button':
        runs.push({ text: `[${String(data.label ?? '')}]`, bold: true });
        break;
      default:
        pushAll(runs, runsOf((node.nodes ?? []) as AnyNode[]));
    }
  }
  return runs;
}

const textOfRuns = (runs: Run[]) => runs.map((run) => run.text).join('');
const blocksOf = (node: Block) => (node.nodes ?? []) as Block[];
const fragmentOf = (node: Block, name: string): Block[] => node.fragments?.find((each: Fragment) => each.fragment === name)?.nodes ?? [];
const plainOf = (blocks: Block[]): string => blocks.map((each) => textOfRuns(runsOf((each.nodes ?? []) as AnyNode[])) || plainOf(blocksOf(each))).join(' ');

function planBlocks(blocks: Block[], indent: number, plan: PlanStep[]): void {
  for (const node of blocks) {
    const data = node.data ?? {};
    switch (node.type) {
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        plan.push({ kind: 'heading', level: Number(node.type.at(-1)), text: textOfRuns(runsOf((node.nodes ?? []) as AnyNode[])), indent });
        break;
      case 'paragraph':
        plan.push({ kind: 'text', runs: runsOf((node.nodes ?? []) as AnyNode[]), indent });
        break;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        blocksOf(node).forEach((item, index) => {
          const marker =
            node.type === 'list-ordered'
              ? `${(typeof data.start === 'number' ? data.start : 1) + index}.`
              : node.type === 'list-tasks'
                ? item.data?.checked
                  ? '☑'
                  : '☐'
                : '•';
          const [first, ...rest] = blocksOf(item);
          const runs = first && (first.type === 'paragraph' || first.type.startsWith('heading-')) ? runsOf((first.nodes ?? []) as AnyNode[]) : [];
          plan.push({ kind: 'item', marker, runs, indent });
          planBlocks(runs.length || !first ? rest : blocksOf(item), indent + 14, plan);
        });
        break;
      case 'blockquote': {
        const inner: PlanStep[] = [];
        planBlocks(blocksOf(node), indent + 14, inner);
        pushAll(
          plan,
          inner.map((step) => (step.kind === 'text' ? { ...step, tone: 'quote' as const } : step)),
        );
        break;
      }
      case 'divider':
        plan.push({ kind: 'rule', indent });
        break;
      case 'code':
        plan.push({
          kind: 'code',
          ...(typeof data.title === 'string' && data.title ? { title: data.title } : {}),
          lines: blocksOf(node).map((line) => textOfRuns(runsOf((line.nodes ?? []) as AnyNode[]))),
          indent,
        });
        break;
      case 'hint': {
        const style = (['info', 'success', 'warning', 'danger'] as const).find((each) => each === data.style) ?? 'info';
        plan.push({ kind: 'label', text: HINT_LABELS[style], tone: style, indent });
        planBlocks(blocksOf(node), indent + 14, plan);
        break;
      }
      case 'tabs':
        for (const tab of blocksOf(node)) {
          plan.push({ kind: 'label', text: String(tab.data?.title ?? ''), tone: 'title', indent });
          planBlocks(blocksOf(tab), indent + 14, plan);
        }
        break;
      case 'stepper':
        blocksOf(node).forEach((step, index) => {
          plan.push({ kind: 'label', text: `Step ${index + 1}`, tone: 'title', indent });
          planBlocks(blocksOf(step), indent + 14, plan);
        });
        break;
      case 'expandable':
        plan.push({ kind: 'label', text: plainOf(fragmentOf(node, 'expandable-title')), tone: 'title', indent });
        planBlocks(fragmentOf(node, 'expandable-body'), indent + 14, plan);
        break;
      case 'columns':
      case 'if':
      case 'updates':
        for (const child of blocksOf(node)) {
          if (node.type === 'updates' && typeof child.data?.date === 'string')
            plan.push({ kind: 'label', text: child.data.date.slice(0, 10), tone: 'title', indent });
          planBlocks(blocksOf(child), indent, plan);
        }
        break;
      case 'images':
        for (const image of blocksOf(node)) {
          const ref = image.data?.ref as { kind?: string; file?: string; url?: string } | undefined;
          const caption = plainOf(fragmentOf(image, 'caption'));
          plan.push({
            kind: 'image',
            ...(ref?.kind === 'file' ? { fileId: String(ref.file) } : {}),
            alt: String(image.data?.alt ?? ref?.url ?? ''),
            ...(caption ? { caption } : {}),
            indent,
          });
        }
        break;
      case 'math':
        plan.push({ kind: 'code', lines: String(data.formula ?? '').split('\n'), indent });
        break;
      case 'table':
        plan.push(tableStep(node, indent));
        break;
      case 'embed':
        plan.push({ kind: 'text', runs: [{ text: String(data.url ?? ''), link: String(data.url ?? '') }], indent, tone: 'note' });
        break;
      case 'file':
      case 'content-ref': {
        const ref = data.ref as { kind?: string; url?: string; page?: string; file?: string } | undefined;
        const target = ref?.url ?? ref?.page ?? ref?.file ?? '';
        plan.push({ kind: 'text', runs: [{ text: `→ ${target}`, ...(ref?.kind === 'url' ? { link: String(ref.url) } : {}) }], indent, tone: 'note' });
        break;
      }
      case 'openapi-operation':
      case 'swagger':
        plan.push({
          kind: 'text',
          runs: [{ text: `${String(data.method ?? '').toUpperCase()} ${String(data.path ?? '')}`, code: true }],
          indent,
          tone: 'note',
        });
        break;
      default:
        if (node.nodes?.length) planBlocks(blocksOf(node), indent, plan);
    }
  }
}

function tableStep(node: Block, indent: number): PlanStep {
  const data = (node.data ?? {}) as {
    view?: { type?: string; columns?: string[]; hideHeader?: boolean };
    definition?: Record<string, { title?: string; type?: string }>;
    records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
  };
  const definition = data.definition ?? {};
  const columns = (data.view?.columns ?? Object.keys(definition)).filter((id) => definition[id]);
  const fragments = new Map((node.fragments ?? []).map((each) => [each.fragment, each.nodes]));
  const cell = (column: string, value: unknown): string => {
    if (definition[column]?.type === 'text' && typeof value === 'string') return plainOf(fragments.get(value) ?? []);
    if (value === undefined || value === null) return '';
    if (typeof value === 'object') {
      const ref = value as { url?: string; page?: string; file?: string };
      return String(ref.url ?? ref.page ?? ref.file ?? '');
    }
    return String(value);
  };
  const rows = Object.values(data.records ?? {})
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map((record) => columns.map((column) => cell(column, record.values[column])));
  const header = data.view?.type === 'cards' || data.view?.hideHeader ? null : columns.map((column) => definition[column]?.title ?? '');
  return { kind: 'table', header, rows, indent };
}

const TONE_COLOR = { info: '#1f6feb', success: '#1a7f37', warning: '#9a6700', danger: '#cf222e', title: '#000000' } as const;

function drawRuns(doc: PDFKit.PDFDocument, runs: Run[], indent: number, color = 'black') {
  if (!runs.length) {
    doc.moveDown(0.4);
    return;
  }
  doc.fillColor(color);
  runs.forEach((run, index) => {
    const font = run.code ? FONT.mono : run.bold && run.italic ? FONT.boldItalic : run.bold ? FONT.bold : run.italic ? FONT.italic : FONT.regular;
    doc
      .font(font)
      .fontSize(run.code ? 10 : 11)
      .text(run.text, { indent, continued: index < runs.length - 1, ...(run.link ? { link: run.link, underline: true } : { link: null, underline: false }) });
  });
  doc.fillColor('black').moveDown(0.4);
}

function drawTable(doc: PDFKit.PDFDocument, step: Extract<PlanStep, { kind: 'table' }>) {
  const left = doc.page.margins.left + step.indent;
  const width = doc.page.width - doc.page.margins.right - left;
  const count = Math.max(1, step.header?.length ?? step.rows[0]?.length ?? 1);
  const columnWidth = width / count;
  const row = (cells: string[], bold: boolean) => {
    const heights = cells.map((value) =>
      doc
        .font(bold ? FONT.bold : FONT.regular)
        .fontSize(9.5)
        .heightOfString(value || ' ', { width: columnWidth - 8 }),
    );
    const height = Math.max(...heights, 12) + 6;
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const top = doc.y;
    cells.forEach((value, index) => {
      doc
        .rect(left + index * columnWidth, top, columnWidth, height)
        .strokeColor('#999999')
        .stroke();
      doc
        .font(bold ? FONT.bold : FONT.regular)
        .fontSize(9.5)
        .fillColor('black')
        .text(value, left + index * columnWidth + 4, top + 3, { width: columnWidth - 8 });
    });
    doc.x = doc.page.margins.left;
    doc.y = top + height;
  };
  if (step.header) row(step.header, true);
  for (const cells of step.rows) row(cells, false);
  doc.moveDown(0.6);
}

export interface RenderPdfInput {
  title: string;
  /** Each page's document as its kept JSON text, parsed here, and where the page is (for its relative paths). */
  pages: Array<{ title: string; depth: number; structure: string; pagePath: string; pageHasChildren: boolean }>;
  /** The revision's pages by path and files by name: what relative paths name. */
  pagesByPath?: Record<string, string>;
  filesByName?: Record<string, string>;
  /** The bytes of the content's PNG and JPEG files the pages show, by file id. */
  images?: Map<string, Uint8Array>;
}

/** The pages as the PDF reads them: each document parsed, its relative paths resolved, made servable. */
export function pagesOf({ pages, pagesByPath = {}, filesByName = {} }: RenderPdfInput): PdfPage[] {
  return pages.map(({ title, depth, structure, pagePath, pageHasChildren }) => {
    let document = JSON.parse(structure) as ModelDocument;
    if (hasRelativeReferences(document)) {
      document = resolveReferences(document, {
        pagePath,
        pageHasChildren,
        pageByPath: (path) => pagesByPath[path],
        fileByName: (name) => filesByName[name],
      });
    }
    return { title, depth, document: servable(document) as unknown as JSONDocument };
  });
}

/** The PDF's bytes: the plan of the pages drawn. */
export async function renderPdf(input: RenderPdfInput): Promise<Buffer> {
  const { title, images = new Map() } = input;
  const pages = pagesOf(input);
  // Loaded on first use, also from the bundle: pdfkit need not sit in every server's memory.
  const { default: PDFDocument } = (await import('pdfkit')) as { default: typeof PDFKitDocument };
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Producer: 'docs-gateway' }, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (!pages.length) doc.addPage().font(FONT.bold).fontSize(20).text(title);
  for (const step of pdfPlan(pages)) {
    switch (step.kind) {
      case 'page':
        doc.addPage();
        doc.outline.addItem(`${'  '.repeat(step.depth)}${step.title}`);
        doc.font(FONT.bold).fontSize(22).text(step.title).moveDown(0.6);
        break;
      case 'heading':
        doc
          .moveDown(0.5)
          .font(FONT.bold)
          .fontSize([18, 15, 13][step.level - 1] ?? 12)
          .text(step.text, { indent: step.indent })
          .moveDown(0.3);
        break;
      case 'text':
        drawRuns(
          doc,
          step.tone === 'caption' ? step.runs.map((run) => ({ ...run, italic: true })) : step.runs,
          step.indent,
          step.tone === 'quote' ? '#555555' : step.tone === 'note' ? '#1f6feb' : 'black',
        );
        break;
      case 'item':
        drawRuns(doc, [{ text: `${step.marker} ` }, ...step.runs], step.indent + 12);
        break;
      case 'code':
        if (step.title)
          doc
            .font(FONT.bold)
            .fontSize(9.5)
            .fillColor('#333333')
            .text(step.title, { indent: step.indent + 12 });
        doc
          .font(FONT.mono)
          .fontSize(9.5)
          .fillColor('#333333')
          .text(step.lines.join('\n'), { indent: step.indent + 12 });
        doc.fillColor('black').moveDown(0.5);
        break;
      case 'label':
        doc.font(FONT.bold).fontSize(11).fillColor(TONE_COLOR[step.tone]).text(step.text, { indent: step.indent }).fillColor('black').moveDown(0.2);
        break;
      case 'rule':
        doc
          .moveTo(doc.page.margins.left + step.indent, doc.y)
          .lineTo(doc.page.width - doc.page.margins.right, doc.y)
          .stroke()
          .moveDown(0.5);
        break;
      case 'image': {
        const image = step.fileId ? images.get(step.fileId) : undefined;
        const bytes = image ? Buffer.from(image.buffer, image.byteOffset, image.byteLength) : undefined;
        if (bytes) {
          const width = doc.page.width - doc.page.margins.left - doc.page.margins.right - step.indent;
          try {
            doc.image(bytes, doc.page.margins.left + step.indent, doc.y, { fit: [width, 320] });
            doc.moveDown(0.5);
          } catch {
            drawRuns(doc, [{ text: `[${step.alt || 'image'}]`, italic: true }], step.indent);
          }
        } else {
          drawRuns(doc, [{ text: `[${step.alt || 'image'}]`, italic: true }], step.indent);
        }
        if (step.caption) drawRuns(doc, [{ text: step.caption, italic: true }], step.indent, '#555555');
        break;
      }
      case 'table':
        drawTable(doc, step);
        break;
    }
  }
  doc.end();
  return done;
}
