// The bundle the `docs-gateway` command runs (dist/cli/), with esbuild's options
// in this one place: `npm run build`, the install (postinstall), the command
// itself when the bundle is missing or older than its sources
// (bin/docs-gateway.js), the tests (test/support/global-setup.ts) and the
// container image (Dockerfile) all build it here.
//
// No shared chunks: docs-gateway.mjs reads the command line and loads the file
// of the command it runs (serve.mjs; admin.mjs for bootstrap, users and migrate;
// seed.mjs; maintenance.mjs for backup, restore and files copy), so `--version`
// loads none of them and `bootstrap` neither the HTTP server nor the whole domain. Each holds everything it needs, so a rebuild
// never removes a file a running server could still load. worker.mjs is what
// the threads of the worker pool run (src/workers/worker.ts): the pool, in the
// bundle of a command, finds it beside itself.
//
// Plain JavaScript that any Node parses (bin/docs-gateway.js imports it before
// it knows the Node version is supported).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = path.join(ROOT, 'dist', 'cli');
/** The command's entry point, as `node dist/cli/docs-gateway.mjs …` runs it (the container does). */
export const BUNDLE = path.join(OUT_DIR, 'docs-gateway.mjs');
/** What the last build read and wrote, and when it started. */
const MANIFEST = path.join(OUT_DIR, 'bundle.json');
const COMMANDS = ['serve', 'admin', 'seed', 'maintenance'];

