// The parts of our OpenAPI document (GET /v1/openapi.json) the fuzzer reads.

export type JsonSchema = Record<string, any>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  parameters: OpenApiParameter[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** The schemas request bodies reference (`$ref`), the structured document's among them. */
  components?: { schemas?: Record<string, JsonSchema> };
}
