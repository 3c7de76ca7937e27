import net from 'node:net';

export type DatabaseProxyMode = 'open' | 'refuse' | 'freeze';

export interface DatabaseProxy {
  /** The database URL with the proxy's address in place of the server's. */
  url: string;
  /** What the proxy does now. */
  readonly mode: DatabaseProxyMode;
  /** Answers nothing from the database: what the server sends is held back (what the client sends still reaches it). */
  freeze(): void;
  /**
   * Freezes (as `freeze`) the moment a client sends a message holding `text`
   * (e.g. `BEGIN`): the statement reaches the database, its answer does not.
   * Once; a fault at an exact point of a request.
   */
  freezeOnceSent(text: string): void;
  /** Every open connection dropped, every new one refused. */
  cut(): void;
  /** Passes everything again; a frozen connection gets what was held back. */
  restore(): void;
  /** Connections open through the proxy. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a PostgreSQL server that a test can cut (every
 * connection refused or dropped) or freeze (connections open, nothing
 * answered), as a network partition or a stalled server would. Used by
 * test/db/faults.test.ts and test/db/long-fault-run.ts; it imports nothing of
 * vitest, so scripts run with tsx can use it.
 */
export async function databaseProxy(target: URL): Promise<DatabaseProxy> {
  let mode: DatabaseProxyMode = 'open';
  let trigger: Buffer | undefined;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const freeze = () => {
    mode = 'freeze';
    for (const [, upstream] of pairs) upstream.pause();
  };
  const server = net.createServer((client) => {
    if (mode === 'refuse') return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
    // After the pipe's own listener: the chunk is on its way to the database when this freezes.
    client.on('data', (chunk: Buffer) => {
      if (trigger && chunk.includes(trigger)) {
        trigger = undefined;
        freeze();
      }
    });
    if (mode === 'freeze') upstream.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  const dropAll = () => {
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
  };
  return {
    url: url.toString(),
    get mode() {
      return mode;
    },
    freeze,
    freezeOnceSent(text) {
      trigger = Buffer.from(text);
    },
    cut() {
      mode = 'refuse';
      dropAll();
    },
    restore() {
      mode = 'open';
      trigger = undefined;
      for (const [, upstream] of pairs) upstream.resume();
    },
    connections: () => pairs.size,
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
