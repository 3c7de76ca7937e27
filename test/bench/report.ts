// The Markdown report of a run: every measurement, then the issue's targets as
// ratios within this run, each marked met or not.
import type { Sizes } from './dataset.ts';
import type { LoadResult } from './load.ts';
import type { ScenarioProfile } from './profile.ts';
import type { StatementCount } from './statements.ts';

/** How long and how hard each scenario is measured. */
export interface Plan {
  rounds: number;
  seconds: number;
  warmup: number;
  connections: number;
  waterfalls: number;
  soakSeconds: number;
}

export interface Measurement extends LoadResult {
  scenario: string;
  system: string;
  database: string;
  rounds: number[];
}

export interface Results {
  date: string;
  quick: boolean;
  machine: { cpus: string; cores: number; memoryGiB: number; node: string };
  plan: Plan;
  sizes: Sizes;
  measurements: Measurement[];
  statements: Record<string, Record<string, StatementCount>>;
  memory: Record<string, { idleMB: number; peakUnderTreeMB: number }>;
  waterfall: Record<string, { calls: number; bytes: number; waterfallMs: number; treeQueryMs: number; treeBytes: number }>;
  soak?: { seconds: number; samples: Array<{ atSeconds: number; rssMB: number; requestsPerSecond: number }> };
  /** S6: share of the answers served by the response cache, per system. */
  hitRates: Record<string, number>;
  /** Per scenario and database: in-process time, statements and the CPU split. */
  cpu: Array<Omit<ScenarioProfile, 'profile'>>;
  plans: Record<string, string[]>;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

export function renderMarkdown(results: Results): string {
  const find = (scenario: string, system: string) => results.measurements.find((m) => m.scenario.startsWith(scenario) && m.system === system);
  const rps = (scenario: string, system: string) => find(scenario, system)?.requestsPerSecond ?? Number.NaN;
  const lines: string[] = [];
  const { machine } = results;
  lines.push(
    `Run ${results.date}${results.quick ? ' (quick)' : ''} on ${machine.cores} × ${machine.cpus}, ${machine.memoryGiB} GiB, Node ${machine.node}; ` +
      `${results.plan.rounds} round(s) of ${results.plan.seconds} s per system after a ${results.plan.warmup} s warm-up, ${results.plan.connections} connections; ` +
      `large organization: ${results.sizes.largeSpaces.toLocaleString('en')} spaces, ${results.sizes.largeMembers.toLocaleString('en')} members.`,
    '',
    '| Scenario | System | Database | req/s (median) | p50 ms | p99 ms | KB/response | Rounds |',
    '|---|---|---|---:|---:|---:|---:|---|',
  );
  for (const m of results.measurements) {
    lines.push(
      `| ${m.scenario} | ${m.system} | ${m.database} | ${fixed(m.requestsPerSecond)} | ${m.latencyP50} | ${m.latencyP99} | ${fixed(m.bytesPerRequest / 1024)} | ${m.rounds.join(', ')}${m.failures ? ` (${m.failures} failed)` : ''} |`,
    );
  }

  lines.push('', '| SQL statements per request (executed / from the response cache) | SQLite | PostgreSQL |', '|---|---:|---:|');
  const names = Object.keys(results.statements.sqlite ?? {});
  for (const name of names) {
    const cell = (database: string) => {
      const count = results.statements[database]?.[name];
      return count ? `${count.executed} / ${count.cached}` : '–';
    };
    lines.push(`| ${name} | ${cell('sqlite')} | ${cell('postgresql')} |`);
  }

  lines.push('', '| Process | RSS idle MB | Peak RSS under S3 MB |', '|---|---:|---:|');
  for (const [name, memory] of Object.entries(results.memory)) lines.push(`| ${name} | ${fixed(memory.idleMB)} | ${fixed(memory.peakUnderTreeMB)} |`);

  for (const [database, w] of Object.entries(results.waterfall)) {
    lines.push(
      '',
      `REST waterfall on ${database}: ${w.calls} calls (6 at a time), ${w.waterfallMs} ms; the same tree in one GraphQL query: ${w.treeQueryMs} ms (${fixed(w.treeBytes / 1024)} KB).`,
    );
  }
  if (Object.keys(results.hitRates ?? {}).length) {
    lines.push(
      '',
      `S6 answers served by the response cache: ${Object.entries(results.hitRates)
        .map(([system, rate]) => `${system} ${Number.isFinite(rate) ? `${(100 * rate).toFixed(1)}%` : '–'}`)
        .join(', ')}.`,
    );
  }
  if (results.cpu?.length) {
    const categories = ['Prisma', 'database driver', 'GraphQL', 'docs-gateway', 'Fastify', 'Node.js', 'garbage collection', '(idle)'];
    lines.push(
      '',
      'Where the CPU goes, response cache off (in-process, V8 profiler; `npm run bench:profile`), % of samples:',
      '',
      `| Scenario | Database | ms/request | Statements | MB allocated/request | ${categories.join(' | ')} |`,
      `|---|---|---:|---:|---:|${categories.map(() => '---:').join('|')}|`,
    );
    for (const entry of results.cpu) {
      lines.push(
        `| ${entry.scenario} | ${entry.database} | ${fixed(entry.msPerRequest)} | ${entry.statements} | ${fixed((entry.allocatedPerRequest ?? Number.NaN) / 1048576, 2)} | ${categories.map((category) => fixed(entry.split[category] ?? 0)).join(' | ')} |`,
      );
    }
  }
  if (results.soak) {
    const samples = results.soak.samples;
    lines.push(
      '',
      `Soak (${results.soak.seconds} s of S3 on PostgreSQL, response cache off), RSS MB every 30 s: ${samples.map((s) => s.rssMB).join(', ')}; req/s: ${samples.map((s) => s.requestsPerSecond).join(', ')}.`,
    );
  }

  const targets: Array<[string, number, number, string]> = [];
  const ratio = (a: number, b: number) => a / b;
  const postgraphileTree = rps('S3', 'postgraphile');
  const pgTree = rps('S3', 'docs-gateway-postgresql');
  const uncachedTree = rps('S3', 'docs-gateway-postgresql-uncached');
  targets.push(['S3 tree vs PostGraphile, response cache off (PostgreSQL)', ratio(uncachedTree, postgraphileTree), 1.5, '≥ 1.5×']);
  targets.push([
    'S3 tree on SQLite vs PostGraphile on PostgreSQL, response cache off',
    ratio(rps('S3', 'docs-gateway-sqlite-uncached'), postgraphileTree),
    2,
    '≥ 2×',
  ]);
  targets.push([
    'S1 REST space vs PostGraphile lookup, response cache off',
    ratio(rps('S1', 'docs-gateway-postgresql-uncached'), rps('S2', 'postgraphile')),
    1,
    '≥ 1.0×',
  ]);
  targets.push([
    'S2 GraphQL space vs PostGraphile lookup, response cache off',
    ratio(rps('S2', 'docs-gateway-postgresql-uncached'), rps('S2', 'postgraphile')),
    1,
    '≥ 1.0×',
  ]);
  // Issue 38's goals for the mix (issue 24's were 5× and 90%).
  targets.push(['S6 multi-tenant mix vs PostGraphile, response cache on', ratio(rps('S6', 'docs-gateway-postgresql'), rps('S6', 'postgraphile')), 3, '≥ 3×']);
  const hitRate = results.hitRates?.['docs-gateway-postgresql'] ?? Number.NaN;
  targets.push(['S6 response cache hit rate (PostgreSQL), ×100%', hitRate, 0.98, '≥ 0.98']);
  targets.push(['S3 tree vs PostGraphile, response cache on', ratio(pgTree, postgraphileTree), 30, '≥ 30×']);
  targets.push([
    'S1 REST space vs PostGraphile lookup, response cache on',
    ratio(rps('S1', 'docs-gateway-postgresql'), rps('S2', 'postgraphile')),
    1,
    '≥ 1.0×',
  ]);
  targets.push(['S3 tree vs Mesh over REST', ratio(pgTree, rps('S3', 'mesh')), 50, '≥ 50×']);
  targets.push(['S3 tree vs Mesh over REST, response cache off', ratio(uncachedTree, rps('S3', 'mesh')), 50, '≥ 50×']);
  const postgraphileNavigation = rps('S7', 'postgraphile');
  targets.push([
    'S7 navigation vs PostGraphile, response cache off (PostgreSQL)',
    ratio(rps('S7', 'docs-gateway-postgresql-uncached'), postgraphileNavigation),
    1.5,
    '≥ 1.5×',
  ]);
  targets.push([
    'S7 navigation vs PostGraphile, no cache at all (PostgreSQL)',
    ratio(rps('S7', 'docs-gateway-postgresql-cold'), postgraphileNavigation),
    1.5,
    '≥ 1.5×',
  ]);
  targets.push(['S7 navigation vs Mesh over REST', ratio(rps('S7', 'docs-gateway-postgresql'), rps('S7', 'mesh')), 50, '≥ 50×']);
  targets.push(['S7 navigation vs Mesh over REST, response cache off', ratio(rps('S7', 'docs-gateway-postgresql-uncached'), rps('S7', 'mesh')), 50, '≥ 50×']);
  for (const database of ['sqlite', 'postgresql']) {
    targets.push([
      `S8 renderer page view, response cache off (${database}) vs the bare-read floor (fastify-sqlite)`,
      ratio(rps('S8', `docs-gateway-${database}-uncached`), rps('S8', 'fastify-sqlite')),
      0.3,
      '≥ 0.3×',
    ]);
  }
  const w = results.waterfall.postgresql;
  if (w) targets.push(['S3 wall time vs REST waterfall', w.waterfallMs / w.treeQueryMs, 20, '≥ 20× lower']);
  const wOff = results.waterfall['postgresql, cache off'];
  if (wOff) targets.push(['S3 wall time vs REST waterfall, response cache off', wOff.waterfallMs / wOff.treeQueryMs, 20, '≥ 20× lower']);
  for (const database of ['sqlite', 'postgresql']) {
    const deep = results.measurements.find(
      (m: Measurement) => m.scenario.startsWith('S4 listing page') && !m.scenario.endsWith(' 1') && m.database === database,
    );
    const first = results.measurements.find((m: Measurement) => m.scenario === 'S4 listing page 1' && m.database === database);
    if (deep && first) targets.push([`S4 deep page vs page 1 (${database})`, deep.requestsPerSecond / first.requestsPerSecond, 0.9, '≈ 1× (≥ 0.9)']);
  }
  const peak = results.memory['docs-gateway-postgresql-uncached']?.peakUnderTreeMB ?? Number.NaN;
  const idle = results.memory['docs-gateway-postgresql']?.idleMB ?? Number.NaN;
  lines.push('', '| Target | This run | Goal | Met |', '|---|---:|---|---|');
  for (const [name, value, goal, text] of targets) {
    lines.push(
      `| ${name} | ${fixed(value, 2)}${name.includes('hit rate') ? '' : '×'} | ${text} | ${Number.isFinite(value) ? (value >= goal ? 'yes' : '**no**') : '–'} |`,
    );
  }
  for (const database of ['sqlite', 'postgresql']) {
    const counts = results.statements[database];
    if (!counts) continue;
    const s1 = counts.S1?.executed ?? 99;
    const s2 = counts.S2?.executed ?? 99;
    const s3 = counts.S3?.executed ?? 99;
    lines.push(
      `| S1 / S2 / S3 statements, executed, token from cache (${database}) | ${s1} / ${s2} / ${s3} | 1 / 1 / 1 | ${s1 <= 1 && s2 <= 1 && s3 <= 1 ? 'yes' : '**no**'} |`,
    );
    const s7 = counts.S7?.executed;
    if (s7 !== undefined) lines.push(`| S7 statements, executed (${database}) | ${s7} | ≤ 8, whatever the breadth | ${s7 <= 8 ? 'yes' : '**no**'} |`);
    const s8 = counts.S8?.executed;
    if (s8 !== undefined) lines.push(`| S8 page document statements, executed (${database}) | ${s8} | 1 | ${s8 <= 1 ? 'yes' : '**no**'} |`);
  }
  for (const entry of results.cpu ?? []) {
    if (entry.scenario !== 'S3') continue;
    const megabytes = (entry.allocatedPerRequest ?? Number.NaN) / 1048576;
    lines.push(`| Allocation per uncached S3 request (${entry.database}) | ${fixed(megabytes, 2)} MB | ≤ 4 MB | ${megabytes <= 4 ? 'yes' : '**no**'} |`);
  }
  lines.push(`| RSS idle (PostgreSQL) | ${fixed(idle)} MB | ≤ 120 MB | ${idle <= 120 ? 'yes' : '**no**'} |`);
  lines.push(`| Peak RSS under S3, response cache off (PostgreSQL) | ${fixed(peak)} MB | ≤ 250 MB | ${peak <= 250 ? 'yes' : '**no**'} |`);
  return `${lines.join('\n')}\n`;
}
