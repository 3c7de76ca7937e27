import { seedDemo } from '../../prisma/seed/demo.ts';
import { loadConfig } from '../config.ts';
import { openFileStorage } from '../storage/index.ts';
import { withDatabase } from './admin.ts';

/** `seed --demo`: the demo data, written through the domain layer (all of it, hence a module of its own). */

export { describeError } from './errors.ts';

export async function seedDemoCommand() {
  const config = loadConfig();
  const storage = openFileStorage(config);
  const loaded = await withDatabase((database) => seedDemo(database, config.urls, storage)).finally(() => storage.close?.());
  console.log(loaded ? 'loaded the demo data' : 'the demo data is already loaded');
}
