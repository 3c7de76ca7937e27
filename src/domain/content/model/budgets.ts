/**
 * Where reading a body moves off the event loop, and how long it may take there: shared by every
 * place that parses or writes page bodies (../bodies.ts, the Git layout), so they draw the line alike.
 */

/** Bodies this long or shorter are read and written on the event loop (a few milliseconds); longer ones on the worker pool. */
export const INLINE_BODY_CHARACTERS = 16_000;

/** A kept structure's JSON text this long or shorter is parsed on the event loop (under a millisecond); work on the pool reads longer ones there. */
export const INLINE_STRUCTURE_CHARACTERS = 64_000;

/** The most one body's parse or write may take on the worker pool unless configured (PAGE_PARSE_BUDGET_MS). */
export const DEFAULT_PARSE_BUDGET_MS = 10_000;
