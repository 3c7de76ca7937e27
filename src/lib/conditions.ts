import { LRUCache } from 'lru-cache';
import jsep from 'jsep';

/**
 * Visibility conditions of sections and site spaces: a small JavaScript-like
 * expression over the visitor's claims, e.g.
 *   visitor.claims.plan === "enterprise" && !visitor.claims.trial
 *   ["beta", "staff"].includes(visitor.claims.group)
 * It is parsed with jsep when written (a syntax error is the client's) and
 * evaluated by walking the tree — never with eval — over a whitelist of node
 * kinds. A condition that fails to evaluate counts as false.
 */

export class ConditionError extends Error {}

type Node = jsep.Expression;
export type Claims = Record<string, unknown>;

const BINARY = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||', '+', '-', '*', '/', '%']);
const UNARY = new Set(['!', '-', '+']);
const METHODS = new Set(['includes', 'startsWith', 'endsWith']);

export interface ParsedCondition {
  ast: Node;
  /** Top-level claim names the condition reads (`visitor.claims.<name>…`). */
  claims: string[];
}

export function parseCondition(source: string): ParsedCondition {
  let ast: Node;
  try {
    ast = jsep(source);
  } catch (error) {
    throw new ConditionError(`syntax error: ${(error as Error).message}`);
  }
  const claims = new Set<string>();
  check(ast, claims);
  return { ast, claims: [...claims] };
}

/**
 * The claim a member expression reads, as a path: `visitor.claims.plan` → ["plan"],
 * `visitor.claims.unsigned["beta"]` → ["unsigned", "beta"]; undefined for anything else.
 */
function claimPath(node: Node): string[] | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  const { object, property, computed } = node as jsep.MemberExpression;
  let key: string | undefined;
  if (!computed && property.type === 'Identifier') key = (property as jsep.Identifier).name;
  else if (computed && property.type === 'Literal' && typeof (property as jsep.Literal).value === 'string') {
    key = (property as jsep.Literal).value as string;
  }
  if (key === undefined) return undefined;
  if (object.type === 'Identifier') return undefined;
  const parent = object as jsep.MemberExpression;
  if (parent.type === 'MemberExpression' && !parent.computed && parent.object.type === 'Identifier') {
    const root = (parent.object as jsep.Identifier).name;
    const section = (parent.property as jsep.Identifier).name;
    if (root === 'visitor' && section === 'claims') return [key];
  }
  const prefix = claimPath(object);
  return prefix ? [...prefix, key] : undefined;
}

function check(node: Node, claims: Set<string>): void {
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      throw new ConditionError(`unknown name "${(node as jsep.Identifier).name}": read visitor attributes as visitor.claims.<name>`);
    case 'MemberExpression': {
      const path = claimPath(node);
      if (path === undefined) throw new ConditionError('only visitor.claims.<name> can be read');
      claims.add(path[0]!);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!UNARY.has(unary.operator)) throw new ConditionError(`operator "${unary.operator}" is not allowed`);
      check(unary.argument, claims);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY.has(binary.operator)) throw new ConditionError(`operator "${binary.operator}" is not allowed`);
      check(binary.left, claims);
      check(binary.right, claims);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      check(conditional.test, claims);
      check(conditional.consequent, claims);
      check(conditional.alternate, claims);
      return;
    }
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) if (element) check(element, claims);
      return;
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      const method = callee.type === 'MemberExpression' && !callee.computed ? (callee.property as jsep.Identifier).name : '';
      if (!METHODS.has(method) || call.arguments.length !== 1) {
        throw new ConditionError('only .includes(x), .startsWith(x) and .endsWith(x) can be called');
      }
      check(callee.object, claims);
      check(call.arguments[0]!, claims);
      return;
    }
    case 'Compound':
      throw new ConditionError('a condition is a single expression');
    default:
      throw new ConditionError(`${node.type} is not allowed in a condition`);
  }
}

function evaluate(node: Node, claims: Claims): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'MemberExpression': {
      let value: unknown = claims;
      for (const key of claimPath(node)!) {
        value = value && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Claims)[key] : undefined;
      }
      return value;
    }
    case 'UnaryExpression': {
      const { operator, argument } = node as jsep.UnaryExpression;
      const value = evaluate(argument, claims);
      return operator === '!' ? !value : operator === '-' ? -Number(value) : Number(value);
    }
    case 'BinaryExpression': {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (operator === '&&') return evaluate(left, claims) && evaluate(right, claims);
      if (operator === '||') return evaluate(left, claims) || evaluate(right, claims);
      const a = evaluate(left, claims) as never;
      const b = evaluate(right, claims) as never;
      switch (operator) {
        case '==':
        case '===':
          return a === b;
        case '!=':
        case '!==':
          return a !== b;
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        case '>=':
          return a >= b;
        case '+':
          return (a as number) + (b as number);
        case '-':
          return (a as number) - (b as number);
        case '*':
          return (a as number) * (b as number);
        case '/':
          return (a as number) / (b as number);
        default:
          return (a as number) % (b as number);
      }
    }
    case 'ConditionalExpression': {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression;
      return evaluate(test, claims) ? evaluate(consequent, claims) : evaluate(alternate, claims);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => (element ? evaluate(element, claims) : undefined));
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      const target = evaluate(callee.object, claims);
      const argument = evaluate(call.arguments[0]!, claims);
      const method = (callee.property as jsep.Identifier).name;
      if (method === 'includes') {
        return Array.isArray(target) || typeof target === 'string' ? target.includes(argument as never) : false;
      }
      if (typeof target !== 'string' || typeof argument !== 'string') return false;
      return method === 'startsWith' ? target.startsWith(argument) : target.endsWith(argument);
    }
    default:
      return false;
  }
}

/** Whether the condition holds for these claims; an absent condition always holds. */
/** Conditions already parsed, by their text: a published tree evaluates the same few for every entry and page. */
const parsedConditions = new LRUCache<string, ParsedCondition>({ max: 1_000 });

export function conditionHolds(condition: ParsedCondition | string | null | undefined, claims: Claims): boolean {
  if (condition == null) return true;
  try {
    let parsed = typeof condition === 'string' ? parsedConditions.get(condition) : condition;
    if (!parsed) {
      parsed = parseCondition(condition as string);
      parsedConditions.set(condition as string, parsed);
    }
    return Boolean(evaluate(parsed.ast, claims));
  } catch {
    return false;
  }
}
