import { loadConfig } from '../config.ts';
import { restoreBackup, takeBackup } from '../ops/backup.ts';
import { copyFilesToBucket } from '../ops/copy-files.ts';
import { s3Storage } from '../storage/s3.ts';

/** `backup`, `restore` and `files copy`: an operator's commands, run beside a server or in its place. */

export { describeError } from './errors.ts';

/** Files are part of a backup when they are on local disk; a bucket keeps its own copies (versioning, replication). */
function localFilesDir(config: ReturnType<typeof loadConfig>): string | null {
  return config.fileStorage.kind === 'disk' ? config.fileStorage.dir : null;
}

export async function backupCommand(dir: string, options: { json?: boolean }) {
  const config = loadConfig();
  const manifest = await takeBackup({ databaseUrl: config.databaseUrl, filesDir: localFilesDir(config), into: dir });
  if (options.json) return console.log(JSON.stringify(manifest));
  console.log(`backed up the database (${manifest.database.bytes} bytes, migration ${manifest.lastMigration}) into ${dir}`);
  console.log(
    manifest.files.included
      ? `and ${manifest.files.count} files (${manifest.files.bytes} bytes)`
      : `files are in ${config.fileStorage.kind === 's3' ? `s3://${config.fileStorage.bucket}/${config.fileStorage.prefix}` : 'their storage'}: not copied (keep the bucket's own versions)`,
  );
}

export async function restoreCommand(dir: string, options: { force?: boolean }) {
  const config = loadConfig();
  const manifest = await restoreBackup({ databaseUrl: config.databaseUrl, filesDir: localFilesDir(config), from: dir, force: options.force ?? false });
  console.log(`restored the backup of ${manifest.takenAt} into ${config.databaseUrl}${manifest.files.included ? ` with ${manifest.files.count} files` : ''}`);
}

export async function copyFilesCommand() {
  const config = loadConfig();
  const storage = config.fileStorage;
  if (storage.kind !== 's3') {
    throw new Error('files copy copies FILES_DIR into a bucket: set FILES_STORAGE=s3 and the S3_ settings of the bucket (docs/operations.md)');
  }
  const bucket = s3Storage(storage);
  try {
    const totals = await copyFilesToBucket(config.filesDir, bucket);
    console.log(`copied ${totals.copied} files (${totals.bytes} bytes) from ${config.filesDir} to ${bucket.location}; ${totals.skipped} were there already`);
  } finally {
    bucket.close?.();
  }
}
