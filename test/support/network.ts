import net from 'node:net';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The Redis of the tests of shared rate limits and live updates: `REDIS_URL`
 * when set (as `DATABASE_URL` names the PostgreSQL server), else this
 * machine's default one. Servers the tests start as processes get it only when
 * a test gives it (`withoutRedis`); every test keeps its keys under a prefix of its own.
 */
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether that Redis answers; CI starts one and sets REQUIRE_REDIS=1 so that its tests cannot be skipped there. */
export async function redisAvailable(): Promise<boolean> {
  if (process.env.REQUIRE_REDIS === '1') return true;
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, '') || '127.0.0.1');
    socket.setTimeout(2_000, () => socket.destroy(new Error('timed out')));
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * The environment of a server a test starts as a process: ours without the
 * Redis the tests use (`REDIS_URL`, `REDIS_PREFIX`), which a server would
 * otherwise share with every other test under the default prefix.
 */
export function withoutRedis(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { REDIS_URL: _url, REDIS_PREFIX: _prefix, ...rest } = env;
  return rest;
}
