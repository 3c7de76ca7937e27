// Runs at the start of every test file (vitest setupFiles).
import { registerCleanup } from './cleanup.ts';
import { prepareWorkerDatabase } from './worker-database.ts';

registerCleanup();
await prepareWorkerDatabase();
