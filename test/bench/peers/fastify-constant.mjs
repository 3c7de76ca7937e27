// Peer: Fastify answering a constant JSON object — the HTTP ceiling of the machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { object: 'space', id: 'spc_constant', title: 'Constant', emoji: '📘', visibility: 'private' };
app.get('/v1/spaces/:spaceId', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
