// The REST surface as data: each route's method, path, zod schemas for its query and body (the ones
// the handlers validate with), and what it answers. rest.ts and rest-sets.ts parse with these schemas,
// and openapi.ts documents exactly this table, so the document cannot drift from what is validated.
import { z } from 'zod';
import { bindingId, content, keyPoints, name, spaceRef, summary, text, tierSchema } from '../tools/schema.ts';

/** Query strings are text: numbers are read here, everything else is checked by the tool that answers. */
const count = z.coerce.number({ message: 'must be a number' });
const pageLimit = count.pipe(z.number().int().min(1, { message: 'must be from 1 to 100' }).max(100, { message: 'must be from 1 to 100' }));

export const bindingCreateBody = z.strictObject({
  space: spaceRef().optional(),
  name: name(),
  content: content(),
  summary: summary(),
  keyPoints: keyPoints().optional(),
});
export const bindingUpdateBody = z.strictObject({
  name: name().optional(),
  content: content().optional(),
  summary: summary().optional(),
  keyPoints: keyPoints().optional(),
  expectedVersion: z
    .number()
    .int()
    .min(1, { message: 'must be 1 or more' })
    .optional()
    .describe('the version you read; a stale one is a 409, never a lost update'),
});
export const bindingListQuery = z.strictObject({
  q: z.string().optional().describe('search words: the answer is search_bindings; without q, list_bindings'),
  space: z
    .string()
    .optional()
    .describe('space id, slug or @slug (default: your personal space for lists, every readable space for search)'),
  tier: z.string().optional().describe('"1", "1.5" or "2"'),
  limit: count.optional().describe('page size (default 20; search pages at most 50)'),
  maxTokens: count.optional().describe('token budget for the answer'),
  cursor: z.string().optional().describe('pagination.nextCursor of the previous page'),
});
export const bindingReadQuery = z.strictObject({
  tier: z.string().optional().describe('"1", "1.5" or "2"'),
  version: count.optional().describe('a version number (default: the current one)'),
  cursor: z.string().optional().describe('next page of a long tier-2 content'),
});
export const setListQuery = z.strictObject({ space: z.string().optional(), limit: count.optional(), cursor: z.string().optional() });
export const setReadQuery = z.strictObject({
  tier: tierSchema.default('1'),
  limit: pageLimit.default(20),
  cursor: z.string().optional(),
  maxTokens: count.optional(),
});
export const setCreateBody = z.strictObject({
  name: name(),
  description: text().trim().max(600, { message: 'must be at most 600 characters' }).optional(),
  space: spaceRef().optional(),
  bindingIds: z.array(bindingId()).optional(),
});

export interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path template. */
  path: string;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success status. */
  ok: 200 | 201;
  /** The MCP tool whose structured output this route answers with, when it is one. */
  tool?: string;
  /** Error statuses this route can answer besides 401 (every route) and 400 (any query or body). */
  errors: number[];
  /** Reachable without a key. */
  public?: boolean;
}

export const REST_ROUTES: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/bindings',
    summary: 'List bindings (list_bindings), or search them with q (search_bindings)',
    query: bindingListQuery,
    ok: 200,
    tool: 'search_bindings',
    errors: [404],
  },
  {
    method: 'POST',
    path: '/api/bindings',
    summary: 'Create a binding (source "human"); answers its tier-1 card',
    body: bindingCreateBody,
    ok: 201,
    errors: [403, 404, 409, 413],
  },
  {
    method: 'GET',
    path: '/api/bindings/{id}',
    summary: 'Read a binding at a tier (get_binding)',
    query: bindingReadQuery,
    ok: 200,
    tool: 'get_binding',
    errors: [404],
  },
  {
    method: 'PATCH',
    path: '/api/bindings/{id}',
    summary: 'Update a binding: a new version (source "human"); a stale expectedVersion is 409',
    body: bindingUpdateBody,
    ok: 200,
    errors: [403, 404, 409, 413],
  },
  { method: 'DELETE', path: '/api/bindings/{id}', summary: 'Delete a binding (its versions are kept)', ok: 200, errors: [403, 404] },
  { method: 'GET', path: '/api/sets', summary: 'List sets (list_sets)', query: setListQuery, ok: 200, errors: [404] },
  { method: 'POST', path: '/api/sets', summary: 'Create a set', body: setCreateBody, ok: 201, errors: [403, 404, 409] },
  {
    method: 'GET',
    path: '/api/sets/{id}',
    summary: "A set's items at a tier, paged under the response cap",
    query: setReadQuery,
    ok: 200,
    errors: [404],
  },
  { method: 'GET', path: '/api/me', summary: 'The user the key acts as', ok: 200, errors: [] },
  { method: 'GET', path: '/api/openapi.json', summary: 'This document', ok: 200, errors: [], public: true },
];
