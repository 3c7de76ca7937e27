import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Code blocks of the README that tests run as written: each marked `<!-- name -->` above its fence. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The address the README's examples use; tests put their server's in its place. */
export const README_ADDRESS = 'http://127.0.0.1:4000';

/** The block of `language` under `<!-- name -->` in the README. */
export function readmeBlock(name: string, language: string): string {
  const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name} -->\\n\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
  if (!block) throw new Error(`the README has no <!-- ${name} --> block`);
  return block;
}

/**
 * A module holding `source` beside the sources (under test/artifacts/), so
 * that the packages it imports resolve from node_modules; and how to remove it.
 */
export function scriptBesideSources(name: string, source: string): { file: string; remove(): void } {
  fs.mkdirSync(path.join(ROOT, 'test', 'artifacts'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(ROOT, 'test', 'artifacts', `${name}-`));
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, source);
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
