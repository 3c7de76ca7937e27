import { initContextCache } from '@pothos/core';
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, createSourceEventStream, execute } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { scopeOf } from '../domain/events/subscriptions.ts';

/**
 * Subscriptions execute their selection once per event for all the streams
 * that would compute the same answer: the same document, variables and
 * operation, for viewers equal in identity and data generations (a user's
 * streams, its several tokens too). Each event's answer is read with a context
 * of its own (the first such stream's viewer and the event's loaders), so the
 * streams sharing it never share a context otherwise. A thousand streams of a
 * hundred users execute a hundred times per event, not a thousand.
 */

/** Answers by event (each stream receives the same object), document, and then the rest of the key. */
const answers = new WeakMap<object, WeakMap<DocumentNode, Map<string, Promise<ExecutionResult>>>>();

function sharedAnswer(args: ExecutionArgs, request: string, payload: object): Promise<ExecutionResult> {
  const ctx = args.contextValue as RequestContext;
  if (payload instanceof Error || !ctx.viewer) return Promise.resolve(execute({ ...args, rootValue: payload }) as ExecutionResult);
  let byDocument = answers.get(payload);
  if (!byDocument) answers.set(payload, (byDocument = new WeakMap()));
  let byKey = byDocument.get(args.document);
  if (!byKey) byDocument.set(args.document, (byKey = new Map()));
  const key = `${scopeOf(ctx.viewer)}\n${request}`;
  let answer = byKey.get(key);
  if (!answer) {
    // The stream's context as the event's reader left it (viewer, loaders), with Pothos caches of its own.
    const reading: RequestContext = { ...ctx, ...initContextCache() };
    answer = Promise.resolve(execute({ ...args, contextValue: reading, rootValue: payload }) as ExecutionResult);
    byKey.set(key, answer);
  }
  return answer;
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** graphql-js' `subscribe`, with each event's answer shared as above. */
async function subscribe(args: ExecutionArgs) {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source;
  const events = source[Symbol.asyncIterator]() as AsyncIterator<object>;
  // What, besides the document and the viewer, makes the answer: the same for every event of the subscription.
  const request = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
  const mapped = async (item: IteratorResult<object>): Promise<IteratorResult<ExecutionResult>> => {
    if (item.done) return { done: true, value: undefined };
    try {
      // A copy for each stream: what follows (masking, writing) may set its own fields.
      return { done: false, value: { ...(await sharedAnswer(args, request, item.value)) } };
    } catch (error) {
      await events.return?.().catch(() => {});
      throw error;
    }
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: async () => mapped(await events.next()),
    return: async () => (events.return ? mapped(await events.return()) : { done: true, value: undefined }),
    throw: async (error) => {
      if (events.throw) return mapped(await events.throw(error));
      await events.return?.().catch(() => {});
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

export const shareEventAnswers: Plugin = {
  onSubscribe({ setSubscribeFn }) {
    setSubscribeFn(subscribe as never);
  },
};
