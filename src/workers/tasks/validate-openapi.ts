/**
 * An OpenAPI or Swagger document validated with @readme/openapi-parser (spec
 * processing, src/domain/openapi/processing.ts). Dereferencing and schema
 * validation take about half a second of CPU for docs-gateway's own API, in one
 * synchronous stretch, and the validator with its schemas about 25 MB: on a
 * worker they neither stall the server's requests nor stay in its memory.
 */

export interface ValidateOpenApiInput {
  /** The parsed document (validation dereferences it in place: the task has its own copy). */
  value: object;
  /** The validator's own bound. */
  timeoutMs: number;
}

export type ValidateOpenApiOutput =
  | { valid: true }
  | { valid: false; errors: Array<{ message: string }>; additionalErrors: number }
  /** The validator threw (a reference it cannot resolve, say): its message. */
  | { valid: false; failure: string };

export async function validateOpenApi({ value, timeoutMs }: ValidateOpenApiInput): Promise<ValidateOpenApiOutput> {
  const { validate } = await import('@readme/openapi-parser');
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    // External references stay unresolved (nothing else is fetched).
    result = await validate(value as never, { resolve: { external: false, file: false }, timeoutMs });
  } catch (error) {
    return { valid: false, failure: (error as Error).message };
  }
  if (result.valid) return { valid: true };
  return { valid: false, errors: result.errors.map((error) => ({ message: error.message })), additionalErrors: result.additionalErrors };
}
