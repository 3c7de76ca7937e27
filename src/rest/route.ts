import type { z } from 'zod';
import type { RequestContext } from '../context.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

/**
 * One REST operation: where it lives, how it is documented in /v1/openapi.json,
 * and the domain call that serves it. Handlers only pass the request on to a
 * domain service and return what it presents; validation and permissions are
 * the service's.
 */
export interface Route {
  method: Method;
  /** OpenAPI-style path, e.g. /v1/spaces/{spaceId}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  query?: z.ZodType;
  /** Request headers the operation reads, documented as header parameters. */
  headers?: Array<{ name: string; description: string; schema: Record<string, unknown> }>;
  body?: z.ZodType;
  /** Largest request body in bytes, when it is not Fastify's 1 MiB (uploads). */
  bodyLimit?: number;
  status: 200 | 201 | 204 | 205;
  /** A 205 route whose handler answers `false` when there was nothing to remove: then 204 (both documented). */
  noContentWhenAbsent?: boolean;
  /** Name of the response schema in /v1/openapi.json (official component names where one exists). */
  response?: string;
  /** The response is a listing `{ next, count, items }` of `response`. */
  list?: boolean;
  handler(ctx: RequestContext, input: RouteInput): Promise<unknown>;
}

export function route(definition: Route): Route {
  return definition;
}
