import fc from 'fast-check';
import { ID_PREFIXES } from '../../src/lib/ids.ts';
import type { Fixtures, Kind } from './fixtures.ts';

/**
 * Values the fuzzers send, shared by REST and GraphQL. Some are placeholders
 * resolved when the request is sent, so that a case stays small to print and
 * to shrink, and refers to the fixtures alive at that moment (a fuzzed request
 * may have deleted the space a case was generated for: the fixtures are rebuilt
 * between batches):
 * - `Ref`: a real id of a fixture of a kind (own: the caller's organization; foreign: one it is not a member of);
 * - `Huge`: a string of `size` repetitions of a character;
 * - `Deep`: JSON nested `depth` levels deep (written as text: no stack is spent building it);
 * - `RawJson`: JSON text as is (numbers JSON.stringify cannot write: 1e400, -0, 30 digits);
 * - `PageToken`: a real page token of a listing, as is or tampered with.
 */

export class Ref {
  constructor(
    readonly kind: Kind,
    readonly pick: number,
    readonly scope: 'own' | 'foreign' = 'own',
  ) {}
  [fc.toStringMethod]() {
    return `Ref(${this.kind}#${this.pick}${this.scope === 'foreign' ? ', foreign' : ''})`;
  }
}

export class Huge {
  constructor(
    readonly size: number,
    readonly char = 'x',
  ) {}
  text() {
    return this.char.repeat(this.size);
  }
  [fc.toStringMethod]() {
    return `Huge(${this.size} × ${JSON.stringify(this.char)})`;
  }
}

export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
  ) {}
  text() {
    return this.shape === 'array' ? `${'['.repeat(this.depth)}1${']'.repeat(this.depth)}` : `${'{"a":'.repeat(this.depth)}1${'}'.repeat(this.depth)}`;
  }
  [fc.toStringMethod]() {
    return `Deep(${this.depth} ${this.shape})`;
  }
}

export class RawJson {
  constructor(readonly text: string) {}
  [fc.toStringMethod]() {
    return `RawJson(${this.text})`;
  }
}

export type TokenTamper =
  | { mode: 'valid' }
  | { mode: 'flip'; at: number; bit: number }
  | { mode: 'truncate'; at: number }
  | { mode: 'replace'; at: number; value: unknown }
  | { mode: 'rename'; name: string }
  | { mode: 'extend'; value: unknown };

export class PageToken {
  constructor(
    /** Which listing's token: the operation's own, or another one (a token of another listing). */
    readonly listing: string | undefined,
    readonly pick: number,
    readonly tamper: TokenTamper,
  ) {}
  [fc.toStringMethod]() {
    return `PageToken(${this.listing ?? 'any'}#${this.pick}, ${fc.stringify(this.tamper)})`;
  }
}

// ---------------------------------------------------------------- resolution

/** A well-formed id nobody has. */
export const missingId = (kind: Kind) => `${kindPrefix(kind)}_000000000000000000`;

function kindPrefix(kind: Kind): string {
  return (ID_PREFIXES as Record<string, string>)[kind] ?? kind;
}

export function resolveRef(ref: Ref, fixtures: Fixtures): string {
  const pool = (ref.scope === 'own' ? fixtures.own : fixtures.foreign)[ref.kind] ?? [];
  return pool.length ? pool[ref.pick % pool.length]! : missingId(ref.kind);
}

