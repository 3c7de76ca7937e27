import fs from 'node:fs';
import path from 'node:path';

/**
 * Texts set aside on disk while a long job reads on, then read back a few at a time: a job's
 * memory stays the size of what it works on now, not of everything it read (a Git import spools
 * every page body before its one transaction writes them in slices). The file is the job's own
 * and goes with `close`.
 */
export interface SpooledText {
  at: number;
  bytes: number;
}

export class Spool {
  private constructor(
    private readonly dir: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  private size = 0;

  /** A new spool in a temporary folder of `parent`. */
  static async open(parent: string): Promise<Spool> {
    await fs.promises.mkdir(parent, { recursive: true });
    const dir = await fs.promises.mkdtemp(path.join(parent, 'spool-'));
    return new Spool(dir, await fs.promises.open(path.join(dir, 'texts'), 'w+'));
  }

  async append(text: string): Promise<SpooledText> {
    const buffer = Buffer.from(text, 'utf8');
    const entry = { at: this.size, bytes: buffer.length };
    this.size += buffer.length;
    await this.handle.write(buffer, 0, buffer.length, entry.at);
    return entry;
  }

  async read(entry: SpooledText): Promise<string> {
    const buffer = Buffer.alloc(entry.bytes);
    if (entry.bytes) await this.handle.read(buffer, 0, entry.bytes, entry.at);
    return buffer.toString('utf8');
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}
