import { z } from 'zod';
import { listBindingRows, ftsQuery, searchBindingRows } from '../../db/store/search';
import type { BindingVersionRow } from '../../db/store/bindings';
import { tierObject, type Tier } from '../budget/tier';
import type { BinderyDeps, Caller, Provenance } from '../context';
import { paginate, readCursor } from '../cursor';
import { fail } from '../errors';
import { createBinding, deleteBinding, readBinding, resolveSpace, updateBinding, type CoreDeps } from '../services/bindings';
import { content, keyPoints, name, spaceRef, summary, tierSchema } from '../tools/schema';
import { errorResponse, json } from './responses';
import { handleSets } from './rest-sets';
import { parseInput } from './validate';

/** REST writes are made by people and scripts (CONTRACT §3). */
const HUMAN: Provenance = { source: 'human', model: null };

const createInput = z.strictObject({ space: spaceRef().optional(), name: name(), content: content(), summary: summary(), keyPoints: keyPoints().optional() });
const updateInput = z.strictObject({
  name: name().optional(),
  content: content().optional(),
  summary: summary().optional(),
  keyPoints: keyPoints().optional(),
  expectedVersion: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
});
const listQuery = z.strictObject({
  q: z.string().trim().min(1).max(500).optional(),
  space: spaceRef().optional(),
  tier: tierSchema.default('1'),
  limit: z.coerce.number().int().min(1, { message: 'must be from 1 to 100' }).max(100, { message: 'must be from 1 to 100' }).default(20),
  cursor: z.string().max(2000).optional(),
});
const readQuery = z.strictObject({ tier: tierSchema.default('1'), version: z.coerce.number().int().min(1).optional() });

const parse = parseInput;

function view(row: BindingVersionRow, tier: Tier, deps: CoreDeps) {
  return tierObject(row, tier, deps.config.publicUrl, tier === '2' ? row.content : undefined);
}

async function withContent(deps: CoreDeps, caller: Caller, rows: BindingVersionRow[], tier: Tier): Promise<BindingVersionRow[]> {
  if (tier !== '2') return rows;
  return Promise.all(rows.map((r) => readBinding(deps, caller, r.bindingId, { withContent: true })));
}

async function list(deps: CoreDeps, caller: Caller, query: z.output<typeof listQuery>) {
  const space = query.space ? await resolveSpace(deps, caller, query.space) : query.q ? undefined : await resolveSpace(deps, caller);
  const scope = `rest:${query.q ?? ''}:${space?.id ?? '*'}:${query.limit}`;
  const offset = await readCursor(deps.db, query.cursor, scope);
  const opts = { userId: caller.id, spaceId: space?.id, offset, limit: query.limit };
  let found: { rows: BindingVersionRow[]; total: number };
  if (query.q) {
    const match = ftsQuery(query.q);
    if (!match) throw fail.invalid('q', 'must contain at least one letter or digit');
    found = await searchBindingRows(deps.db, match, opts);
  } else found = await listBindingRows(deps.db, opts);
  const rows = await withContent(deps, caller, found.rows, query.tier);
  return { results: rows.map((r) => view(r, query.tier, deps)), pagination: await paginate(deps.db, scope, offset, rows.length, found.total) };
}

/**
 * `/api/…` for people and scripts: bindings (list, search with `q`, create, read at a tier, update,
 * delete), sets (list, create, read) and `/api/me`. Errors are the core's typed errors as HTTP statuses.
 */
export async function handleRest(deps: BinderyDeps, caller: Caller, request: Request, url: URL, body: unknown): Promise<Response> {
  const core: CoreDeps = { ...deps, now: deps.clock ?? (() => Date.now()) };
  const parts = url.pathname.replace(/\/+$/, '').split('/').slice(2);
  const query = Object.fromEntries(url.searchParams);
  const method = request.method;
  try {
    if (parts[0] === 'me' && parts.length === 1 && method === 'GET') return json({ id: caller.id, handle: caller.handle });
    if (parts[0] === 'sets' && parts.length <= 2) return await handleSets(core, caller, method, parts[1], query, body);
    if (parts[0] !== 'bindings' || parts.length > 2) return json({ error: { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` } }, 404);
    const id = parts[1];
    if (!id && method === 'GET') return json(await list(core, caller, parse(listQuery, query)));
    if (!id && method === 'POST') {
      const input = parse(createInput, body);
      await deps.tokens.load();
      return json({ binding: view(await createBinding(core, caller, input, HUMAN), '1', core) }, 201);
    }
    if (id && method === 'GET') {
      const q = parse(readQuery, query);
      const row = await readBinding(core, caller, id, { version: q.version, withContent: q.tier === '2' });
      return json({ binding: view(row, q.tier, core) });
    }
    if (id && method === 'PATCH') {
      const input = parse(updateInput, body);
      await deps.tokens.load();
      const { row, changed } = await updateBinding(core, caller, id, input, HUMAN);
      return json({ binding: view(row, '1', core), changed });
    }
    if (id && method === 'DELETE') {
      const row = await deleteBinding(core, caller, id);
      return json({ deleted: row.bindingId });
    }
    return json({ error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not supported on ${url.pathname}` } }, 405);
  } catch (err) {
    return errorResponse(err, deps.log?.error);
  }
}
