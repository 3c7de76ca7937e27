import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import type PinoPretty from 'pino-pretty';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { DomainError } from '../errors.ts';

/**
 * What reaches the logs: requests without their secrets (share keys, visitor
 * tokens and other tokens travel in query strings; tokens in the
 * Authorization header are never logged), and client errors as information,
 * not as server errors with stack traces.
 */

/**
 * Query parameters whose values are secrets. `url` is the address a URL lookup
 * resolves (`GET /v1/urls/published`), which may carry a share key in its path.
 */
const SECRET_PARAMETERS = /^(shareKey|visitorToken|visitor_token|visitorAuthToken|url|token|access_token|jwt|key|secret|password)$/i;

/** A request URL with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const [name = ''] = pair.split('=', 1);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAMETERS.test(decoded) && pair.includes('=') ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt)}?${query}`;
}

/** A request id a client may choose: letters, digits and `_ . : -`, at most 128 (anything else is replaced). */
const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The id of a request: the caller's `x-request-id` when sane (a trace across services), else a new UUID. */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fastify's request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

interface ErrorWithOrigin {
  name?: unknown;
  originalError?: unknown;
  path?: unknown;
  extensions?: { code?: unknown; http?: { status?: unknown } };
  message?: unknown;
}

/** The status a GraphQL error stands for, when it is the client's (4xx) or the database's (503). */
function clientStatus(error: unknown): number | undefined {
  const { name, originalError, path, extensions } = (error ?? {}) as ErrorWithOrigin;
  const original = originalError ?? error;
  if (original instanceof DomainError) return original.status;
  if (isDatabaseUnavailable(original)) return 503;
  // Yoga's refusals of the request itself (a body that is not JSON, variables that are not an object).
  const status = typeof extensions?.code === 'number' ? extensions.code : extensions?.http?.status;
  if (typeof status === 'number') return status < 500 ? status : undefined;
  // graphql-js' own errors about the document (a syntax error): outside execution, and nothing of ours failed under them.
  return name === 'GraphQLError' && originalError === undefined && path === undefined ? 400 : undefined;
}

/** The logger of the request being served, for code called without it (Yoga's logger). */
const requestLog = new AsyncLocalStorage<FastifyBaseLogger>();

/** Runs `work` with `log` (a request's logger, carrying its reqId) as the one Yoga's lines go to. */
export function withRequestLog<T>(log: FastifyBaseLogger, work: () => T): T {
  return requestLog.run(log, work);
}

/**
 * Yoga's logger: Yoga logs every error it masks at error level; those that are
 * the client's (a 404, a 403, a syntax error, a body that is not JSON) are
 * information, without stack, and a database that cannot answer is a warning.
 * Yoga reports an error about the request itself twice (when masking it and
 * when answering): each error is logged once. Lines go to the request's
 * logger, with its reqId, when Yoga runs inside `withRequestLog`.
 */
export function yogaLogger(fallback: FastifyBaseLogger) {
  const current = () => requestLog.getStore() ?? fallback;
  const logged = new WeakSet<object>();
  return {
    debug: (...args: unknown[]) => current().debug(args.map(String).join(' ')),
    info: (...args: unknown[]) => current().info(args.map(String).join(' ')),
    warn: (...args: unknown[]) => current().warn(args.map(String).join(' ')),
    error: (...args: unknown[]) => {
      const [first] = args;
      if (typeof first === 'object' && first !== null) {
        if (logged.has(first)) return;
        logged.add(first);
      }
      const status = clientStatus(first);
      const message = String((first as ErrorWithOrigin)?.message ?? first);
      if (status === 503) current().warn({ status }, `graphql: ${message}`);
      else if (status !== undefined) current().info({ status }, `graphql client error: ${message}`);
      else current().error(first as object, 'graphql error');
    },
  };
}

export type LogFormat = 'json' | 'pretty';

export interface LogOutput {
  write(text: string): void;
}

/**
 * One record per request, once it is answered (or, for a stream, once its
 * client closed it): its method and URL (secrets redacted), status and time.
 * Fastify's record of its arrival is at debug.
 */
export class OneRecordPerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  /**
   * A client closing the connection of a stream it is done with (a subscription) is the normal
   * end of a stream, not a fault: its request's one record, as any request's (Fastify logs
   * "stream closed prematurely" instead, and never the request).
   */
  override streamError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') this.requestCompleted(null, request, reply);
    else super.streamError(error, request, reply);
  }
}

/**
 * Where log lines go: stdout as JSON, or stdout made readable for a person at a
 * terminal. Read by a person, every record is one line: a request its method,
 * URL, status and time instead of its request and response objects, a job its
 * name and time then the rest of its fields, where pino-pretty would spread
 * either over several lines (an error's stack still takes its own).
 */
export function logDestination(
  format: LogFormat,
  out: LogOutput = pino.destination({ dest: 1, sync: true }),
  colorize = process.stdout.isTTY === true,
): LogOutput {
  if (format === 'json') return out;
  // Loaded only here: a server logging JSON never reads pino-pretty's 60 files.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const prettify = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  const records = new ReadableRecords();
  return {
    write(line) {
      const record = records.shorten(line);
      if (record) out.write(prettify(record));
    },
  };
}

interface LogRecord {
  msg?: unknown;
  reqId?: unknown;
  req?: { method?: unknown; url?: unknown };
  res?: { statusCode?: unknown };
  responseTime?: unknown;
  job?: unknown;
  ms?: unknown;
  [key: string]: unknown;
}

/**
 * Records made short for a person: "request completed" becomes method, URL,
 * status and time; a job's record (src/jobs/queue.ts) says which job and how
 * long in its message, its other fields following on the same line.
 */
class ReadableRecords {
  /** The record to print for a JSON line. */
  shorten(line: string): LogRecord | string | undefined {
    let record: LogRecord;
    try {
      record = JSON.parse(line) as LogRecord;
    } catch {
      return line;
    }
    if (record.msg === 'request completed' && record.res) {
      const { req, res, responseTime, reqId, msg, ...rest } = record;
      const request = req?.method ? `${req.method} ${req.url}` : undefined;
      const time = typeof responseTime === 'number' ? ` ${responseTime.toFixed(1)} ms` : '';
      return { ...rest, ...(request ? {} : { reqId }), msg: `${request ?? 'request'} ${res.statusCode}${time}` };
    }
    if (typeof record.job === 'string' && typeof record.msg === 'string') {
      const { job, ms, msg, ...rest } = record;
      return { ...rest, msg: `${msg}: ${job}${typeof ms === 'number' ? `, ${ms} ms` : ''}` };
    }
    return record;
  }
}

/** The format of a process's logs when none is configured: pretty in a terminal, JSON for machines. */
export const defaultLogFormat = (): LogFormat => (process.stdout.isTTY ? 'pretty' : 'json');

/** pino's options for every logger of docs-gateway: one format, ISO times, requests with secrets redacted. */
export const LOGGER_OPTIONS = { timestamp: pino.stdTimeFunctions.isoTime, serializers: { req: serializeRequest } };

/** A logger outside requests (the command line's start-up), in the same format as the server's. */
export function createLogger(level: string, destination: { write(line: string): void }) {
  return pino({ ...LOGGER_OPTIONS, level }, destination);
}
