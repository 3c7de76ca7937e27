import fs from 'node:fs';
import path from 'node:path';
import { localDiskKeys } from '../storage/files.ts';
import type { S3FileStorage } from '../storage/s3.ts';

/** Files copied side by side: a bucket answers each upload after a round trip, a few at once keep it busy. */
const COPIES_AT_ONCE = 4;

/**
 * Copies every file of a local `FILES_DIR` into a bucket, streamed from disk
 * (a large file is never held whole). Keys are content digests, so a file the
 * bucket holds already is skipped, and the copy can be run again after an
 * interruption or while the server still writes to the folder.
 */
export async function copyFilesToBucket(
  dir: string,
  bucket: S3FileStorage,
  onCopied: (key: string, copied: boolean) => void = () => {},
): Promise<{ copied: number; skipped: number; bytes: number }> {
  const totals = { copied: 0, skipped: 0, bytes: 0 };
  const keys = localDiskKeys(dir);
  const copyNext = async (): Promise<void> => {
    for (let next = await keys.next(); !next.done; next = await keys.next()) {
      const key = next.value;
      const file = path.join(dir, key.slice(0, 2), key);
      const { size } = await fs.promises.stat(file);
      const copied = await bucket.putStream(key, fs.createReadStream(file), size);
      if (copied) {
        totals.copied += 1;
        totals.bytes += size;
      } else totals.skipped += 1;
      onCopied(key, copied);
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, copyNext));
  return totals;
}
