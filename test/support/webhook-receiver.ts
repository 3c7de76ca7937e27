import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver on 127.0.0.1, as a customer would run one: every request
 * is verified with the `standardwebhooks` package against the secrets the test
 * gives it. `respond` decides each answer (a status, or `hang` to never answer).
 */

export interface Received {
  id: string;
  timestamp: string;
  signatures: string[];
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, string> };
  /** Which of the receiver's secrets verified it (by index), in order. */
  verifiedBy: number[];
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  secrets: string[];
  respond: (request: Received) => number | 'hang';
  /** Deliveries answered with a 2xx. */
  accepted(): Received[];
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const sockets = new Set<import('node:net').Socket>();
  const accepted = new Set<Received>();
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    respond: () => 204,
    accepted: () => receiver.received.filter((item) => accepted.has(item)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      const verifiedBy: number[] = [];
      receiver.secrets.forEach((secret, index) => {
        try {
          new Webhook(secret).verify(body, headers);
          verifiedBy.push(index);
        } catch {
          // not signed with this one
        }
      });
      const item: Received = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signatures: headers['webhook-signature'].split(' '),
        body,
        payload: JSON.parse(body),
        verifiedBy,
        at: Date.now(),
      };
      receiver.received.push(item);
      // An unsigned (or wrongly signed) delivery is refused as a receiver would refuse it.
      const answer = verifiedBy.length === 0 ? 400 : receiver.respond(item);
      if (answer === 'hang') return;
      if (answer >= 200 && answer < 300) accepted.add(item);
      response.writeHead(answer).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
