import type { FastifyInstance } from 'fastify';
import { receiveGitPush } from '../domain/git/binding.ts';

/**
 * Push webhooks from a bound repository's host (src/domain/git/binding.ts): no API token, the
 * request is signed with the binding's secret instead (GitHub, GitLab or Gitea), over the body's
 * exact bytes, which is why this path reads the body raw (src/http/app.ts reads no token here).
 * A verified push queues a sync and answers 202; refusals answer in the one error shape.
 */
/** A push event's payload is small; a host sends nothing near this. */
const HOOK_BODY_LIMIT = 5 * 1024 * 1024;

export const GIT_HOOK_PATH = /^\/v1\/git\/hooks\/[^/?]+\/?(\?|$)/;

export async function gitHooksPlugin(app: FastifyInstance) {
  // The signature is over the bytes as sent: kept as they are, whatever their type (JSON or a form).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: HOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
  app.post<{ Params: { bindingId: string } }>('/v1/git/hooks/:bindingId', async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const { queued } = await receiveGitPush(request.ctx!, request.params.bindingId, request.headers, body);
    return reply.code(202).send({ queued });
  });
}

/**
 * The hook in /v1/openapi.json (src/rest/openapi.ts): called by a Git host, not by API clients,
 * so it is not in the route table (no token, a raw signed body), but its address and answers are
 * what an operator pastes into the host's webhook settings.
 */
export const GIT_HOOK_OPERATION = {
  path: '/v1/git/hooks/{bindingId}',
  method: 'post',
  operation: {
    operationId: 'receiveGitPush',
    summary: "A bound repository's push webhook (GitHub, GitLab or Gitea), signed with the binding's hookSecret: queues a sync",
    tags: ['Space Git binding'],
    security: [],
    parameters: [
      { name: 'bindingId', in: 'path', required: true, schema: { type: 'string' }, description: "The binding's id (`hookUrl` of getGitBinding ends with it)" },
      {
        name: 'X-Hub-Signature-256',
        in: 'header',
        schema: { type: 'string' },
        description: 'GitHub: `sha256=` and the HMAC-SHA256 of the body under the hook secret',
      },
      { name: 'X-Gitea-Signature', in: 'header', schema: { type: 'string' }, description: 'Gitea: the hex HMAC-SHA256 of the body under the hook secret' },
      { name: 'X-Gitlab-Token', in: 'header', schema: { type: 'string' }, description: 'GitLab: the hook secret itself' },
      {
        name: 'X-GitHub-Event',
        in: 'header',
        schema: { type: 'string' },
        description: 'The event (also X-Gitea-Event, X-Gitlab-Event): only a push queues a sync',
      },
    ],
    requestBody: {
      required: true,
      description: "The host's event payload, as sent (up to 5 MiB): only its signature is read, the sync reads the branch itself",
      content: { 'application/json': { schema: {} }, 'application/x-www-form-urlencoded': { schema: {} } },
    },
    responses: {
      202: {
        description: 'Verified: `queued` says whether a sync was queued (false for a ping or another event than a push)',
        content: {
          'application/json': {
            schema: { type: 'object', required: ['queued'], properties: { queued: { type: 'boolean' } }, additionalProperties: false },
          },
        },
      },
      401: {
        description: "Not signed with this binding's secret (or the server has no GIT_CREDENTIALS_KEY to read it)",
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      404: { $ref: '#/components/responses/NotFound' },
      413: {
        description: `The body is larger than ${HOOK_BODY_LIMIT / 1024 / 1024} MiB`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      431: { $ref: '#/components/responses/RequestHeaderFieldsTooLarge' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  },
} as const;
