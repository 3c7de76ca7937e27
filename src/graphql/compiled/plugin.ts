import { createHash } from 'node:crypto';
import { collectFields } from '@graphql-tools/utils';
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  getOperationAST,
  getVariableValues,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { PublicUrls } from '../../config.ts';
import type { RequestContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { jsonDialect, sqlBuilder } from '../../db/sql.ts';
import { openedOrganizations } from '../../domain/access.ts';
import { type CompileContext, type CompiledViewer, UNSUPPORTED, compileField } from './compile.ts';
import { COMPILED_TYPES, EXECUTE_INSTEAD } from './reads.ts';

/**
 * Compiled reads: a query whose every field is declared in reads.ts is answered
 * by one SQL statement per root field, whose text is the field's JSON; the
 * response is those texts put together, never parsed. Anything else — a
 * mutation, a field not declared, an object the viewer may not see (null, or a
 * guard's marker) — runs through the executor as before.
 *
 * `verify` (the test suite) also runs the executor and fails the request when
 * the two answers differ: every query the suite sends proves the compiled path.
 */
export type CompiledReadsMode = 'on' | 'off' | 'verify';

interface Statement {
  key: string;
  sql: string;
  parameters: readonly unknown[];
  name: string;
}

interface Plan {
  statements: Statement[];
  /** Response keys answered as constants (a root `__typename`). */
  constants: Array<[string, string]>;
  /** Whether a guard's marker may appear in the texts. */
  guarded: boolean;
}

const MARKER = JSON.stringify(EXECUTE_INSTEAD).slice(1, -1);
const PLANS_KEPT = 2000;

export interface CompiledReadsOptions {
  mode: CompiledReadsMode;
  database: Pick<Database, 'provider' | 'readText'>;
  urls: PublicUrls;
}

/** A query as it arrives over HTTP, before Yoga parses it. */
export interface QueryRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
}

/**
 * Compiled reads: the Yoga plugin (`plugin`), and `answer`, the same plans for
 * a request the HTTP route answers without Yoga — the text of a query that
 * Yoga has already parsed, validated and answered compiled (its limits checked
 * again with these variables). Null when it cannot: the request then goes
 * through Yoga as any other.
 */
export interface CompiledReads {
  plugin: Plugin;
  answer(
    ctx: RequestContext,
    request: QueryRequest,
    withinLimits: (schema: GraphQLSchema, document: DocumentNode, request: QueryRequest) => boolean,
  ): Promise<Buffer | null>;
}

/** Query texts Yoga answered compiled, kept at most (their documents are parsed and valid). */
const DOCUMENTS_KEPT = 500;

