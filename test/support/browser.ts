import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { closeWhenFileEnds } from './cleanup.ts';

/**
 * Browser tests wait for what they need (an element, a response) with limits far above what it
 * takes on a quiet machine, so that a loaded one only makes them slower.
 */
export const BROWSER_WAIT = { timeout: 60_000 };
export const BROWSER_TEST = { timeout: 150_000 };

/**
 * Headless Chromium from Debian's `chromium` package (installed by .ci/run),
 * driven by playwright-core: no browser download. Closed after the test file.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Root in CI; and no background traffic, which this network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  closeWhenFileEnds(() => browser.close());
  return browser;
}

export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Where a screenshot of a browser test goes (kept by CI as an artifact). */
export function artifactPath(name: string): string {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}

/** Serves fixed HTML pages on a loopback origin of its own; closed after the test file. */
export async function servePages(pages: Record<string, string>, host = 'localhost'): Promise<string> {
  const server = http.createServer((request, response) => {
    const page = pages[(request.url ?? '/').split('?')[0]!];
    if (page === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}
