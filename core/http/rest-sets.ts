import { z } from 'zod';
import { versionContent } from '../../db/store/bindings';
import { listSetRows, type SetWithSpace } from '../../db/store/sets';
import { tierObject } from '../budget/tier';
import type { Caller } from '../context';
import { paginate, readCursor } from '../cursor';
import { resolveSpace, type CoreDeps } from '../services/bindings';
import { createSet, readSet, setContents } from '../services/sets';
import { bindingId, name, spaceRef, text, tierSchema } from '../tools/schema';
import { json } from './responses';
import { parseInput } from './validate';

const listQuery = z.strictObject({
  space: spaceRef().optional(),
  limit: z.coerce.number().int().min(1, { message: 'must be from 1 to 100' }).max(100, { message: 'must be from 1 to 100' }).default(20),
  cursor: z.string().max(2000).optional(),
});
const readQuery = z.strictObject({ tier: tierSchema.default('1') });
const createInput = z.strictObject({ name: name(), description: text().trim().max(600, { message: 'must be at most 600 characters' }).optional(), space: spaceRef().optional(), bindingIds: z.array(bindingId()).optional() });

function setHead(s: SetWithSpace) {
  return { id: s.id, name: s.name, description: s.description, space: `@${s.spaceSlug}`, updatedAt: new Date(s.updatedAt).toISOString() };
}

/** `/api/sets` (list, create) and `/api/sets/:id` (read with items at a tier). */
export async function handleSets(deps: CoreDeps, caller: Caller, method: string, id: string | undefined, query: Record<string, string>, body: unknown): Promise<Response> {
  if (!id && method === 'GET') {
    const q = parseInput(listQuery, query);
    const space = q.space ? await resolveSpace(deps, caller, q.space) : undefined;
    const scope = `rest-sets:${space?.id ?? '*'}:${q.limit}`;
    const offset = await readCursor(deps.db, q.cursor, scope);
    const { rows, total } = await listSetRows(deps.db, caller.id, { spaceId: space?.id, offset, limit: q.limit });
    const results = rows.map((r) => ({ ...setHead(r), itemCount: r.itemCount, totalTokenCount: r.totalTokenCount }));
    return json({ results, pagination: await paginate(deps.db, scope, offset, rows.length, total) });
  }
  if (!id && method === 'POST') {
    const set = await createSet(deps, caller, parseInput(createInput, body));
    return json({ set: setHead(set) }, 201);
  }
  if (id && method === 'GET') {
    const { tier } = parseInput(readQuery, query);
    const set = await readSet(deps, caller, id);
    const contents = await setContents(deps, caller, set);
    const items = await Promise.all(
      contents.items.map(async ({ row, pinned }) => {
        const content = tier === '2' ? await versionContent(deps.db, row.bindingId, row.number) : undefined;
        return { ...tierObject(row, tier, deps.config.publicUrl, content), pinned };
      }),
    );
    return json({ set: { ...setHead(set), totalTokenCount: contents.totalTokenCount, items, skipped: contents.skipped } });
  }
  return json({ error: { code: 'METHOD_NOT_ALLOWED', message: `${method} is not supported here` } }, 405);
}
