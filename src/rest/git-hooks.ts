import type { FastifyInstance } from 'fastify';
import { receiveGitPush } from '../domain/git/binding.ts';

/**
 * Push webhooks from a bound repository's host (src/domain/git/binding.ts): no API token, the
 * request is signed with the binding's secret instead (GitHub, GitLab or Gitea), over the body's
 * exact bytes, which is why this path reads the body raw (src/http/app.ts reads no token here).
 * A verified push queues a sync and answers 202; refusals answer in the one error shape.
 */
export const GIT_HOOK_PATH = /^\/v1\/git\/hooks\/[^/?]+\/?(\?|$)/;

export async function gitHooksPlugin(app: FastifyInstance) {
  // The signature is over the bytes as sent: kept as they are, whatever their type (JSON or a form).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  app.post<{ Params: { bindingId: string } }>('/v1/git/hooks/:bindingId', async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const { queued } = await receiveGitPush(request.ctx!, request.params.bindingId, request.headers, body);
    return reply.code(202).send({ queued });
  });
}
