import type * as Api from '@gitbook/api';

/**
 * The official client types (@gitbook/api) declare enumerations as TypeScript
 * enums; our presenters write plain JSON strings. `Wire<T>` is T with every enum
 * replaced by the union of its string values, so presenters are still checked
 * against the official response schemas at compile time.
 */
export type Wire<T> = T extends string ? `${T}` : T extends Array<infer Item> ? Array<Wire<Item>> : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;

export type { Api };
