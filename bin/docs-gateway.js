#!/usr/bin/env node
// The `docs-gateway` command (`npx docs-gateway …`, `npm start`): it runs the
// bundle of the sources (dist/cli/), built at install and again here whenever a
// source is newer (bin/build.js). `npm run dev` runs the sources through tsx.
//
// Plain JavaScript that older Nodes parse too, so that an unsupported Node gets
// one sentence instead of a crash: better-sqlite3 13 ends Node 20 with a
// segmentation fault as it loads. Nothing that loads it is imported before the
// version is known (the bundle is imported dynamically, below).
const SUPPORTED = 'Node.js 22.15+ or 24+ (23 is not supported)';

const parts = process.versions.node.split('.').map(Number);
const major = parts[0];
const minor = parts[1];
if (!((major === 22 && minor >= 15) || major >= 24)) {
  process.stderr.write(`docs-gateway needs ${SUPPORTED}; this is Node.js ${process.versions.node}\n`);
  process.exit(1);
}

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
