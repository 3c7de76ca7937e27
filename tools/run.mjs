// Runs a tool of the checks from tools/ (`node tools/run.mjs graphql-codegen …`),
// installing tools/ from its lockfile first when it is not, or the lockfile changed
// since: GraphQL Code Generator and Redocly's CLI are ~16,000 files, unpacked by
// every `npm install` of the project when they were development dependencies,
// for three scripts (npm run codegen, codegen:check, openapi:lint).
//
// The tool runs in the project's directory, its paths as the scripts give them;
// packages it loads by name (the codegen preset) are found in tools/ too (NODE_PATH).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(TOOLS);
const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error('usage: node tools/run.mjs <tool> [arguments]');
  process.exit(1);
}

const installed = path.join(TOOLS, 'node_modules', '.package-lock.json');
const lockfile = path.join(TOOLS, 'package-lock.json');
if (!fs.existsSync(installed) || fs.statSync(installed).mtimeMs < fs.statSync(lockfile).mtimeMs) {
  console.error('installing the tools of the checks (tools/package-lock.json)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: TOOLS, stdio: ['ignore', 'inherit', 'inherit'] });
}

const modules = path.join(TOOLS, 'node_modules');
const result = spawnSync(path.join(modules, '.bin', tool), args, {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, NODE_PATH: [modules, process.env.NODE_PATH].filter(Boolean).join(path.delimiter) },
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
