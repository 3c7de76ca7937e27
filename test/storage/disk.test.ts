import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localDiskStorage } from '../../src/storage/files.ts';

describe('files on a local disk', () => {
  it('stores the same bytes written many times at once, each write succeeding, nothing left aside', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-disk-'));
    const storage = localDiskStorage(dir);
    const bytes = Buffer.from('the same image, uploaded by two members at once');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // An import writes a few files at once; two requests may upload the same bytes in one millisecond.
    await Promise.all(Array.from({ length: 20 }, () => storage.put(sha256, bytes)));
    expect((await storage.get(sha256))?.equals(bytes)).toBe(true);
    expect(fs.readdirSync(path.join(dir, sha256.slice(0, 2)))).toEqual([sha256]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
