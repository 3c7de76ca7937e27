/**
 * Writes /v1/openapi.json as the server builds it, for the OpenAPI linter:
 *   npx tsx test/openapi/print.ts <file>
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../../src/rest/openapi.ts';
import { restRoutes } from '../../src/rest/plugin.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx test/openapi/print.ts <file>');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(restRoutes, 'https://docs.acme.test'), null, 2)}\n`);
