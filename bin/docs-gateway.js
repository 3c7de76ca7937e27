#!/usr/bin/env node
// The `docs-gateway` command (`npx docs-gateway …`, `npm start`): it runs the
// bundle of the sources (dist/cli/), built at install and again here whenever a
// source is newer (bin/build.js). `npm run dev` runs the sources through tsx.
//
// Plain JavaScript that older Nodes parse too, so that an unsupported Node gets
// one sentence instead of a crash: better-sqlite3 13 ends Node 20 with a
// segmentation fault as it loads. Nothing that loads it is imported before the
// version is known (the bundle is imported dynamically, below).
import module from 'node:module';

const SUPPORTED = 'Node.js 22.15+ or 24+ (23 is not supported)';

const parts = process.versions.node.split('.').map(Number);
const major = parts[0];
const minor = parts[1];
if (!((major === 22 && minor >= 15) || major >= 24)) {
  process.stderr.write(`docs-gateway needs ${SUPPORTED}; this is Node.js ${process.versions.node}. ${gettingNode24()}\n`);
  process.exit(1);
}

/** The README's way to Node 24 ("Run it"): the official binaries, from the npm registry. */
function gettingNode24() {
  if (process.platform !== 'linux') return 'Node 24: see "Run it" in the README.';
  const node = `node-linux-${process.arch}`;
  return `Node 24 from npm, as the README's "Run it" does: npm install --prefix ~/.node24 ${node}@24 && export PATH=~/.node24/node_modules/${node}/bin:$PATH`;
}

// V8's compiled code of the bundle and its packages, kept on disk (in the system's temporary
// directory) between starts: a later start compiles little again (Node 22.1+).
module.enableCompileCache?.();

import('./build.js')
  .then(async (bundle) => {
    await bundle.ensureBuilt();
    const { pathToFileURL } = await import('node:url');
    await import(pathToFileURL(bundle.BUNDLE).href);
  })
  .catch((error) => {
    console.error(`docs-gateway: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.exit(1);
  });
