import { seedDemo } from '../../prisma/seed/demo.ts';
import { loadConfig } from '../config.ts';
import { localDiskStorage } from '../storage/files.ts';
import { withDatabase } from './admin.ts';

/** `seed --demo`: the demo data, written through the domain layer (all of it, hence a module of its own). */

export { describeError } from './errors.ts';

export async function seedDemoCommand() {
  const config = loadConfig();
  const loaded = await withDatabase((database) => seedDemo(database, config.urls, localDiskStorage(config.filesDir)));
  console.log(loaded ? 'loaded the demo data' : 'the demo data is already loaded');
}
