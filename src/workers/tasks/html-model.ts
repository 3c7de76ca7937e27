/**
 * The content model's readers and writers that the website import's task (./html-page.ts)
 * uses: HTML read into a document, Markdown read and written. A module of its own, imported
 * when the task first runs, so that the bundle builds it apart (bin/build.js) and a worker
 * loads the model's packages only once it converts a page.
 */
export { documentFromHtml, isCallout } from '../../domain/content/model/from-html.ts';
export { documentFromMarkdown } from '../../domain/content/model/from-markdown.ts';
export { markdownFromDocument } from '../../domain/content/model/to-markdown.ts';
