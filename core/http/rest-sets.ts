import type { SetWithSpace } from '../../db/store/sets.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { createSet } from '../services/sets.ts';
import { setItemsPage } from '../tools/set/set-page.ts';
import { json } from './responses.ts';
import { restContext } from './rest-tools.ts';
import { callTool } from '../tools/call.ts';
import { TOOLS } from '../tools/registry.ts';
import { parseInput } from './validate.ts';
import { setCreateBody as createInput, setListQuery as listQuery, setReadQuery as readQuery } from './rest-schemas.ts';

function setHead(s: SetWithSpace) {
  return { id: s.id, name: s.name, description: s.description, space: `@${s.spaceSlug}`, updatedAt: new Date(s.updatedAt).toISOString() };
}

/**
 * `/api/sets` (list_sets) and `/api/sets/:id` (its items at a tier, paged under the response cap
 * with a cursor, as list_bindings pages bindings), and creating a set.
 */
export async function handleSets(
  deps: BinderyDeps,
  caller: Caller,
  method: string,
  id: string | undefined,
  query: Record<string, string>,
  body: unknown,
): Promise<Response> {
  const ctx = restContext(deps, caller);
  if (!id && method === 'GET') {
    const { sets, pagination } = await callTool(ctx, TOOLS.list_sets, parseInput(listQuery, query));
    return json({ results: sets, pagination });
  }
  if (!id && method === 'POST') {
    const set = await createSet(ctx, caller, parseInput(createInput, body));
    return json({ set: setHead(set) }, 201);
  }
  if (id && method === 'GET') {
    await ensureStoredCountsOnce(ctx);
    await deps.tokens.load();
    return json(await setItemsPage({ id, ...parseInput(readQuery, query) }, ctx));
  }
  return json({ error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not supported here` } }, 405);
}
