import { tierCost, type BlockCounts } from '../../budget/tier.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import type { WebContext } from '../route.ts';
import type { TierCosts } from '../views/layout.ts';

export interface SpaceItem {
  id: string;
  /** The bare slug (`alice`); pages write `@` before it themselves. */
  slug: string;
  name: string;
  visibility: 'private' | 'public';
  personal: boolean;
  owner: string;
  access: 'owner' | 'read' | 'comment';
  bindingCount: number;
}

/**
 * The spaces a person can read, as list_spaces shows them (first 100), slugs bare: list_spaces writes
 * them `@alice` for a model, and pages that add their own `@` showed "@@alice" in every space menu.
 */
export async function spaceOptions(ctx: WebContext): Promise<SpaceItem[]> {
  const { spaces } = await callTool(ctx.tools(), TOOLS.list_spaces, { limit: 100 });
  return spaces.map((s) => ({ ...s, slug: s.slug.replace(/^@/, '') }));
}

/** The spaces a person owns (where they may write). */
export async function writableSpaces(ctx: WebContext): Promise<SpaceItem[]> {
  return (await spaceOptions(ctx)).filter((s) => s.access === 'owner');
}

/** A binding's exact stored cost at each tier, as the pages show it. */
export function costsOf(row: BlockCounts): TierCosts {
  return { '1': tierCost(row, '1'), '1.5': tierCost(row, '1.5'), '2': tierCost(row, '2') };
}