/** src/cli/main.ts imports ./serve.ts, ./admin.ts, ./seed.ts and ./maintenance.ts when a command runs: in the bundle, the files built beside it. */
const commandsApart = {
  name: 'commands-apart',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\./(${COMMANDS.join('|')})\\.ts$`) }, (args) =>
      args.importer === path.join(ROOT, 'src', 'cli', 'main.ts') ? { path: args.path.replace(/\.ts$/, '.mjs'), external: true } : undefined,
    );
  },
};

/**
 * Worker tasks whose packages are large (the content model's parser) are built apart, beside
 * worker.mjs, and imported by it when their task first runs: bundled into worker.mjs, their
 * packages would be imported by every thread at start (esbuild hoists them). A task may import
 * such a module of its own (`./html-model.ts`, the model as the website import uses it) when it
 * runs; the task itself stays in worker.mjs, with the one copy of errors.ts its refusals need.
 */
const TASKS_APART = ['parse-markdown', 'html-model'];
const tasksApart = {
  name: 'tasks-apart',
  setup(build) {
    const tasksDir = path.join(ROOT, 'src', 'workers', 'tasks');
    build.onResolve({ filter: new RegExp(`^\\./(?:tasks/)?(${TASKS_APART.join('|')})\\.ts$`) }, (args) => {
      const fromTasks = args.importer === path.join(ROOT, 'src', 'workers', 'tasks.ts') && args.path.startsWith('./tasks/');
      const fromTask = path.dirname(args.importer) === tasksDir && !args.path.startsWith('./tasks/');
      return fromTasks || fromTask ? { path: args.path.replace(/^\.\/tasks\//, './').replace(/\.ts$/, '.mjs'), external: true } : undefined;
    });
  },
};

/**
 * Prisma's client loads its query compiler from a module holding the WebAssembly in base64
 * (4.4 MB), which Node would keep for the life of the process twice over: as the module's
 * source and as the string, and decode at every start (about 0.1 s). The build decodes it once
 * into a file beside the bundle; in the bundle that module hands Prisma an object whose valueOf()
 * (which Buffer.from calls) reads that file when the compiler is built: nothing is kept.
 */
const WASM_FILES = new Set();
const prismaWasmOnDemand = {
  name: 'prisma-wasm-on-demand',
  setup(build) {
    build.onResolve({ filter: /^@prisma\/client\/runtime\/query_compiler_\w+\.\w+\.wasm-base64\.mjs$/ }, (args) => ({
      path: args.path,
      namespace: 'prisma-wasm',
    }));
    build.onLoad({ filter: /.*/, namespace: 'prisma-wasm' }, (args) => {
      // The package's subpath is its file's (import.meta.resolve is not there when the tests build).
      const text = fs.readFileSync(path.join(ROOT, 'node_modules', args.path), 'latin1');
      const start = text.indexOf('"') + 1;
      const file = path.basename(args.path).replace(/\.wasm-base64\.mjs$/, '.wasm');
      fs.mkdirSync(OUT_DIR, { recursive: true });
      writeWhole(path.join(OUT_DIR, file), Buffer.from(text.slice(start, text.indexOf('"', start)), 'base64'));
      WASM_FILES.add(path.join(OUT_DIR, file));
      return {
        loader: 'js',
        resolveDir: ROOT,
        contents: `import { readFileSync } from 'node:fs';
export const wasm = { valueOf: () => readFileSync(new URL(${JSON.stringify(`./${file}`)}, import.meta.url)) };
`,
      };
    });
  },
};

/**
 * micromark-extension-math's entry point also exports its HTML renderer, which imports KaTeX
 * (0.6 MB of source and its font tables, kept in memory for the life of the process). The
 * sources use only its syntax: the bundle takes that file in itself, with the small packages
 * it imports (the package's exports do not let Node load the file apart, and they are not
 * dependencies of ours for Node to find).
 */
const mathSyntaxOnly = {
  name: 'math-syntax-only',
  setup(build) {
    const bundled = new Set();
    const take = (file) => {
      bundled.add(file);
      return { path: file };
    };
    build.onResolve({ filter: /^micromark-extension-math$/ }, () => take(path.join(ROOT, 'node_modules', 'micromark-extension-math', 'lib', 'syntax.js')));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (!bundled.has(args.importer) || args.path.startsWith('node:')) return undefined;
      return take(createRequire(args.importer).resolve(args.path));
    });
    build.onResolve({ filter: /^\./ }, (args) => (bundled.has(args.importer) ? take(path.resolve(args.resolveDir, args.path)) : undefined));
  },
};

/**
 * GraphQL's packages (graphql-js, Yoga, Pothos, Envelop and their plugins) are bundled rather
 * than left to Node: src/http/graphql.ts imports the GraphQL layer on the first request to
 * /graphql, and esbuild runs a bundled module when it is first imported, whereas it hoists an
 * external package's import to the top of the file, where Node would load it at start (CPU time
 * and about 14 MB of heap that a server answering REST only never uses). All of them or none: each
 * must see the one copy of graphql-js that the others use. The packages they import in turn
 * (small ones) stay external.
 */
const GRAPHQL_PACKAGES =
  /^(graphql|graphql-yoga|graphql-jit|graphql-query-complexity|@graphql-yoga\/[^/]+|@graphql-tools\/[^/]+|@envelop\/[^/]+|@pothos\/[^/]+|@escape\.tech\/[^/]+|@whatwg-node\/[^/]+)(\/.*)?$/;
/**
 * Packages every start loads, pure JavaScript without files of their own to read, that no package
 * left external shares an instance with: bundled, Node reads one file where it resolved, read and
 * compiled each of theirs (kysely alone is 289 files, prom-client's @opentelemetry/api 52: a
 * restart opened 1,440 files of node_modules before, about 700 since), and ESM packages come
 * tree-shaken. Not zod (the MCP SDK must see our schemas as
 * its own zod's) nor ajv (Fastify's).
 */
const START_PACKAGES =
  /^(kysely|yaml|js-yaml|jose|diff|image-size|prom-client|tdigest|bintrees|mdast-util-[\w-]+|micromark(-[\w-]+)?|unist-util-[\w-]+|decode-named-character-reference|character-entities|zwitch|longest-streak|markdown-table|ccount|escape-string-regexp|node-html-parser|css-select|css-what|boolbase|nth-check|domutils|domhandler|domelementtype|dom-serializer|entities|he|jsep|nanoid|slugify|emoji-regex|ipaddr\.js|fractional-indexing|node-diff3|rison-node|dataloader|lru-cache|lodash\.get|cross-inspect|@repeaterjs\/repeater|helmet|commander|devlop|@opentelemetry\/api)(\/.*)?$/;
/** node_modules stay where they are, loaded by Node as the sources load them: all but GRAPHQL_PACKAGES and START_PACKAGES. */
const packagesExternal = {
  name: 'packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      GRAPHQL_PACKAGES.test(args.path) || START_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

export const BUILD_OPTIONS = {
  absWorkingDir: ROOT,
  entryPoints: {
    'docs-gateway': 'src/cli/main.ts',
    ...Object.fromEntries(COMMANDS.map((command) => [command, `src/cli/${command}.ts`])),
    worker: 'src/workers/worker.ts',
    ...Object.fromEntries(TASKS_APART.map((task) => [task, `src/workers/tasks/${task}.ts`])),
  },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Last: the plugins before it decide first.
  plugins: [commandsApart, tasksApart, prismaWasmOnDemand, mathSyntaxOnly, packagesExternal],
  // The CommonJS files of bundled packages require() Node's modules and the packages left external.
  banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
  write: false,
};

/** Writes through a file of its own then renames it: a process starting meanwhile reads the old file or the new, whole. */
function writeWhole(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

/**
 * esbuild writes code as ASCII (charset: 'ascii', its default, escapes strings and identifiers)
 * but keeps the comments of bundled packages as they are: one other character and V8 keeps the
 * whole file's source in two bytes a character. What is left to escape is in comments.
 */
function asciiComments(output) {
  if (!output.path.endsWith('.mjs') || !/[\u{80}-\u{10ffff}]/u.test(output.text)) return output.contents;
  return output.text.replace(/[\u{80}-\u{10ffff}]/gu, (character) => `\\u{${character.codePointAt(0).toString(16)}}`);
}

/** Builds dist/cli/ from the sources. */
export async function build({ quiet = false } = {}) {
  const startedAt = Date.now();
  const esbuild = await import('esbuild');
  const result = await esbuild.build(quiet ? { ...BUILD_OPTIONS, logLevel: 'silent' } : BUILD_OPTIONS);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // The entry point last: it loads the others.
  const outputs = [...result.outputFiles].sort((a, b) => Number(a.path === BUNDLE) - Number(b.path === BUNDLE));
  for (const output of outputs) writeWhole(output.path, asciiComments(output));
  const manifest = {
    startedAt,
    // Files only: not the modules plugins make (prisma-wasm:…), which no file dates; nor packages
    // bundled (GRAPHQL_PACKAGES), which change with an install, and an install builds again.
    inputs: [...Object.keys(result.metafile.inputs).filter((input) => !/^[\w-]+:/.test(input) && !input.startsWith('node_modules/')), 'bin/build.js'],
    outputs: [...WASM_FILES, ...outputs.map((output) => output.path)].map((file) => path.relative(ROOT, file)),
  };
  writeWhole(MANIFEST, `${JSON.stringify(manifest, null, 1)}\n`);
}

/** Why dist/cli/ must be built again (missing, or a file it was built from changed since), or undefined when it is fresh. */
export function staleness() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch {
    return 'no bundle yet';
  }
  for (const output of manifest.outputs) if (!fs.existsSync(path.join(ROOT, output))) return `${output} is missing`;
  for (const input of manifest.inputs) {
    const stat = fs.statSync(path.join(ROOT, input), { throwIfNoEntry: false });
    if (!stat) return `${input} is gone`;
    if (stat.mtimeMs >= manifest.startedAt) return `${input} changed`;
  }
  return undefined;
}

/** Whether dist/cli/ is whole and was built after the last change to any file it was built from. */
export function isFresh() {
  return staleness() === undefined;
}

/**
 * Builds dist/cli/ unless it is fresh. A build that fails is tried once more a second later:
 * a source caught half-written (`prisma generate` rewriting src/db/generated/, an editor
 * saving) is whole by then.
 */
export async function ensureBuilt() {
  const reason = staleness();
  if (reason === undefined) return;
  try {
    await build({ quiet: true });
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await build().catch((error) => {
      error.message = `rebuilding the bundle (${reason}): ${error.message}`;
      throw error;
    });
  }
}

// `node bin/build.js`: build. `--if-stale`: only when not fresh. `--postinstall`: also nothing
// where there are no sources yet (the container's build installs before it copies them).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const flags = process.argv.slice(2);
  const skip = flags.includes('--postinstall') && !fs.existsSync(path.join(ROOT, 'src', 'cli', 'main.ts'));
  if (!skip) {
    (flags.includes('--if-stale') || flags.includes('--postinstall') ? ensureBuilt() : build()).catch((error) => {
      // esbuild has printed what failed.
      console.error(`docs-gateway: the build failed: ${error.message.split('\n')[0]}`);
      process.exitCode = 1;
    });
  }
}
