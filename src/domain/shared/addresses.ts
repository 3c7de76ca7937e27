import type { PublicUrls } from '../../config.ts';

/**
 * The addresses of an object (REST and GraphQL `urls`) as data: the server's
 * public bases, fixed text and the row's columns. One definition serves both
 * ways of reading: the presenters render it here, compiled reads write it as
 * SQL (src/graphql/compiled/addresses.ts), so an address is defined once.
 */
export type AddressPart =
  | string
  | { base: keyof PublicUrls }
  | { column: string }
  /** `use` when the column holds a value (not null, empty or false), else `otherwise`. */
  | { if: string; use: readonly AddressPart[]; otherwise?: readonly AddressPart[] };

export type Address = readonly AddressPart[];

/** The addresses of a `urls` object; an optional one is present when its column holds a value. */
export type AddressSet = Record<string, { address: Address; when?: string }>;

const holds = (value: unknown) => value !== null && value !== undefined && value !== '' && value !== false;

export function renderAddress(address: Address, row: object, urls: PublicUrls): string {
  const values = row as Record<string, unknown>;
  let text = '';
  for (const part of address) {
    if (typeof part === 'string') text += part;
    else if ('base' in part) text += urls[part.base];
    else if ('column' in part) text += String(values[part.column]);
    else text += renderAddress(holds(values[part.if]) ? part.use : (part.otherwise ?? []), row, urls);
  }
  return text;
}

/** The `urls` object of a row: every address whose `when` column holds a value. */
export function renderAddresses<Set extends AddressSet>(set: Set, row: object, urls: PublicUrls): { [Key in keyof Set]?: string } {
  const rendered: Record<string, string> = {};
  for (const [key, { address, when }] of Object.entries(set)) {
    if (when === undefined || holds((row as Record<string, unknown>)[when])) rendered[key] = renderAddress(address, row, urls);
  }
  return rendered as { [Key in keyof Set]?: string };
}
