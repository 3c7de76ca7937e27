/**
 * GraphQL Code Generator for frontend developers: the client preset turns
 * the `graphql(…)` documents of test/codegen/*.ts into typed documents
 * (result and variables types from schema.graphql), and lists them by hash in
 * persisted-documents.json, which the server can be told to accept alone
 * (PERSISTED_OPERATIONS_FILE). `npm run codegen` writes ./gql;
 * `npm run codegen:check` fails when it is stale. The generator is not a
 * dependency of the project: tools/run.mjs installs it (tools/package.json).
 */
const config = {
  schema: 'schema.graphql',
  documents: ['test/codegen/*.ts', '!test/codegen/codegen.ts', '!test/codegen/*.test.ts'],
  ignoreNoDocuments: false,
  generates: {
    'test/codegen/gql/': {
      preset: 'client',
      config: {
        // Our scalars, as the server sends them.
        scalars: { DateTime: 'string', JSON: 'unknown' },
        useTypeImports: true,
        enumsAsTypes: true,
      },
      presetConfig: {
        fragmentMasking: false,
        persistedDocuments: { hashAlgorithm: 'sha256' },
      },
    },
  },
};

export default config;
