// Peer: Fastify reading one row with a raw better-sqlite3 prepared statement —
// the floor cost of a database read, with no authentication or presentation.
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.SQLITE_FILE, { readonly: true });
const select = db.prepare('SELECT id, title, emoji, visibility, "organizationId", "createdAt", "updatedAt" FROM spaces WHERE id = ?');
const app = Fastify({ logger: false });
app.get('/v1/spaces/:spaceId', async (request, reply) => {
  const row = select.get(request.params.spaceId);
  return row ? { object: 'space', ...row } : reply.code(404).send({ error: { code: 404, message: 'not found' } });
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
