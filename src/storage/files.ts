import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where file bytes live, by the SHA-256 of their content: the same bytes
 * uploaded twice are stored once, and a key never changes what it names.
 */
export interface FileStorage {
  put(sha256: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(sha256: string): Promise<Buffer | null>;
}

/** Files on a local disk (`FILES_DIR`): `<dir>/<first two hex digits>/<sha256>`, written atomically. */
export function localDiskStorage(dir: string): FileStorage {
  const pathOf = (sha256: string) => {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256 key: ${sha256}`);
    return path.join(dir, sha256.slice(0, 2), sha256);
  };
  return {
    async put(sha256, bytes) {
      const target = pathOf(sha256);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file, and two writers of the same bytes agree.
      const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target);
    },
    async get(sha256) {
      try {
        return await fs.readFile(pathOf(sha256));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
