import path from 'node:path';
import type { Ref } from './nodes.ts';
import { hrefOfRef } from './references.ts';

/**
 * Where a page's references point once the space is laid out as files (a Git export): a page or
 * file of the space as a path relative to the page's own file, anything else as the model writes
 * it. Shared by the Git layout and the worker that writes a large page's Markdown, so both agree.
 */
export interface RepositoryPaths {
  /** The file each page is written to, by page id. */
  pages: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** The path each file of the space is written to, by file id. */
  files: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

/** A path as a Markdown link writes it: segments percent-encoded where needed (spaces, parentheses). */
export function hrefOfPath(relative: string): string {
  return relative
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%2B/g, '+').replace(/%40/g, '@'))
    .join('/');
}

/** The link from one file of the repository to another. */
export function relativeHref(fromFile: string, toFile: string): string {
  return hrefOfPath(path.posix.relative(path.posix.dirname(fromFile), toFile) || path.posix.basename(toFile));
}

/** The address of each reference written in the file `fromFile`. */
export function repositoryHrefOf(fromFile: string, paths: RepositoryPaths): (ref: Ref) => string {
  const pagePath = lookup(paths.pages);
  const filePath = lookup(paths.files);
  return (ref) => {
    if (ref.kind === 'page' || (ref.kind === 'anchor' && typeof ref.page === 'string')) {
      const target = pagePath(String(ref.page));
      if (target) return `${relativeHref(fromFile, target)}${ref.kind === 'anchor' ? `#${String(ref.anchor)}` : ''}`;
    }
    if (ref.kind === 'file') {
      const target = filePath(String(ref.file));
      if (target) return relativeHref(fromFile, target);
    }
    return hrefOfRef(ref);
  };
}

function lookup(paths: RepositoryPaths['pages']): (id: string) => string | undefined {
  if (paths instanceof Map) return (id) => paths.get(id);
  const record = paths as Readonly<Record<string, string>>;
  return (id) => (Object.hasOwn(record, id) ? record[id] : undefined);
}
