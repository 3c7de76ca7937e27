// Prints the GraphQL schema to schema.graphql (`npm run schema:print`), or with
// --check fails when the committed file is stale (`npm run schema:check`).
import fs from 'node:fs';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.ts';

export const schemaFile = path.resolve(import.meta.dirname, '../../schema.graphql');
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const printed = printedSchema();
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(schemaFile) ? fs.readFileSync(schemaFile, 'utf8') : '';
    if (committed !== printed) {
      console.error('schema.graphql is stale: run `npm run schema:print` and commit it');
      process.exit(1);
    }
    console.log('schema.graphql is current');
  } else {
    fs.writeFileSync(schemaFile, printed);
    console.log(`wrote ${path.relative(process.cwd(), schemaFile)}`);
  }
}
