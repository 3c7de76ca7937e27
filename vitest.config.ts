import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// graphql 16 ships CommonJS and ESM builds without an exports map: Vite would load the
// ESM one for our sources while Yoga and Pothos load the CommonJS one, and two copies
// of graphql cannot share a schema. Point every import at the one Node itself loads.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
