import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { localDiskStorage } from '../../src/storage/files.ts';
import { CLI_TEST_TIMEOUT, cli } from '../cli/support.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { buildTeam } from '../support/factories.ts';
import { startS3 } from '../support/s3.ts';

/**
 * Files on an S3-compatible bucket (FILES_STORAGE=s3): uploads, imports, PDF
 * exports and downloads go through the bucket, under the same content-addressed
 * keys as on disk, and `docs-gateway files copy` moves a FILES_DIR there.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const keyOf = (bytes: Buffer, prefix = 'gateway/') => `${prefix}${sha256(bytes).slice(0, 2)}/${sha256(bytes)}`;
/** A 1 x 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;
beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ fileStorage: s3.storage() });
});

async function openChangeRequest() {
  const team = await buildTeam(t.database);
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await t.call(method, url, { token: team.admin.token, ...(body === undefined ? {} : { body }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const space = await call('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'On a bucket' });
  const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Files' });
  return { ...team, space, changeRequest, call, base: `/v1/spaces/${space.id}/change-requests/${changeRequest.id}` };
}

describe('files on an S3-compatible bucket', () => {
  it('stores uploads under their digest and streams the same bytes back at their download address', async () => {
    const { call, base } = await openChangeRequest();
    const data = randomBytes(1000 * 1024 + 7);
    const written = await call('POST', `${base}/content?compat=false`, {
      changes: [
        {
          operation: 'insert_files',
          files: [
            { name: 'pixel.png', contentType: 'image/png', base64: PNG.toString('base64') },
            { name: 'data.bin', contentType: 'application/octet-stream', base64: data.toString('base64') },
          ],
        },
      ],
    });
    expect(written.changes).toBeDefined();
    expect(await s3.keys()).toEqual(expect.arrayContaining([keyOf(PNG), keyOf(data)]));
    expect((await s3.bytes(keyOf(data)))?.equals(data)).toBe(true);

    const files = (await call('GET', `${base}/content/files`)).items as Array<{ name: string; downloadURL: string }>;
    for (const [name, bytes] of [
      ['pixel.png', PNG],
      ['data.bin', data],
    ] as const) {
      const file = files.find((candidate) => candidate.name === name)!;
      const download = await t.call('GET', new URL(file.downloadURL).pathname, {});
      expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
      expect(download.headers['content-length']).toBe(String(bytes.length));
      expect(download.rawPayload.equals(bytes)).toBe(true);
    }
    // The first request imports the AWS SDK (a few seconds on a loaded machine).
  }, 90_000);

  it('uploads a large file in parts and reads it back whole, as a stream; a missing key is null', async () => {
    const storage = s3.storage('large/');
    // 20 MB: above the part size, so it goes up as a multipart upload.
    const chunk = randomBytes(1024 * 1024);
    const chunks = Array.from({ length: 20 }, (_, n) => Buffer.concat([chunk.subarray(0, 1024 * 1024 - 1), Buffer.from([n])]));
    const whole = Buffer.concat(chunks);
    expect(await storage.putStream(sha256(whole), Readable.from(chunks), whole.length)).toBe(true);
    // Content-addressed: the same bytes again are not sent.
    expect(await storage.putStream(sha256(whole), Readable.from(chunks), whole.length)).toBe(false);

    const opened = await storage.open(sha256(whole));
    expect(opened?.size).toBe(whole.length);
    const hash = createHash('sha256');
    for await (const part of opened!.stream) hash.update(part as Buffer);
    expect(hash.digest('hex')).toBe(sha256(whole));

    const missing = '0'.repeat(64);
    expect(await storage.open(missing)).toBeNull();
    expect(await storage.get(missing)).toBeNull();
    expect(await storage.exists(missing)).toBe(false);
  });

  it('keeps the images of an imported website in the bucket', async () => {
    const site = http.createServer((request, response) => {
      if (request.url === '/logo.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Home</title></head><body><main><p><img src="/logo.png" alt="Logo"></p></main></body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    closeWhenFileEnds(() => new Promise((resolve) => site.close(resolve)));
    const { call, base } = await openChangeRequest();
    const imported = await call('POST', `${base}/content/import`, { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`, source: 'website' });
    expect(imported.failedResources).toEqual([]);
    const [logo] = (await call('GET', `${base}/content/files`)).items;
    expect(logo.name).toBe('logo.png');
    expect((await s3.bytes(keyOf(PNG)))?.equals(PNG)).toBe(true);
    expect((await t.call('GET', new URL(logo.downloadURL).pathname, {})).rawPayload.equals(PNG)).toBe(true);
  });

  it('writes a PDF export into the bucket and serves it from there, and only a PDF', async () => {
    const { call, base, space, changeRequest } = await openChangeRequest();
    await call('POST', `${base}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\n![Pixel](./pixel.png)\n\nText.\n' } },
        { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
      ],
    });
    const { url } = await call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`);
    const [, digest] = /\/exports\/([0-9a-f]{64})\//.exec(url)!;
    const stored = await s3.bytes(`gateway/${digest!.slice(0, 2)}/${digest}`);
    expect(stored?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const download = await t.call('GET', new URL(url).pathname, {});
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(stored!)).toBe(true);
    // The bucket also holds uploads: an image's digest is not an export.
    expect((await t.call('GET', `/exports/${sha256(PNG)}/x.pdf`, {})).statusCode).toBe(404);
  });
});

describe('docs-gateway files copy', () => {
  it(
    'copies a FILES_DIR into the bucket, streamed, and skips what the bucket has when run again',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-copy-'));
      closeWhenFileEnds(() => fs.rmSync(dir, { recursive: true, force: true }));
      const disk = localDiskStorage(dir);
      const files = [PNG, randomBytes(100), randomBytes(12 * 1024 * 1024)];
      for (const bytes of files) await disk.put(sha256(bytes), bytes);
      const env = {
        FILES_DIR: dir,
        FILES_STORAGE: 's3',
        S3_BUCKET: s3.bucket,
        S3_PREFIX: 'copied/',
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      };
      const first = await cli(['files', 'copy'], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^copied 3 files \(\d+ bytes\) from .* to s3:\/\/docs\/copied\/; 0 were there already\n$/);
      for (const bytes of files) expect((await s3.bytes(keyOf(bytes, 'copied/')))?.equals(bytes), `${bytes.length} bytes`).toBe(true);

      const again = await cli(['files', 'copy'], env);
      expect(again.stdout).toMatch(/^copied 0 files \(0 bytes\) .*; 3 were there already\n$/);

      const unset = await cli(['files', 'copy'], { FILES_DIR: dir });
      expect(unset.code).toBe(1);
      expect(unset.stderr).toMatch(/set FILES_STORAGE=s3/);
      const noBucket = await cli(['files', 'copy'], { FILES_DIR: dir, FILES_STORAGE: 's3' });
      expect(noBucket.stderr).toMatch(/S3_BUCKET: needed with FILES_STORAGE=s3/);
    },
    CLI_TEST_TIMEOUT,
  );
});
