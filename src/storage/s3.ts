import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkedKey, type FileStorage } from './files.ts';

/** An S3-compatible bucket (AWS S3, MinIO, Ceph, R2, Garage...): `FILES_STORAGE=s3`. */
export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key (`docs/` keeps `docs/<aa>/<sha256>`), so one bucket can hold several servers. */
  prefix: string;
  region: string;
  /** The service's address; unset: AWS S3 of `region`. */
  endpoint?: string | undefined;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`: what most self-hosted servers need. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (environment, shared files, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Uploads above this size go in parts (lib-storage), so neither side holds a whole large file in one request. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Files in an S3-compatible bucket, under the same content-addressed keys as
 * on disk. The SDK is imported on first use: a server on local disk never
 * loads it. Checksums are sent and checked only where the API requires them:
 * several S3-compatible servers store the framing of checksummed streamed
 * uploads as part of the object, or refuse it.
 */
export interface S3FileStorage extends FileStorage {
  exists(sha256: string): Promise<boolean>;
  /** Stores a stream of `size` bytes (a file being copied in), in parts when large; nothing when the key is there already. Whether it stored. */
  putStream(sha256: string, body: Readable, size: number): Promise<boolean>;
}

export function s3Storage(options: S3StorageOptions): S3FileStorage {
  const keyOf = (sha256: string) => `${options.prefix}${checkedKey(sha256)}`;
  let client: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined;
  const connect = () => {
    client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        forcePathStyle: options.forcePathStyle,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return client;
  };
  const notFound = (error: unknown) => {
    const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
  };
  const storage: S3FileStorage = {
    location: `s3://${options.bucket}/${options.prefix}`,
    async exists(sha256) {
      const { client, sdk } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: options.bucket, Key: keyOf(sha256) }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },
    async put(sha256, bytes) {
      // Content-addressed: bytes already there are the same bytes.
      if (await storage.exists(sha256)) return;
      await upload(sha256, bytes, bytes.length);
    },
    async putStream(sha256, body, size) {
      if (await storage.exists(sha256)) {
        body.destroy();
        return false;
      }
      await upload(sha256, body, size);
      return true;
    },
    async get(sha256) {
      const opened = await storage.open(sha256);
      if (!opened) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    close() {
      void client?.then(({ client }) => client.destroy());
    },
    async open(sha256) {
      const { client, sdk } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: keyOf(sha256) }));
        return { size: answer.ContentLength ?? 0, stream: answer.Body as Readable };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
  };

  async function upload(sha256: string, body: Buffer | Readable, size: number) {
    const { client, sdk } = await connect();
    const Key = keyOf(sha256);
    if (size <= PART_SIZE) {
      await client.send(new sdk.PutObjectCommand({ Bucket: options.bucket, Key, Body: body, ContentLength: size }));
      return;
    }
    const { Upload } = await import('@aws-sdk/lib-storage');
    await new Upload({ client, params: { Bucket: options.bucket, Key, Body: body }, partSize: PART_SIZE, queueSize: 2 }).done();
  }
  return storage;
}
