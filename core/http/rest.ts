import { z } from 'zod';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { tierObject, type Tier } from '../budget/tier.ts';
import { HUMAN, type BinderyDeps, type Caller } from '../context.ts';
import { createBinding, deleteBinding, updateBinding, type CoreDeps } from '../services/bindings.ts';
import { errorResponse, json } from './responses.ts';
import { handleSets } from './rest-sets.ts';
import { restContext } from './rest-tools.ts';
import { callTool } from '../tools/call.ts';
import { TOOLS } from '../tools/registry.ts';
import { parseInput } from './validate.ts';
import {
  bindingCreateBody as createInput,
  bindingListQuery as listQuery,
  bindingReadQuery as readQuery,
  bindingUpdateBody as updateInput,
} from './rest-schemas.ts';

/** search_bindings pages at most this many hits; a larger REST limit is read as this (the cursor goes on). */
const SEARCH_LIMIT = 50;

const parse = parseInput;

function view(row: BindingVersionRow, tier: Tier, deps: CoreDeps) {
  return tierObject(row, tier, deps.config.publicUrl, tier === '2' ? row.content : undefined);
}

/** GET /api/bindings: list_bindings, or search_bindings with `q`: the tools' pages, caps and cursors. */
function list(deps: BinderyDeps, caller: Caller, query: z.output<typeof listQuery>) {
  const ctx = restContext(deps, caller);
  const { q, limit, tier, ...rest } = query;
  // The tier as the query sent it: the tool's own schema checks it and names the field.
  const args = { ...rest, tier: tier as Tier | undefined };
  if (q === undefined) return callTool(ctx, TOOLS.list_bindings, { ...args, limit: limit ?? 20 });
  return callTool(ctx, TOOLS.search_bindings, { ...args, query: q, limit: Math.min(limit ?? 20, SEARCH_LIMIT) });
}

/** A path without its trailing slashes, trimmed from the end (/\/+$/ re-read a run of slashes from each of them). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/**
 * `/api/…` for people and scripts: bindings (list, search with `q`, create, read at a tier, update,
 * delete), sets (list, create, read) and `/api/me`. Errors are the core's typed errors as HTTP statuses.
 */
export async function handleRest(deps: BinderyDeps, caller: Caller, request: Request, url: URL, body: unknown): Promise<Response> {
  const core: CoreDeps = deps;
  const parts = withoutTrailingSlashes(url.pathname).split('/').slice(2);
  const query = Object.fromEntries(url.searchParams);
  const method = request.method;
  try {
    if (parts[0] === 'me' && parts.length === 1 && method === 'GET') return json({ id: caller.id, handle: caller.handle });
    if (parts[0] === 'sets' && parts.length <= 2) return await handleSets(deps, caller, method, parts[1], query, body);
    if (parts[0] !== 'bindings' || parts.length > 2)
      return json({ error: { code: 'NOT_FOUND', message: `no route ${method} ${url.pathname}` } }, 404);
    const id = parts[1];
    if (!id && method === 'GET') return json(await list(deps, caller, parse(listQuery, query)));
    if (!id && method === 'POST') {
      const input = parse(createInput, body);
      await deps.tokens.load();
      return json({ binding: view(await createBinding(core, caller, input, HUMAN), '1', core) }, 201);
    }
    if (id && method === 'GET') {
      const read = parse(readQuery, query);
      return json(await callTool(restContext(deps, caller), TOOLS.get_binding, { id, ...read, tier: read.tier as Tier | undefined }));
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
