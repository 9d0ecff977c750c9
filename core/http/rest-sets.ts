import { z } from 'zod';
import type { SetWithSpace } from '../../db/store/sets.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { createSet } from '../services/sets.ts';
import { bindingId, name, spaceRef, text, tierSchema } from '../tools/schema.ts';
import { setItemsPage } from '../tools/set/set-page.ts';
import { json } from './responses.ts';
import { callTool, restContext } from './rest-tools.ts';
import { parseInput } from './validate.ts';

/** Query strings are text: numbers are read here, everything else is checked by the code that answers. */
const count = z.coerce.number({ message: 'must be a number' });
const listQuery = z.strictObject({ space: z.string().optional(), limit: count.optional(), cursor: z.string().optional() });
const pageLimit = count.pipe(z.number().int().min(1, { message: 'must be from 1 to 100' }).max(100, { message: 'must be from 1 to 100' }));
const readQuery = z.strictObject({ tier: tierSchema.default('1'), limit: pageLimit.default(20), cursor: z.string().optional(), maxTokens: count.optional() });
const createInput = z.strictObject({ name: name(), description: text().trim().max(600, { message: 'must be at most 600 characters' }).optional(), space: spaceRef().optional(), bindingIds: z.array(bindingId()).optional() });

function setHead(s: SetWithSpace) {
  return { id: s.id, name: s.name, description: s.description, space: `@${s.spaceSlug}`, updatedAt: new Date(s.updatedAt).toISOString() };
}

/**
 * `/api/sets` (list_sets) and `/api/sets/:id` (its items at a tier, paged under the response cap
 * with a cursor, as list_bindings pages bindings), and creating a set.
 */
export async function handleSets(deps: BinderyDeps, caller: Caller, method: string, id: string | undefined, query: Record<string, string>, body: unknown): Promise<Response> {
  const ctx = restContext(deps, caller);
  if (!id && method === 'GET') {
    const { sets, pagination } = await callTool<{ sets: unknown[]; pagination: unknown }>(ctx, 'list_sets', parseInput(listQuery, query));
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