export function resolveToken(token: PageToken, fixtures: Fixtures): string {
  const own = token.listing ? fixtures.pageTokens[token.listing] : undefined;
  const pool = own?.length ? own : Object.values(fixtures.pageTokens).flat();
  if (!pool.length) return 'WyJ4Il0';
  const real = pool[token.pick % pool.length]!;
  const tamper = token.tamper;
  switch (tamper.mode) {
    case 'valid':
      return real;
    case 'flip': {
      const bytes = Buffer.from(real, 'base64url');
      const at = tamper.at % bytes.length;
      bytes[at] = bytes[at]! ^ (1 << (tamper.bit % 8));
      return bytes.toString('base64url');
    }
    case 'truncate':
      return real.slice(0, tamper.at % real.length);
    default: {
      // The token's JSON (an array: the listing's name, then sort values or an offset) with one part changed.
      let decoded: unknown[];
      try {
        decoded = JSON.parse(Buffer.from(real, 'base64url').toString('utf8'));
        if (!Array.isArray(decoded)) return real;
      } catch {
        return real;
      }
      // Placeholders stay in: jsonText writes them (a Deep one as text, without a stack to build it).
      if (tamper.mode === 'rename') decoded[0] = tamper.name;
      else if (tamper.mode === 'extend') decoded.push(tamper.value);
      else decoded[1 + (tamper.at % Math.max(1, decoded.length - 1))] = tamper.value;
      return Buffer.from(jsonText(decoded, fixtures)).toString('base64url');
    }
  }
}

/** A generated value with its placeholders replaced (Deep and RawJson are only meaningful as JSON text: see jsonText). */
export function resolveValue(value: unknown, fixtures: Fixtures): unknown {
  if (value instanceof Ref) return resolveRef(value, fixtures);
  if (value instanceof Huge) return value.text();
  if (value instanceof PageToken) return resolveToken(value, fixtures);
  if (value instanceof Deep || value instanceof RawJson) return JSON.parse(jsonText(value, fixtures));
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, fixtures));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveValue(item, fixtures)]));
  return value;
}

/** A string for a path or query value. */
export function resolveText(value: unknown, fixtures: Fixtures): string {
  if (value instanceof Deep || value instanceof RawJson) return jsonText(value, fixtures);
  const resolved = resolveValue(value, fixtures);
  return typeof resolved === 'string' ? resolved : (JSON.stringify(resolved) ?? String(resolved));
}

/** JSON text of a generated value, placeholders included. */
export function jsonText(value: unknown, fixtures: Fixtures): string {
  if (value instanceof Ref || value instanceof Huge || value instanceof PageToken) return JSON.stringify(resolveValue(value, fixtures));
  if (value instanceof Deep) return value.text();
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : jsonText(item, fixtures))).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item, fixtures)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A URL path segment or query value, percent-encoded as UTF-8; a lone
 * surrogate (which UTF-8 cannot encode, and encodeURIComponent refuses) as the
 * bytes WTF-8 gives it, as a careless client would send it.
 */
export function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    let out = '';
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
      } else out += encodeURIComponent(char);
    }
    return out;
  }
}

// ---------------------------------------------------------------- arbitraries

export const KINDS: Kind[] = [
  'organization',
  'user',
  'collection',
  'space',
  'changeRequest',
  'page',
  'pagePath',
  'file',
  'revision',
  'customField',
  'site',
  'siteSection',
  'siteSectionGroup',
  'siteSpace',
  'shareLink',
  'team',
  'emailDomain',
];

/** A real id of a kind; mostly the first of its pool, so that the ids of one request belong together (the first space's change request…). */
export const refOf = (kind: Kind, scope: 'own' | 'foreign' = 'own') =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 15 }) }).map((pick) => new Ref(kind, pick, scope));

/** A character a string may hold, lone surrogates and NUL included now and then. */
const hostileChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u200b',
      '\u2028',
      '\u202e',
      '\ufeff',
      '\uffff',
      '\u0301',
      '/',
      '\\',
      '%',
      '?',
      '#',
      '.',
      '"',
      "'",
      ' ',
    ),
  },
);

const edgeStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\udfff\ud800',
  '\ud83d',
  '..',
  '.',
  '../',
  '../../etc/passwd',
  '..%2F..%2F',
  '%00',
  '%',
  '%zz',
  '\\',
  '/',
  '//',
  '?',
  '#',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  '<script>alert(1)</script>',
  "'; DROP TABLE spaces; --",
  '" OR 1=1 --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, sent as it is
  '${jndi:ldap://x}',
  '{{7*7}}',
  '\r\n\t',
  '\u202eevil',
  '\ufeffbom',
  '𝕏𝕐ℤ',
  '👨‍👩‍👧‍👦',
  'e\u0301'.repeat(40),
  '\u0000'.repeat(10),
  'spc_',
  '_',
  'org_../x',
  'spc_%00',
  'ＡＢＣ',
  'İı',
  'ß',
  'a'.repeat(100),
  'a'.repeat(101),
  'a'.repeat(201),
];

