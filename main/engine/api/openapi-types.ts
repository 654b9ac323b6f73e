/**
 * The admin API's own description (OpenAPI 3.1), as `GET /admin/api/openapi.json` serves it and the
 * console's API page reads it. Only the parts the console reads are typed; the rest is JSON Schema.
 */
export type HttpVerb = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: unknown;
  description?: string;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Partial<Record<HttpVerb, OpenApiOperation>>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}
