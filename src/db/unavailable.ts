/**
 * Whether an error means the database cannot answer now (unreachable, gone,
 * restarting, out of connections, slower than the statement timeout, or a lock
 * held longer than the lock timeout by another transaction) rather
 * than a bug: clients get a 503 with Retry-After, and the server keeps running
 * and recovers by itself when the database is back (the pool opens new
 * connections on demand).
 */

/**
 * Prisma's codes for an unreachable or timed-out database (P1xxx), an exhausted
 * pool (P2024), and a transaction that could not start in time (P2028: the
 * database stalled, or every connection is busy).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1003', 'P1008', 'P1011', 'P1017', 'P2024', 'P2028']);

/** Prisma driver adapter error kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'DatabaseDoesNotExist', 'SocketTimeout', 'ConnectionClosed', 'TooManyConnections']);

/**
 * PostgreSQL SQLSTATEs: connection exceptions (08xxx), shutdown and startup
 * (57P01–57P03), too many connections (53300), the database dropped (3D000),
 * the statement timeout (57014), the lock timeout (55P03); and Node's socket errors.
 */
const DRIVER_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '3D000',
  '57014',
  '55P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'SQLITE_BUSY',
]);

/** node-postgres reports its own timeouts and lost connections by message only. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Connection closed|database is locked/i;

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  originalError?: unknown;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current) || seen.size > 10) continue;
    seen.add(current);
    const { code, kind, originalCode, message, cause, meta, originalError } = current as ErrorLike;
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || DRIVER_CODES.has(code))) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof originalCode === 'string' && DRIVER_CODES.has(originalCode)) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
    pending.push(cause, meta?.driverAdapterError?.cause, originalError);
  }
  return false;
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable or too slow to answer; try again shortly';
/** Seconds a client is told to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;
