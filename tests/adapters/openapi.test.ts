// GET /api/openapi.json: a well-formed OpenAPI 3.1 document, served without a key, that names every
// REST route the server answers (probed over HTTP: each method × path the server routes must be in the
// document, and each documented operation must be routed), with request schemas that are the ones the
// handlers validate with (a documented body passes; a violation of a documented rule is a 400).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createFetchHandler } from '../../adapters/edge.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createDatabase, migrate } from '../../db/index.ts';

const BASE = 'http://localhost:8787';
const database = createDatabase({ url: ':memory:' });
let handler: (r: Request) => Promise<Response>;
let key: string;
let doc: any;

beforeAll(async () => {
  await migrate(database.db);
  const caller = await ensureCaller({ db: database.db, now: Date.now }, 'alice');
  key = (await createApiKey(database.db, caller.id, Date.now())).key;
  handler = createFetchHandler({ env: { BINDERY_PUBLIC_URL: BASE }, database: () => database.db });
});
afterAll(() => database.close());

const call = (method: string, path: string, body?: unknown, auth = true) =>
  handler(
    new Request(`${BASE}${path}`, {
      method,
      headers: {
        ...(auth ? { Authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

describe('OpenAPI document', () => {
  test('is served without a key, as OpenAPI 3.1 JSON', async () => {
    const r = await call('GET', '/api/openapi.json', undefined, false);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    doc = await r.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(doc.components.securitySchemes.bearerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('every operation is well formed: parameters, bodies, responses, resolvable $refs', () => {
    const refs: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' ? refs.push(x as string) : walk(x);
    };
    walk(doc);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce((o: any, k) => o?.[k], doc);
      expect(target).toBeDefined();
    }
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path.startsWith('/api/')).toBe(true);
      for (const [method, op] of Object.entries<any>(item)) {
        expect(['get', 'post', 'patch', 'delete']).toContain(method);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(op.summary.length).toBeGreaterThan(5);
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(pathParams).toEqual(templated);
        for (const p of op.parameters ?? []) {
          expect(['query', 'path']).toContain(p.in);
          expect(typeof p.schema).toBe('object');
          if (p.in === 'path') expect(p.required).toBe(true);
        }
        if (op.requestBody) expect(op.requestBody.content['application/json'].schema.type).toBe('object');
        const codes = Object.keys(op.responses);
        expect(codes.some((c) => c.startsWith('2'))).toBe(true);
        for (const c of codes) expect(op.responses[c].description).toBeTruthy();
        if (op.security === undefined) expect(codes).toContain('401');
      }
    }
  });

  test('every route the server answers is in the document, and every documented route is answered', async () => {
    const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
    const samples: Record<string, string> = {
      '/api/bindings': '/api/bindings',
      '/api/bindings/{id}': '/api/bindings/bnd_0000000000000000',
      '/api/sets': '/api/sets',
      '/api/sets/{id}': '/api/sets/set_0000000000000000',
      '/api/me': '/api/me',
      '/api/openapi.json': '/api/openapi.json',
      '/api/spaces': '/api/spaces',
      '/api/bindings/{id}/versions': '/api/bindings/bnd_0000000000000000/versions',
      '/api': '/api',
    };
    const served: string[] = [];
    for (const [template, path] of Object.entries(samples)) {
      for (const method of methods) {
        const r = await call(method, path, method === 'POST' || method === 'PATCH' || method === 'PUT' ? {} : undefined);
        const body = (await r.json().catch(() => ({}))) as { error?: { code: string; message: string } };
        const unrouted = r.status === 405 || (r.status === 404 && /^no route /.test(body.error?.message ?? ''));
        if (!unrouted) served.push(`${method} ${template}`);
      }
    }
    const documented = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served.sort()).toEqual(documented.sort());
  });

  test('the documented request schemas are the validated ones', async () => {
    const create = doc.paths['/api/bindings'].post.requestBody.content['application/json'].schema;
    expect(create.required.sort()).toEqual(['content', 'name', 'summary']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.summary.maxLength).toBe(600);
    const made = await call('POST', '/api/bindings', { name: 'Doc', content: 'Body.', summary: 'S.' });
    expect(made.status).toBe(201);
    const tooLong = await call('POST', '/api/bindings', { name: 'Doc', content: 'Body.', summary: 'x'.repeat(601) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as any).error).toMatchObject({ code: 'INVALID_INPUT', field: 'summary' });
    const extra = await call('POST', '/api/bindings', { name: 'Doc', content: 'Body.', summary: 'S.', colour: 'red' });
    expect(extra.status).toBe(400);
    const update = doc.paths['/api/bindings/{id}'].patch.requestBody.content['application/json'].schema;
    expect(Object.keys(update.properties).sort()).toEqual(['content', 'expectedVersion', 'keyPoints', 'name', 'summary']);
    const list = doc.paths['/api/bindings'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(['q', 'space', 'tier', 'limit', 'maxTokens', 'cursor']);
    expect(list.responses['200'].content['application/json'].schema.oneOf).toHaveLength(2);
  });
});

describe('REST paths', () => {
  // Trailing slashes are trimmed in one pass: /\/+$/ re-read a run of slashes from each slash when the
  // run did not end the path (64,000 slashes took 3 s of the server's time per request).
  test('a path ending in 300,000 slashes is the path without them', async () => {
    const plain = await call('GET', '/api/me');
    expect(plain.status).toBe(200);
    const slashes = await call('GET', `/api/me${'/'.repeat(300_000)}`);
    expect(slashes.status).toBe(200);
    expect(await slashes.json()).toEqual(await plain.json());
  });

  test('a run of 300,000 slashes inside a path is answered at once, as an unknown route', async () => {
    expect((await call('GET', `/api/me${'/'.repeat(300_000)}x`)).status).toBe(404);
  });
});
