import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/index.ts';
import type { EventStreams } from '../events/streams.ts';

/**
 * Prometheus metrics at /metrics (prom-client): HTTP requests by route,
 * method and status with their latency, GraphQL operations by type and
 * outcome, response cache hits, the database pool, and the process itself.
 * Our own metrics are named `docs_gateway_*`; the process' and Node's standard
 * ones keep the names dashboards look for (`process_*`, `nodejs_*`).
 * Each app has a registry of its own (tests build several apps per process).
 * The route label is the route's pattern (`/v1/spaces/:spaceId`), never the
 * raw URL: ids would make a series per object.
 */

export const METRICS_PATH = '/metrics';

export interface GraphQLMetrics {
  /** Counts one executed GraphQL operation. */
  operation(type: string, outcome: 'ok' | 'error'): void;
}

export function registerMetrics(app: FastifyInstance, database: Database, streams: EventStreams): GraphQLMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'docs_gateway_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'docs_gateway_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route pattern and method',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cache = new Counter({
    name: 'docs_gateway_response_cache_total',
    help: 'Read answers served from the response cache (hit) or computed (miss)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const graphql = new Counter({
    name: 'docs_gateway_graphql_operations_total',
    help: 'GraphQL operations executed, by type and outcome (error: the result has errors)',
    labelNames: ['type', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'docs_gateway_subscription_streams',
    help: 'Live update streams (GraphQL subscriptions) open on this instance',
    registers: [registry],
    collect() {
      this.set(streams.stats().open);
    },
  });
  new Counter({
    name: 'docs_gateway_subscription_events_total',
    help: 'Events delivered to subscribers (after their permission checks)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(streams.stats().sent);
    },
  });
  new Counter({
    name: 'docs_gateway_subscription_streams_dropped_total',
    help: 'Streams dropped because their client fell too far behind',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(streams.stats().dropped);
    },
  });
  if (database.poolStats) {
    const stats = database.poolStats;
    new Gauge({
      name: 'docs_gateway_db_pool_connections',
      help: 'PostgreSQL pool connections: open (total), idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { total, idle, waiting } = stats();
        this.set({ state: 'total' }, total);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    if (request.url === METRICS_PATH) return;
    // Unmatched paths share one label: a scan of random URLs must not grow the series.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    const cached = reply.getHeader('x-cache');
    if (cached === 'hit' || cached === 'miss') cache.inc({ result: cached });
  });

  // Scraped without a token and outside the rate limits, like the health probes.
  app.get(METRICS_PATH, { config: { rateLimit: false } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });

  return { operation: (type, outcome) => graphql.inc({ type, outcome }) };
}