/** Strings that break things: the edge list, random text with hostile characters, and very long ones. */
export const hostileString: fc.Arbitrary<string | Huge> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...edgeStrings) },
  { weight: 4, arbitrary: fc.string({ unit: hostileChar, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...KINDS).chain((kind) => fc.string({ unit: 'binary-ascii', maxLength: 20 }).map((tail) => `${kindPrefix(kind)}_${tail}`)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(new Huge(257), new Huge(1025), new Huge(5000, 'é'), new Huge(70_000), new Huge(10_000, '\u0000'), new Huge(3000, '😀')),
  },
);

/** The huge payloads: just under Fastify's 1 MiB body limit, and over it. */
export const hugeString = fc.constantFrom(new Huge(1_000_000), new Huge(1_100_000), new Huge(300_000, '€'));

export const oddNumbers = fc.constantFrom<unknown>(
  -1,
  0,
  1.5,
  -0.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  Number.MIN_VALUE,
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('1e-400'),
  new RawJson('-0'),
  new RawJson('123456789012345678901234567890'),
);

/** Any value where another was expected. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, '', [], {}, [null], { '': null }) },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: oddNumbers },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(new Deep(65, 'object'), new Deep(64, 'array'), new Deep(2000, 'array'), new Deep(20_000, 'object')) },
  { weight: 1, arbitrary: fc.constantFrom(...KINDS).chain((kind) => refOf(kind)) },
  { weight: 1, arbitrary: fc.array(fc.constant('x'), { minLength: 1000, maxLength: 1000 }) },
);

/** A page token: real, tampered with (bits, length, its decoded parts), another listing's, or made up. */
export function pageTokenArb(listing: string | undefined): fc.Arbitrary<unknown> {
  const tamper: fc.Arbitrary<TokenTamper> = fc.oneof(
    { weight: 3, arbitrary: fc.constant<TokenTamper>({ mode: 'valid' }) },
    { weight: 2, arbitrary: fc.record({ mode: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }) },
    { weight: 1, arbitrary: fc.record({ mode: fc.constant('truncate' as const), at: fc.nat() }) },
    {
      weight: 6,
      arbitrary: fc.record({
        mode: fc.constant('replace' as const),
        at: fc.nat(),
        value: fc.oneof(
          { weight: 1, arbitrary: hostileJson },
          // Sort values of the right type that no row can have.
          {
            weight: 2,
            arbitrary: fc.constantFrom<unknown>(
              { d: 'not a date' },
              { d: '-271821-04-20T00:00:00.000Z' },
              { d: '+275760-09-13T00:00:00.000Z' },
              { d: '0000-01-01T00:00:00.000Z' },
              { d: '-004713-01-01T00:00:00.000Z' },
              { d: '9999-12-31T23:59:59.999Z' },
              { d: '1970-01-01T00:00:00.000Z' },
              { d: 12 },
              { d: '\u0000' },
              '\u0000',
              '\ud800',
              'a\u0000',
              -1,
              2 ** 53 + 2,
              1e308,
              1.5,
            ),
          },
          { weight: 1, arbitrary: hostileString.map((text) => (typeof text === 'string' ? text : text.text().slice(0, 1000))) },
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        mode: fc.constant('rename' as const),
        name: fc.oneof(
          fc.constantFrom('', 'x', 'spaces:title:asc'),
          hostileString.filter((s): s is string => typeof s === 'string'),
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ mode: fc.constant('extend' as const), value: hostileJson }) },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.nat(), tamper).map(([pick, t]) => new PageToken(listing, pick, t)) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(), tamper).map(([pick, t]) => new PageToken(undefined, pick, t)) },
    { weight: 1, arbitrary: fc.base64String({ maxLength: 120 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url')) },
    { weight: 1, arbitrary: hostileString },
  );
}
