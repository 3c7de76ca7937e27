/**
 * The tasks the worker pool runs (./pool.ts: `runTask(name, input, options)`),
 * by name: each loads its module the first time a worker runs it, and is a
 * function of one input. Inputs and outputs cross threads by structured clone
 * (plain data, strings, bytes); a task refuses bad input by throwing a
 * DomainError, which the caller gets again. Task modules import their npm
 * packages when they first run, so that a worker holds only what its tasks use.
 */
export const TASKS = {
  /** A unified diff of two page bodies (change request changes). */
  'diff-bodies': async () => (await import('./tasks/diff-bodies.ts')).diffBodies,
  /** One crawled HTML page: its title, links, resources and main content as markdown (website import). */
  'html-page': async () => (await import('./tasks/html-page.ts')).convertPage,
  /** The links of imported pages' markdown pointed at the pages and files imported with them (website import). */
  'html-links': async () => (await import('./tasks/html-page.ts')).relinkPages,
  /** A page body's markdown read into its structured document (the content model). */
  'parse-markdown': async () => (await import('./tasks/parse-markdown.ts')).parseMarkdown,
  /** A client's structured document checked and written as Markdown (content changes, review comments). */
  'markdown-of-document-input': async () => (await import('./tasks/parse-markdown.ts')).markdownOfDocumentInput,
  /** A structured document written as Markdown (the content model). */
  'render-markdown': async () => (await import('./tasks/parse-markdown.ts')).renderMarkdown,
  /** Pages' structured documents laid out as a PDF (change request export). */
  'render-pdf': async () => (await import('./tasks/render-pdf.ts')).renderPdf,
  /** An OpenAPI document validated (spec processing). */
  'validate-openapi': async () => (await import('./tasks/validate-openapi.ts')).validateOpenApi,
  /** A SAML response's signatures and conditions checked (SAML sign-in). */
  'verify-saml-response': async () => (await import('./tasks/verify-saml-response.ts')).verifySamlResponse,
};

type TaskFunctions = { [Name in keyof typeof TASKS]: Awaited<ReturnType<(typeof TASKS)[Name]>> };
export type TaskName = keyof typeof TASKS;
export type TaskInput<Name extends TaskName> = Parameters<TaskFunctions[Name]>[0];
export type TaskOutput<Name extends TaskName> = Awaited<ReturnType<TaskFunctions[Name]>>;
