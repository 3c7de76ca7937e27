// `npm run -s demo:snapshot`: seeds a new SQLite database through the domain services
// (prisma/seed/demo-services.ts), captures its rows and writes prisma/seed/demo-snapshot.json,
// the rows prisma/seed/demo.ts loads in bulk (test/db/demo-seed.test.ts says when it is stale).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, runMigrations } from '../../src/db/index.ts';
import { localDiskStorage } from '../../src/storage/files.ts';
import { demoSpecText, seedDemoThroughServices } from './demo-services.ts';
import { captureDemo, type DemoSnapshot } from './snapshot.ts';

const SNAPSHOT_FILE = fileURLToPath(new URL('./demo-snapshot.json', import.meta.url));
/** Any address: the spec text, the only row that holds one, is a placeholder in the snapshot. */
const URLS = { api: 'http://127.0.0.1:4000', app: 'http://127.0.0.1:4000/app' };

/** One row a line: a change to the demo shows as a readable diff. */
function formatSnapshot(snapshot: DemoSnapshot): string {
  const tables = snapshot.tables.map(
    ({ table, rows }) => `  {"table": ${JSON.stringify(table)}, "rows": [\n${rows.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}\n  ]}`,
  );
  return `{"tables": [\n${tables.join(',\n')}\n]}\n`;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-demo-snapshot-'));
  try {
    const url = `file:${path.join(dir, 'demo.db')}`;
    await runMigrations(url);
    const database = openDatabase(url);
    try {
      await seedDemoThroughServices(database, URLS, localDiskStorage(path.join(dir, 'files')), { deferSpec: true });
      const text = formatSnapshot(await captureDemo(database, { specText: demoSpecText(URLS), dates: 'rank' }));
      fs.writeFileSync(SNAPSHOT_FILE, text);
      console.log(`wrote ${path.relative(process.cwd(), SNAPSHOT_FILE)}`);
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
