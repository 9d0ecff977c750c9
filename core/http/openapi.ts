// GET /api/openapi.json: an OpenAPI 3.1 document of the REST surface, generated from REST_ROUTES and
// the same zod schemas the handlers validate with (zod's JSON Schema output is draft 2020-12, the
// dialect OpenAPI 3.1 uses). Tool-backed routes answer with the tool's structured output schema.
import { z } from 'zod';
import { SERVER_VERSION } from '../server.ts';
import { createRegistry } from '../tools/registry.ts';
import { REST_ROUTES, type RestRoute } from './rest-schemas.ts';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'INVALID_INPUT: a query or body field breaks a rule (the message names the field and the rule), or the body is not JSON',
  401: 'UNAUTHORIZED: no key, or an invalid, unknown or revoked one',
  403: 'FORBIDDEN: the space is not yours',
  404: 'NOT_FOUND: no such binding, set or space, or one you may not read',
  409: 'CONFLICT: a stale expectedVersion, or a taken slug',
  413: 'TOO_LARGE: the body is over BINDERY_HTTP_MAX_BODY_BYTES, or the content over BINDERY_MAX_CONTENT_BYTES',
};

function operation(route: RestRoute, tools: ReturnType<typeof createRegistry>): Json {
  const parameters: Json[] = [];
  if (route.path.includes('{id}'))
    parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'bnd_… or set_… id' });
  if (route.query) {
    const q = schemaOf(route.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: q.required?.includes(name) ?? false,
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  const tool = route.tool ? tools.get(route.tool) : undefined;
  const okSchema: Json =
    route.path === '/api/bindings' && route.method === 'GET'
      ? { oneOf: ['list_bindings', 'search_bindings'].map((t) => schemaOf(tools.get(t)!.output as z.ZodType, 'output')) }
      : tool
        ? schemaOf(tool.output as z.ZodType, 'output')
        : { type: 'object' };
  const errors = [...new Set([...(route.query || route.body ? [400] : []), ...(route.public ? [] : [401]), ...route.errors])].sort();
  return {
    operationId: `${route.method.toLowerCase()}${route.path
      .replace(/^\/api/, '')
      .replace(/[{}]/g, '')
      .replace(/[/.](\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    ...(route.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } } : {}),
    responses: {
      [String(route.ok)]: { description: route.ok === 201 ? 'Created' : 'OK', content: { 'application/json': { schema: okSchema } } },
      ...Object.fromEntries(
        errors.map((s) => [
          String(s),
          { description: ERROR_TEXT[s] ?? 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
}

let cached: { url: string; doc: Json } | undefined;

/** The OpenAPI 3.1 document for a server whose base URL is `publicUrl` (built once per URL). */
export function openApiDocument(publicUrl: string): Json {
  if (cached?.url === publicUrl) return cached.doc;
  const tools = createRegistry();
  const paths: Record<string, Json> = {};
  for (const route of REST_ROUTES) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, tools);
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Bindery REST API',
      version: SERVER_VERSION,
      description: 'REST for people and scripts: writes are source "human". MCP is at /mcp.',
    },
    servers: [{ url: publicUrl }],
    security: [{ bearerKey: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key from `bindery keys create --user <handle>` (bdk_…)' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  type: 'string',
                  enum: [
                    'INVALID_INPUT',
                    'UNAUTHORIZED',
                    'FORBIDDEN',
                    'NOT_FOUND',
                    'CONFLICT',
                    'TOO_LARGE',
                    'METHOD_NOT_ALLOWED',
                    'INTERNAL',
                  ],
                },
                message: { type: 'string' },
                field: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
  cached = { url: publicUrl, doc };
  return doc;
}
