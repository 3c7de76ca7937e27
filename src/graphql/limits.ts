import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  type DocumentNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type GraphQLOutputType,
  GraphQLError,
  type ValidationContext,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
} from 'graphql';
import type { GraphQLLimits } from '../config.ts';
import { LRUCache } from 'lru-cache';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/pagination.ts';

/**
 * What one GraphQL request may ask for. A document is refused before it runs
 * when it is too long (tokens), too deep, has too many aliases or directives,
 * or when its estimated cost — the number of objects it may return, with
 * connections counted at their `first`/`last` (or the default page size) and
 * lists at an estimate — is above the limit. What runs is still bounded in
 * time and in the size of its answer.
 */

/** Items a list that takes no size argument is estimated to hold. */
export const LIST_SIZE_ESTIMATE = 10;

/**
 * A refused document is a request error like a validation error: its HTTP status
 * follows GraphQL over HTTP (400 for application/graphql-response+json, 200 with
 * the error for application/json). Conditions of the server say theirs.
 */
export const REQUEST_ERROR = { code: 400, http: { spec: true, status: 400 } } as const;
const refusal = (message: string) => new GraphQLError(message, { extensions: REQUEST_ERROR });
const serverCondition = (message: string, status: number) => new GraphQLError(message, { extensions: { code: status, http: { status } } });

/** Items a field returns at most, as far as the document tells: connections by `first`/`last`, lists by an estimate. */
function itemsOf(type: GraphQLOutputType, args: Record<string, unknown>): number {
  if (isConnection(type)) {
    const size = args.first ?? args.last ?? DEFAULT_PAGE_SIZE;
    // A size the listing refuses counts nothing: the listing's own error names it.
    return typeof size === 'number' && size >= 0 && size <= MAX_PAGE_SIZE ? size : 0;
  }
  if (isListType(getNullableType(type))) {
    return Array.isArray(args.ids) ? args.ids.length : LIST_SIZE_ESTIMATE;
  }
  return 1;
}

/**
 * The cost of a field is the number of objects it may return, each with the
 * objects of its own selection: a field of scalars costs nothing more than the
 * row it is read from, while every object may mean a row to read and present.
 */
const objectCount: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (isLeafType(getNamedType(field.type)) || getNamedType(field.type).name === 'PageInfo') return 0;
  // A connection's items are the nodes of its edges: counted once, at the node.
  if (isConnection(field.type)) return itemsOf(field.type, args) * childComplexity;
  if (isConnection(type) && field.name === 'edges') return childComplexity;
  return itemsOf(field.type, args) * (1 + childComplexity);
};

function isConnection(type: GraphQLOutputType | GraphQLCompositeType): boolean {
  const named = getNamedType(type);
  return named.name.endsWith('Connection') && 'getFields' in named && 'edges' in named.getFields();
}

/** The armor plugins, the cost check and the time limit, for Yoga. */
export function graphqlLimitPlugins(limits: GraphQLLimits): Plugin[] {
  // Validation limits report their error like any validation error (rather than throwing it).
  const reported = {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  return [
    maxTokensPlugin({ n: limits.maxTokens, exposeLimits: true, propagateOnRejection: true }) as Plugin,
    // After the token limit: it wraps the parser that counts tokens.
    nestingGuard,
    maxDepthPlugin({ n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...reported }) as Plugin,
    maxAliasesPlugin({ n: limits.maxAliases, ...reported }) as Plugin,
    maxDirectivesPlugin({ n: limits.maxDirectives, ...reported }) as Plugin,
    costLimit(limits.maxCost),
    timeLimit(limits.timeoutMs),
  ];
}

/**
 * graphql-js parses recursively: a document nested thousands deep overflows the
 * stack before the token limit is reached. That is the client's document, not
 * the server's failure.
 */
const nestingGuard: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn((source, options) => {
      try {
        return parseFn(source, options);
      } catch (error) {
        if (error instanceof RangeError) throw refusal('Syntax Error: the document is nested too deeply');
        throw error;
      }
    });
  },
};

/** Estimates kept per document (Yoga parses each text once), for its operations and variables seen last. */
const ESTIMATES_PER_DOCUMENT = 64;

const estimates = new WeakMap<DocumentNode, LRUCache<string, number>>();

/**
 * The estimated cost of an operation with its variables, kept per document and
 * variables; undefined when the variables do not coerce (execution reports them
 * with their field names).
 */
export function estimatedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName?: string | null,
): number | undefined {
  let known = estimates.get(document);
  if (!known) estimates.set(document, (known = new LRUCache({ max: ESTIMATES_PER_DOCUMENT })));
  const key = JSON.stringify([operationName ?? null, variables]);
  let cost = known.get(key);
  if (cost === undefined) {
    try {
      cost = getComplexity({ schema, query: document, variables, ...(operationName ? { operationName } : {}), estimators: [objectCount] });
    } catch (error) {
      if (error instanceof GraphQLError) return undefined;
      throw error;
    }
    known.set(key, cost);
  }
  return cost;
}

/** Refuses an operation whose estimated cost is above `maxCost`, with its variables known, before it runs. */
function costLimit(maxCost: number): Plugin {
  /** The estimated cost when it is over the limit. */
  const refusalOf = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: unknown; operationName?: string | null | undefined }) => {
    const cost = estimatedCost(args.schema, args.document, (args.variableValues ?? {}) as Record<string, unknown>, args.operationName ?? undefined);
    return cost !== undefined && cost > maxCost ? cost : undefined;
  };
  return {
    // A subscription's selection runs once per event: it is refused as a query of its cost would be.
    onSubscribe({ args, setResultAndStopExecution }) {
      const cost = refusalOf(args);
      if (cost !== undefined) {
        setResultAndStopExecution({
          errors: [refusal(`Query cost ${cost} exceeds the limit of ${maxCost} for each event: select less.`)],
        });
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const cost = refusalOf(args);
      if (cost === undefined) return;
      setResultAndStopExecution({
        errors: [
          refusal(
            `Query cost ${cost} exceeds the limit of ${maxCost}: it could return that many objects. ` +
              `Ask for fewer items with first/last (a connection without them counts ${DEFAULT_PAGE_SIZE} items, a list ${LIST_SIZE_ESTIMATE}) or select less.`,
          ),
        ],
      });
    },
  };
}

/**
 * Stops executing an operation after `timeoutMs` (or when its client goes
 * away): every data access of the domain checks the request's budget
 * (`ctx.checkBudget`, called by each loader), so an execution stops at its next
 * read, and the answer is then one error. Between reads, execution is bounded
 * by the cost limit.
 */
function timeLimit(timeoutMs: number): Plugin {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as unknown as RequestContext & { request?: Request };
      const deadline = performance.now() + timeoutMs;
      const clientSignal = ctx.request?.signal;
      let stopped: GraphQLError | undefined;
      ctx.checkBudget = () => {
        if (stopped) throw stopped;
        if (performance.now() > deadline) {
          stopped = serverCondition(`Query execution took longer than ${timeoutMs} ms and was stopped: ask for less`, 503);
        } else if (clientSignal?.aborted) {
          stopped = serverCondition('The client went away', 499);
        }
        if (stopped) throw stopped;
      };
      return {
        onExecuteDone: ({ setResult }) => {
          ctx.checkBudget = undefined;
          if (stopped) setResult({ errors: [stopped] });
        },
      };
    },
  };
}

/** The error that replaces an answer above the size limit. */
export function responseTooLarge(bytes: number, limit: number) {
  return serverCondition(`The answer is ${bytes} bytes, above the limit of ${limit}: ask for fewer items with first/last, or select less`, 413);
}