export function createCompiledReads(options: CompiledReadsOptions): CompiledReads {
  if (options.mode === 'off') return { plugin: {}, answer: async () => null };
  const { database, urls } = options;
  /** Texts of valid queries that were answered compiled, with their parsed document. */
  const known = new LRUCache<string, { document: DocumentNode; schema: GraphQLSchema }>({ max: DOCUMENTS_KEPT });
  const db = sqlBuilder(database.provider);
  const json = jsonDialect(database.provider);
  /** Plans by document (Yoga parses each text once), then by operation, variables and the viewer's organizations. */
  const plans = new WeakMap<DocumentNode, LRUCache<string, Plan | typeof UNSUPPORTED>>();

  const planFor = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
    viewer: CompiledViewer,
  ) => {
    let byShape = plans.get(document);
    if (!byShape) plans.set(document, (byShape = new LRUCache({ max: PLANS_KEPT })));
    // The viewer's id too: the grants that reach it are read by it (src/domain/reads.ts seesContent).
    const key = JSON.stringify([operation.name?.value ?? null, variables, viewer.userId, viewer.memberOf, viewer.contentOf]);
    let plan = byShape.get(key);
    if (plan === undefined) {
      plan = compilePlan(schema, document, operation, variables, viewer);
      byShape.set(key, plan);
    }
    return plan;
  };

  const compilePlan = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
    viewer: CompiledViewer,
  ): Plan | typeof UNSUPPORTED => {
    const queryType = schema.getQueryType();
    if (!queryType) return UNSUPPORTED;
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    const root = collectFields(schema, fragments, variables, queryType, operation.selectionSet);
    if (root.patches.length) return UNSUPPORTED;
    let aliases = 0;
    const c: CompileContext = {
      types: COMPILED_TYPES,
      db,
      json,
      schema,
      fragments,
      variables,
      urls,
      viewer,
      alias: () => `t${++aliases}`,
      pagePaths: new Map(),
    };
    const plan: Plan = { statements: [], constants: [], guarded: false };
    // The root fields, compiled as the fields of an object of the Query type, one statement each.
    for (const [key, nodes] of root.fields) {
      const name = nodes[0]!.name.value;
      if (name === '__typename') {
        plan.constants.push([key, JSON.stringify(queryType.name)]);
        continue;
      }
      const value = compileField(c, queryType, '', key, nodes);
      if (value === UNSUPPORTED) return UNSUPPORTED;
      const compiled = sql`SELECT ${json.text(value)}`.compile(db);
      plan.statements.push({
        key,
        sql: compiled.sql,
        parameters: compiled.parameters,
        name: `dg_${createHash('sha256').update(compiled.sql).digest('base64url').slice(0, 24)}`,
      });
    }
    plan.guarded = true;
    return plan;
  };

  /** The viewer as plans take it, or null when compiled reads do not apply to this request. */
  const viewerOf = (ctx: RequestContext): CompiledViewer | null => {
    const memberships = ctx?.viewer?.memberships;
    if (!memberships || ctx.siteVisits.size) return null;
    return { userId: ctx.viewer!.user.id, ...openedOrganizations(memberships.values()) };
  };

  /**
   * The pieces of the answer's body, in order, or null: the executor answers instead (a plan that
   * does not compile, a null root, a guard). Pieces, because a tree's text is large: joined into one
   * string it would be copied once more, into V8's large-object space, which only a full collection frees.
   */
  const run = async (plan: Plan): Promise<string[] | null> => {
    const texts = await Promise.all(plan.statements.map((statement) => database.readText(statement)));
    if (texts.some((text) => text === null || (plan.guarded && text.includes(MARKER)))) return null;
    const pieces = ['{"data":{'];
    for (const [key, value] of plan.constants) pieces.push(`${pieces.length > 1 ? ',' : ''}${JSON.stringify(key)}:${value}`);
    plan.statements.forEach((statement, index) => {
      pieces.push(`${pieces.length > 1 ? ',' : ''}${JSON.stringify(statement.key)}:`, texts[index]!);
    });
    pieces.push('}}');
    return pieces;
  };

  return {
    plugin: {
      async onExecute({ args, setResultAndStopExecution, executeFn }) {
        const ctx = args.contextValue as unknown as RequestContext;
        const viewer = viewerOf(ctx);
        if (!viewer) return;
        const operation = getOperationAST(args.document, args.operationName ?? undefined);
        if (operation?.operation !== 'query') return;
        const plan = planFor(args.schema, args.document, operation, (args.variableValues ?? {}) as Record<string, unknown>, viewer);
        if (plan === UNSUPPORTED) return;
        const body = (await run(plan))?.join('') ?? null;
        // Over the time limit (src/graphql/limits.ts): it answers the 503 in place of this result.
        if (overBudget(ctx)) return setResultAndStopExecution({ data: null });
        if (body === null) return;
        if (options.mode === 'verify') await verify(body, () => executeFn({ ...args, contextValue: { ...ctx, loaders: new Map() } }));
        // The text Yoga parsed: the same text again may be answered without Yoga (`answer`).
        const source = args.document.loc?.source.body;
        if (source) known.set(source, { document: args.document, schema: args.schema });
        setResultAndStopExecution(rawResult(body));
      },
    },
    async answer(ctx, request, withinLimits) {
      const viewer = viewerOf(ctx);
      const entry = known.get(request.query);
      if (!viewer || !entry) return null;
      const { document, schema } = entry;
      const operation = getOperationAST(document, request.operationName);
      if (operation?.operation !== 'query') return null;
      // As Yoga's pipeline would: variables coerced (their errors are Yoga's to word), within the limits.
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables);
      if (coerced.errors || !withinLimits(schema, document, request)) return null;
      const plan = planFor(schema, document, operation, coerced.coerced, viewer);
      if (plan === UNSUPPORTED) return null;
      const pieces = await run(plan);
      return pieces && bytesOf(pieces);
    },
  };
}

/** The pieces written one after another into one buffer (outside V8's heap, freed with it). */
function bytesOf(pieces: string[]): Buffer {
  const bytes = Buffer.allocUnsafe(pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0));
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes;
}

function overBudget(ctx: RequestContext): boolean {
  try {
    ctx.checkBudget?.();
    return false;
  } catch {
    return true;
  }
}

/** A result whose JSON is already written: Yoga sends `stringify()` as it is. */
function rawResult(body: string): ExecutionResult & { stringify: () => string } {
  let data: ExecutionResult['data'];
  return {
    get data() {
      data ??= (JSON.parse(body) as ExecutionResult).data;
      return data;
    },
    stringify: () => body,
  };
}

/** Fails when the executor's answer differs from the compiled one (tests). */
async function verify(body: string, execute: () => unknown): Promise<void> {
  const executed = (await execute()) as ExecutionResult;
  const expected = JSON.stringify({ data: executed.data, ...(executed.errors?.length ? { errors: executed.errors } : {}) });
  const actual = JSON.stringify(JSON.parse(body));
  if (expected === actual) return;
  const message = `compiled read differs from the executor's answer:\n  compiled: ${actual.slice(0, 2000)}\n  executed: ${expected.slice(0, 2000)}`;
  // Tests see it on the console: the answer itself is masked.
  console.error(message);
  throw new Error(message);
}
