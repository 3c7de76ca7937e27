/**
 * Domain errors: every failure a client can cause is one of these, with the HTTP
 * status both contracts report (REST in the body, GraphQL in `extensions.code`).
 * Anything else that is thrown is a bug and is reported as a masked 500.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 412 | 429 | 503;

export class DomainError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError(400, message);
export const unauthenticated = (message = 'A valid API token is required: send "Authorization: Bearer <token>"') => new DomainError(401, message);
export const forbidden = (message: string) => new DomainError(403, message);
export const notFound = (what: string, id: string) => new DomainError(404, `${what} "${id}" was not found`);
export const conflict = (message: string) => new DomainError(409, message);
/** The server cannot do it now (busy, or a dependency down); the client may try again later. */
export const unavailable = (message: string) => new DomainError(503, message);
/**
 * The client sends or holds more than it may (requests a minute, open subscriptions): a 429 with
 * `Retry-After`, the seconds after which trying again may succeed.
 */
export class TooManyRequests extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
    this.name = 'TooManyRequests';
  }
}

/** Something the client holds was ended for lack of use (an idle subscription): it may ask again. */
export const idleTimeout = (message: string) => new DomainError(408, message);

/** A job a request waited for did not end in time (a 503); it may still be running, and end later. */
export class JobTimedOut extends DomainError {
  constructor(message: string) {
    super(503, message);
    this.name = 'JobTimedOut';
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** For batch loads: a resource the viewer cannot see becomes null; other errors stay errors. */
export async function nullIfHidden<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof DomainError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}
