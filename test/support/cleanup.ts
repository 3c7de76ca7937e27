import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * What a test file opened — servers, database connections, browsers — closed
 * when the file ends, in reverse order. (Vitest drops an `afterAll` registered
 * while a `beforeAll` runs, which is where test files build their apps.)
 */
const pending: Array<() => Promise<unknown> | unknown> = [];

export function closeWhenFileEnds(close: () => Promise<unknown> | unknown): void {
  pending.push(close);
}

/** Registered for every test file by test/support/setup.ts. */
export function registerCleanup(): void {
  afterAll(async () => {
    while (pending.length > 0) await pending.pop()!();
  });
}

/** A new directory under the system's temporary directory, removed when the file ends. */
export function temporaryDirectory(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  closeWhenFileEnds(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
