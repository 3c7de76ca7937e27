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

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether the Redis of this machine answers; CI starts one and sets REQUIRE_REDIS=1 so that its tests cannot be skipped there. */
export async function redisAvailable(): Promise<boolean> {
  if (process.env.REQUIRE_REDIS === '1') return true;
  return new Promise((resolve) => {
    const socket = net.connect(6379, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
