import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { type S3StorageOptions, s3Storage } from '../../src/storage/s3.ts';
import { closeWhenFileEnds } from './cleanup.ts';

/**
 * An S3-compatible server for the tests: s3rver on 127.0.0.1, its objects in a
 * temporary folder, closed when the file ends. It does not check credentials
 * (any pair is accepted), so tests assert bytes and keys, not access control.
 */
export async function startS3(bucket = 'docs') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const options = (prefix = 'gateway/'): S3StorageOptions => ({
    bucket,
    prefix,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  // The tests' own view of the bucket, to check what the server stored.
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const storages: Array<ReturnType<typeof s3Storage>> = [];
  closeWhenFileEnds(async () => {
    for (const storage of storages) storage.close?.();
    client.destroy();
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });
  return {
    endpoint,
    bucket,
    options,
    /** The server's storage on this bucket (closed with it). */
    storage(prefix?: string) {
      const storage = s3Storage(options(prefix));
      storages.push(storage);
      return storage;
    },
    /** Every key in the bucket, sorted. */
    async keys(): Promise<string[]> {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    /** The bytes stored under a key, or null. */
    async bytes(key: string): Promise<Buffer | null> {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch {
        return null;
      }
    },
  };
}
