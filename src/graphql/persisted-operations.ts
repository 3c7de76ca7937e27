import fs from 'node:fs';

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
