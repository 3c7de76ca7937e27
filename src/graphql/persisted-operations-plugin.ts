import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import type { PersistedOperations } from './persisted-operations.ts';

/**
 * Yoga's plugin for persisted operations (./persisted-operations.ts), apart from the
 * manifest's reading: the server reads the manifest at start, and loads this with Yoga.
 */

/** The request parameter clients of the client preset send the hash in. */
export const DOCUMENT_ID_PARAMETER = 'documentId';

export function persistedOperationsPlugin({ documents, only }: PersistedOperations): Plugin {
  return usePersistedOperations({
    allowArbitraryOperations: !only,
    getPersistedOperation: (hash) => documents[hash] ?? null,
    extractPersistedOperationId: (params) => {
      const documentId = (params as { documentId?: unknown }).documentId;
      if (typeof documentId === 'string') return documentId.replace(/^sha256:/, '');
      const persisted = params.extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
      return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
    },
    customErrors: {
      notFound: {
        message: 'No persisted operation has this hash: register it in the manifest (PERSISTED_OPERATIONS_FILE)',
        extensions: { code: 404, http: { status: 404 } },
      },
      persistedQueryOnly: {
        message: 'This server runs persisted operations only: send a registered documentId',
        extensions: { code: 403, http: { status: 403 } },
      },
      keyNotFound: { message: 'Send a documentId (or extensions.persistedQuery.sha256Hash)', extensions: { code: 400, http: { status: 400 } } },
    },
  });
}
