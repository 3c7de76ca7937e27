import fs from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';

/**
 * Persisted operations: documents registered ahead by the hash of their text
 * (the manifest GraphQL Code Generator's client preset writes,
 * `{ "<sha256>": "query …" }`), which clients send instead of the text —
 * `{"documentId": "<sha256>"}`, or Apollo's
 * `{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "…"}}}`.
 * With `only`, the server runs registered documents and nothing else.
 */
export interface PersistedOperations {
  /** Documents by the SHA-256 of their text. */
  documents: Record<string, string>;
  /** Refuse documents sent as text. */
  only: boolean;
}

/** Reads a manifest file; a bad one stops the server at start rather than failing requests. */
export function loadPersistedOperations(file: string, only: boolean): PersistedOperations {
  const documents = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!documents || typeof documents !== 'object' || Array.isArray(documents) || !Object.values(documents).every((text) => typeof text === 'string')) {
    throw new Error(`${file}: a persisted operations manifest is an object of document texts by hash`);
  }
  // The client preset writes keys as `sha256:<hash>`; Apollo clients send the bare hash.
  return { documents: Object.fromEntries(Object.entries(documents as Record<string, string>).map(([key, text]) => [key.replace(/^sha256:/, ''), text])), only };
}

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
