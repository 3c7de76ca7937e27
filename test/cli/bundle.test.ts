import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, staleness } from '../../bin/build.js';
import { ROOT } from './support.ts';

/**
 * What the bundle (dist/cli/, built by bin/build.js) must be for the server's
 * memory: V8 keeps the source of every module it loaded for the life of the
 * process. The command-line tests run the bundle against a real database.
 */
describe('the bundle the command runs', () => {
  const dir = path.join(ROOT, 'dist', 'cli');
  const files = fs.readdirSync(dir).filter((file) => file.endsWith('.mjs'));

  it('is fresh once built, so that a command starts without building it again', async () => {
    await ensureBuilt();
    // Every file it was built from is dated before the build: none is a module a plugin made.
    expect(staleness()).toBeUndefined();
  });

  it('is ASCII only: one other character and V8 keeps the whole source in two bytes a character', () => {
    expect(files).toContain('serve.mjs');
    for (const file of files) {
      const text = fs.readFileSync(path.join(dir, file), 'latin1');
      const line = text.split('\n').findIndex((row) => /[\u0080-\u00ff]/.test(row));
      expect(line === -1 ? 'ASCII' : `${file}:${line + 1}: ${text.split('\n')[line]!.trim().slice(0, 120)}`).toBe('ASCII');
    }
  });

  it("reads Prisma's query compilers, decoded at build into files beside it, when they are built instead of importing their 4.4 MB base64 modules", () => {
    const serve = fs.readFileSync(path.join(dir, 'serve.mjs'), 'utf8');
    for (const provider of ['sqlite', 'postgresql']) {
      const module = `@prisma/client/runtime/query_compiler_fast_bg.${provider}.wasm-base64.mjs`;
      const file = `query_compiler_fast_bg.${provider}.wasm`;
      expect(serve).toContain(`new URL(${JSON.stringify(`./${file}`)}, import.meta.url)`);
      expect(serve).not.toMatch(new RegExp(`import\\(["']${module.replaceAll('.', '\\.')}["']\\)`));
      expect(WebAssembly.validate(fs.readFileSync(path.join(dir, file)))).toBe(true);
    }
  });

  it('loads at start neither what only PostgreSQL or readable logs need nor the files of the packages it bundles', () => {
    const serve = fs.readFileSync(path.join(dir, 'serve.mjs'), 'utf8');
    const staticImports = [...serve.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]!);
    expect(staticImports).toContain('better-sqlite3');
    for (const name of ['pg', '@prisma/adapter-pg', 'pino-pretty', 'kysely', 'yaml', 'prom-client', 'mdast-util-from-markdown'])
      expect(staticImports).not.toContain(name);
  });

  it("loads none of GraphQL's packages at start: bundled, they run with the GraphQL layer on the first /graphql request", () => {
    const serve = fs.readFileSync(path.join(dir, 'serve.mjs'), 'utf8');
    const staticImports = [...serve.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]!);
    expect(staticImports).toContain('fastify');
    expect(staticImports.filter((name) => /^(graphql|@graphql-|@pothos\/|@envelop\/|@escape\.tech\/|@whatwg-node\/)/.test(name))).toEqual([]);
    // graphql-js itself is in the bundle, one copy for Yoga, Pothos and the sources.
    expect(serve.match(/exports\.GraphQLSchema = GraphQLSchema\d*;/g)).toHaveLength(1);
  });

  it("builds the worker pool's module apart, found beside the command that runs it, and loading no task's packages before its task runs", () => {
    expect(files).toContain('worker.mjs');
    const serve = fs.readFileSync(path.join(dir, 'serve.mjs'), 'utf8');
    expect(serve).toContain('new URL("./worker.mjs", here)');
    // Task modules are in worker.mjs, not in the server's bundle.
    expect(serve).not.toContain('function diffBodies(');
    const worker = fs.readFileSync(path.join(dir, 'worker.mjs'), 'utf8');
    expect(worker).toContain('function diffBodies(');
    // Imported when a task first runs: a thread holds only the packages of the tasks it ran.
    const staticImports = [...worker.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(staticImports.sort()).toEqual(['node:module', 'node:path', 'node:worker_threads', 'piscina']);
    // The content model's parser, and its packages, are a file apart that the worker imports when it first parses.
    expect(files).toContain('parse-markdown.mjs');
    expect(worker).toContain('import("./parse-markdown.mjs")');
    expect(worker).not.toContain('function documentFromMarkdown(');
  });
});
