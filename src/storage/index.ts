import type { Config } from '../config.ts';
import { type FileStorage, localDiskStorage } from './files.ts';
import { s3Storage } from './s3.ts';

export type { FileStorage, StoredBytes } from './files.ts';

/** The storage the configuration names: `FILES_DIR` on local disk (the default), or an S3-compatible bucket. */
export function openFileStorage(config: Pick<Config, 'fileStorage'>): FileStorage {
  const { fileStorage } = config;
  return fileStorage.kind === 's3' ? s3Storage(fileStorage) : localDiskStorage(fileStorage.dir);
}
