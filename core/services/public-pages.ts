import type { LinkScope } from '../../db/store/access.ts';
import { versionContent, type BindingVersionRow } from '../../db/store/bindings.ts';
import { readableSet, setItemRows } from '../../db/store/sets.ts';
import { liveLinkShare } from '../../db/store/shares.ts';
import { readableBindingBySlug } from '../../db/store/slugs.ts';
import { findSpace } from '../../db/store/users.ts';
import type { Caller } from '../context.ts';
import type { CoreDeps } from './bindings.ts';
import { freshCounts, type RecountDeps } from './counts.ts';
import { listBindings } from './find.ts';

/**
 * The binding at `/@space/slug` as `callerId` may read it (through `links` too), or undefined: one
 * query, no row alike for missing and hidden, so their timing does not tell them apart.
 */
export function readablePage(
  deps: Pick<CoreDeps, 'db'>,
  callerId: string,
  space: string,
  slug: string,
  links: LinkScope,
): Promise<BindingVersionRow | undefined> {
  return readableBindingBySlug(deps.db, callerId, space, slug, links);
}

/** Whether the space holding a page is public (shared caches may keep only what everyone sees). */
export async function isPublicSpace(deps: Pick<CoreDeps, 'db'>, spaceId: string): Promise<boolean> {
  return (await findSpace(deps.db, spaceId))?.visibility === 'public';
}

/** The content of a page's version; pass only a row `readablePage` returned. */
export async function pageContent(deps: Pick<CoreDeps, 'db'>, row: BindingVersionRow): Promise<string> {
  return (await versionContent(deps.db, row.bindingId, row.number)) ?? '';
}

/** At most this many bindings are listed; the page says how many more the link opens. */
const MAX_LISTED = 200;

export interface LinkIndex {
  title: string;
  rows: BindingVersionRow[];
  total: number;
}

/**
 * What the live public link `links` lists at `/@space`: the live bindings of a linked space, or the
 * readable items of a linked set kept in that space. Undefined for anything else, so the caller
 * answers the one 404.
 */
export async function linkIndex(
  deps: RecountDeps,
  reader: Caller,
  space: string,
  links: { linkHash: string },
): Promise<LinkIndex | undefined> {
  const share = await liveLinkShare(deps.db, links.linkHash);
  if (share?.targetType === 'space') {
    const row = await findSpace(deps.db, share.targetId);
    if (row?.slug !== space) return undefined;
    const { rows, total } = await listBindings(deps, reader, { spaceId: row.id, links, offset: 0, limit: MAX_LISTED });
    return { title: `${row.name} (@${row.slug})`, rows: await freshCounts(deps, rows), total };
  }
  if (share?.targetType === 'set') {
    const set = await readableSet(deps.db, reader.id, share.targetId);
    if (set?.spaceSlug !== space) return undefined;
    const items = (await setItemRows(deps.db, reader.id, set.id, links)).filter((i) => i.readable && !i.deleted);
    return {
      title: set.name,
      rows: await freshCounts(
        deps,
        items.slice(0, MAX_LISTED).map((i) => i.row),
      ),
      total: items.length,
    };
  }
  return undefined;
}
