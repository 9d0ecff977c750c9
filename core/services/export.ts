import type { Caller } from '../context.ts';
import { exportPage, liveBindingCount } from '../../db/store/exports.ts';
import { listSpaceRows } from '../../db/store/spaces.ts';
import { resolveSpace, type CoreDeps } from './bindings.ts';
import { renderExport } from './export-format.ts';
import type { SpaceRow } from '../../db/store/users.ts';

/** Bindings read per query while exporting (bounds memory on large spaces). */
const PAGE = 100;

/** The spaces an export covers: the one named, else every space the caller owns. */
export async function spacesToExport(deps: CoreDeps, caller: Caller, ref?: string): Promise<{ space: SpaceRow; total: number }[]> {
  const spaces: SpaceRow[] = [];
  if (ref) spaces.push(await resolveSpace(deps, caller, ref));
  else {
    for (let offset = 0; ; offset += PAGE) {
      const { rows, total } = await listSpaceRows(deps.db, caller.id, offset, PAGE);
      spaces.push(...rows.filter((r) => r.access === 'owner'));
      if (offset + PAGE >= total) break;
    }
  }
  return Promise.all(spaces.map(async (space) => ({ space, total: await liveBindingCount(deps.db, space.id) })));
}

/** Every live binding of a space as its export file (slug and text), in slug order. */
export async function* exportFiles(deps: CoreDeps, caller: Caller, space: SpaceRow): AsyncGenerator<{ slug: string; text: string }> {
  for (let after = ''; ; ) {
    const rows = await exportPage(deps.db, caller.id, space.id, after, PAGE);
    for (const r of rows) {
      const text = renderExport({
        id: r.id,
        slug: r.slug,
        name: r.name,
        summary: r.summary,
        keyPoints: r.keyPoints,
        version: r.number,
        source: r.source,
        model: r.model,
        updatedAt: new Date(r.updatedAt).toISOString(),
        content: r.content,
      });
      yield { slug: r.slug, text };
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.slug;
  }
}
