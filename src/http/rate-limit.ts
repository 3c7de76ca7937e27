import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequests } from '../errors.ts';
import { bearerToken } from '../lib/tokens.ts';
import type { RateLimits } from '../config.ts';

/**
 * How many requests a client may send per minute: per API token when it sends
 * one, per address otherwise; and, stricter, how many failed authentications an
 * address may cause (guessing tokens). Counted in Redis when `redisUrl` is set,
 * so that every instance shares the counts; in memory otherwise. 0 turns a
 * limit off.
 */

const WINDOW_MS = 60_000;

/** A token is never a key as it is: stores and logs see a digest. */
const keyOfToken = (token: string) => `token:${createHash('sha256').update(token).digest('base64url').slice(0, 24)}`;

export class RateLimited extends TooManyRequests {}

/** Checks a failed authentication against the address's budget: a RateLimited error once it is spent. */
export type FailedAuthenticationCheck = (request: FastifyRequest) => Promise<RateLimited | null>;

/**
 * Counts `count` more requests of the client that sent `request` (the messages of a batch beyond
 * the first, which the request itself counted): a RateLimited error when that spends its budget.
 */
export type ExtraRequestsCheck = (request: FastifyRequest, count: number) => Promise<RateLimited | null>;

export interface RateLimitChecks {
  failedAuthentication: FailedAuthenticationCheck;
  extraRequests: ExtraRequestsCheck;
}

const unlimited: RateLimitChecks = { failedAuthentication: async () => null, extraRequests: async () => null };

/**
 * Registers the per-client limit (an `onRequest` hook, so register it before
 * authentication) and returns the checks for failed authentications and for
 * requests that carry several (an MCP batch).
 */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<RateLimitChecks> {
  if (!limits.perMinute && !limits.failedAuthenticationsPerMinute) return unlimited;
  let redis: import('ioredis').Redis | undefined;
  if (limits.redisUrl) {
    const { Redis } = await import('ioredis');
    // Fail fast: a missing Redis must not hold requests (skipOnError lets them through).
    redis = new Redis(limits.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', (error) => app.log.warn({ err: { message: error.message } }, 'rate limit store (Redis) unavailable'));
    // Counted from the first request: wait (briefly) for the connection before serving.
    const connecting = redis;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, 1_000);
      connecting.once('ready', done);
      connecting.once('error', done);
    });
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: limits.perMinute > 0,
    max: limits.perMinute || Number.MAX_SAFE_INTEGER,
    timeWindow: WINDOW_MS,
    hook: 'onRequest',
    ...(redis ? { redis, nameSpace: `${limits.redisPrefix ?? 'docs-gateway'}:rate:` } : {}),
    // Counting must not become a point of failure: without its store, requests pass.
    skipOnError: true,
    keyGenerator: (request) => {
      const token = bearerToken(request.headers.authorization);
      return token ? keyOfToken(token) : `address:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new RateLimited(`Too many requests: at most ${context.max} per minute; retry in ${context.after}`, Math.ceil(context.ttl / 1000)),
  });
  // The global limit's own counter (same store, same key): each extra request counts as one more request.
  const countRequest = app.createRateLimit();
  const extraRequests: ExtraRequestsCheck = async (request, count) => {
    if (!limits.perMinute || count <= 0) return null;
    const counted = await Promise.all(Array.from({ length: count }, () => countRequest(request)));
    // The last counted is the one with the least left (none is left out: no allow list).
    let last: (typeof counted)[number] | undefined;
    for (const limit of counted) if (!limit.isAllowed && (!last || last.isAllowed || limit.remaining <= last.remaining)) last = limit;
    if (!last || last.isAllowed || !last.isExceeded) return null;
    return new RateLimited(
      `Too many requests: at most ${last.max} per minute, each message of a batch counting as one; retry in ${last.ttlInSeconds} seconds`,
      last.ttlInSeconds,
    );
  };
  if (!limits.failedAuthenticationsPerMinute) return { failedAuthentication: async () => null, extraRequests };
  const checkFailure = app.createRateLimit({
    max: limits.failedAuthenticationsPerMinute,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `failed-authentication:${request.ip}`,
  });
  const failedAuthentication: FailedAuthenticationCheck = async (request) => {
    const limit = await checkFailure(request);
    if (limit.isAllowed || !limit.isExceeded) return null;
    return new RateLimited(
      `Too many failed authentications from this address: at most ${limit.max} per minute; retry in ${limit.ttlInSeconds} seconds`,
      limit.ttlInSeconds,
    );
  };
  return { failedAuthentication, extraRequests };
}
