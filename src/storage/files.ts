import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where file bytes live, by the SHA-256 of their content: the same bytes
 * uploaded twice are stored once, and a key never changes what it names.
 */
export interface FileStorage {
  put(sha256: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. For what must be read whole (an image drawn into a PDF). */
  get(sha256: string): Promise<Buffer | null>;
  /** The bytes as a stream with their length, or null: downloads never hold a whole file in memory. */
  open(sha256: string): Promise<StoredBytes | null>;
  /** Where the bytes are, for logs and `docs-gateway files copy` (`disk:./data/files`, `s3://bucket/prefix`). */
  readonly location: string;
  /** Lets go of connections (a bucket's), when the process is done with the storage. */
  close?(): void;
}

export interface StoredBytes {
  size: number;
  stream: Readable;
}

/** Keys are SHA-256 digests in hex; anything else never reaches a path or an object key. */
export function checkedKey(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256 key: ${sha256}`);
  return `${sha256.slice(0, 2)}/${sha256}`;
}

/** Files on a local disk (`FILES_DIR`): `<dir>/<first two hex digits>/<sha256>`, written atomically. */
export function localDiskStorage(dir: string): FileStorage {
  const pathOf = (sha256: string) => path.join(dir, checkedKey(sha256));
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
  return {
    location: `disk:${dir}`,
    async put(sha256, bytes) {
      const target = pathOf(sha256);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file, and two writers of the same bytes agree
      // (each its own aside: two at once in one process, in one millisecond, must not share it).
      const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target);
    },
    async get(sha256) {
      try {
        return await fs.readFile(pathOf(sha256));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async open(sha256) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(sha256), 'r');
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        // The stream owns the handle (closed when it ends or is destroyed): a file renamed over meanwhile is read whole, as it was.
        return { size, stream: handle.createReadStream({ autoClose: true }) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
  };
}

/** Every key stored under a local `FILES_DIR` (`<aa>/<sha256>`), for copying it elsewhere. */
export async function* localDiskKeys(dir: string): AsyncGenerator<string> {
  let folders: string[];
  try {
    folders = (await fs.readdir(dir)).filter((name) => /^[0-9a-f]{2}$/.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const folder of folders) {
    for (const name of (await fs.readdir(path.join(dir, folder))).sort()) {
      if (/^[0-9a-f]{64}$/.test(name) && name.startsWith(folder)) yield name;
    }
  }
}
